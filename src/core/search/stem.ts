/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping",
 * 1980), with the two revisions its author published (bli→ble, logi→log):
 * the same stems SQLite's porter tokenizer produced before lexical search
 * moved to the term index. Pure; input is one lowercase ASCII word.
 */

function isConsonant(w: string, i: number): boolean {
  const c = w.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  // y is a consonant at the start or after a vowel, a vowel after a consonant.
  if (c === 121) return i === 0 || !isConsonant(w, i - 1);
  return true;
}

/** m: the number of vowel-consonant sequences in w[0, end). */
function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && isConsonant(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(w, i)) i++;
    if (i >= end) break;
    while (i < end && isConsonant(w, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
  return false;
}

/** *d: ends (before `end`) with a double consonant. */
function doubleConsonant(w: string, end: number): boolean {
  return end >= 2 && w[end - 1] === w[end - 2] && isConsonant(w, end - 1);
}

/** *o: ends consonant-vowel-consonant, the last not w, x or y. */
function cvc(w: string, end: number): boolean {
  if (end < 3 || !isConsonant(w, end - 1) || isConsonant(w, end - 2) || !isConsonant(w, end - 3)) return false;
  const last = w[end - 1];
  return last !== 'w' && last !== 'x' && last !== 'y';
}

type Rule = readonly [suffix: string, replacement: string];

/**
 * The first rule (longest suffix first) whose suffix w ends with decides:
 * applied when the rest has a measure above `minMeasure` (and `extra` holds), else nothing.
 */
function applyRules(w: string, rules: readonly Rule[], minMeasure: number, extra?: (stemEnd: number) => boolean): string {
  for (const [suffix, replacement] of rules) {
    if (!w.endsWith(suffix)) continue;
    const stemEnd = w.length - suffix.length;
    if (measure(w, stemEnd) > minMeasure && (!extra || extra(stemEnd))) return w.slice(0, stemEnd) + replacement;
    return w;
  }
  return w;
}

const longestFirst = (rules: Rule[]): readonly Rule[] => rules.sort((a, b) => b[0].length - a[0].length);

const STEP2 = longestFirst([
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['bli', 'ble'], ['alli', 'al'],
  ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'],
  ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
]);

const STEP3 = longestFirst([['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', '']]);

const STEP4 = longestFirst(
  ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'].map((s): Rule => [s, '']),
);

function step1ab(w: string): string {
  if (w.endsWith('sses') || w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);

  if (w.endsWith('eed')) return measure(w, w.length - 3) > 0 ? w.slice(0, -1) : w;
  const suffix = w.endsWith('ed') ? 2 : w.endsWith('ing') ? 3 : 0;
  if (!suffix || !hasVowel(w, w.length - suffix)) return w;
  w = w.slice(0, -suffix);
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return `${w}e`;
  if (doubleConsonant(w, w.length) && !/[lsz]$/.test(w)) return w.slice(0, -1);
  if (measure(w, w.length) === 1 && cvc(w, w.length)) return `${w}e`;
  return w;
}

export function porterStem(word: string): string {
  if (word.length <= 2) return word;
  let w = step1ab(word);
  if (w.endsWith('y') && hasVowel(w, w.length - 1)) w = `${w.slice(0, -1)}i`;
  w = applyRules(w, STEP2, 0);
  w = applyRules(w, STEP3, 0);
  // -ion comes off only after s or t.
  w = applyRules(w, STEP4, 1, (end) => !w.endsWith('ion') || w[end - 1] === 's' || w[end - 1] === 't');
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !cvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  if (w.endsWith('ll') && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}
