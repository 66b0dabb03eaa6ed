/**
 * Forms of an English word that the Porter stemmer (core/search/stem.ts) leaves apart, brought
 * together before it: British and American spellings (normalise / normalize, behaviour /
 * behavior, analyse / analyze, centre / center), adverbs in -ly (randomly / random, smoothly /
 * smooth). (The comparatives of common adjectives, faster / fast, were tried and left out:
 * docs/search.md.)
 * Applied to lowercase ASCII words, at index and query time alike (core/search/analyzer.ts
 * termOf), so it changes the terms: ANALYZER_VERSION. Pure; rules, not a dictionary, with the
 * exceptions they would get wrong.
 */

/** British spellings with no rule to them, and their American forms (the plural and verb forms follow). */
const SPELLINGS: ReadonlyMap<string, string> = new Map([
  ['centre', 'center'],
  ['fibre', 'fiber'],
  ['metre', 'meter'],
  ['litre', 'liter'],
  ['theatre', 'theater'],
  ['calibre', 'caliber'],
  ['licence', 'license'],
  ['defence', 'defense'],
  ['offence', 'offense'],
  ['catalogue', 'catalog'],
  ['dialogue', 'dialog'],
  ['analogue', 'analog'],
  ['programme', 'program'],
  ['judgement', 'judgment'],
  ['ageing', 'aging'],
  ['grey', 'gray'],
  ['cheque', 'check'],
  ['tyre', 'tire'],
  ['plough', 'plow'],
  ['aluminium', 'aluminum'],
]);

/** Word starts that take -our in British English and -or in American (colour, behaviour, favourite, neighbours). */
const OUR = /^(behavi|col|fav|flav|hon|hum|lab|neighb|rum|harb|vap|vig|arm|od|sav|endeav|parl|splend|tum|val|clam|cand|ranc|ferv)our(s|ed|ing|ite|ites|able|ful|less|hood|er|ers|ly)?$/;

/**
 * -ise, -isation, -iser (normalise, organisation, initialiser) as -ize: only after the endings of
 * the verbs that take -ize in American English (normal-, organ-, optim-, categor-, synchron-,
 * recogn-, prioritis-...), which leaves the words ending in -ise in both (promise, exercise,
 * advertise, surprise, expertise, noise, raise, wise...).
 */
const ISE = /^([a-z]{2,}(?:al|il|ar|or|er|on|gn|an|en|it|et|im|om|ol|ic|id|rd|at|as|es|og|ul|in))is(e|ed|es|ing|ation|ations|er|ers|able)$/;
const ISE_EXCEPTIONS: ReadonlySet<string> = new Set(['promise', 'compromise', 'treatise', 'premise', 'demise', 'chemise']);
/** analyse, paralyse, catalyse (and their forms) as -yze. */
const YSE = /^(anal|paral|catal|dial|electrol|hydrol)ys(e|ed|es|ing|er|ers)$/;

/**
 * Adverbs in -ly after a letter that ends adjectives (c d e g h k m n r t, as the Porter2
 * stemmer's li-ending rule, and w), the adjective being 4 letters or more: randomly, smoothly, lately,
 * silently, weekly. Not reply, apply, supply, family, daily (a letter or length outside),
 * nor the adverbs that mean something else than their adjective (hardly, nearly, lately, likely).
 */
const LY = /^([a-z]{3,}[cdeghkmnrtw])ly$/;
const LY_EXCEPTIONS: ReadonlySet<string> = new Set(
  'early only gently singly ugly elderly homely friendly orderly hardly shortly lately nearly namely likely unlikely timely lovely deadly presently readonly'.split(' '),
);

/** The form of a lowercase ASCII word that the stemmer should see (the word itself when no rule applies). */
export function englishForm(word: string): string {
  if (word.length < 4) return word;
  const spelled = SPELLINGS.get(word) ?? SPELLINGS.get(word.slice(0, -1)) ?? null;
  if (spelled !== null) return SPELLINGS.has(word) ? spelled : spelled + word.at(-1);
  const last = word.charCodeAt(word.length - 1);
  // y: -ly; otherwise the -our, -ise and -yse families.
  if (last === 121 /* y */) {
    const ly = LY.exec(word);
    if (ly && !LY_EXCEPTIONS.has(word)) return ly[1]!;
    return word;
  }
  if (word.includes('our')) {
    const our = OUR.exec(word);
    if (our) return `${word.slice(0, our[1]!.length)}or${our[2] ?? ''}`;
  }
  if (word.includes('is')) {
    const ise = ISE.exec(word);
    if (ise && !ISE_EXCEPTIONS.has(word) && !ISE_EXCEPTIONS.has(`${ise[1]}ise`)) return `${ise[1]}iz${ise[2]}`;
  }
  if (word.includes('ys')) {
    const yse = YSE.exec(word);
    if (yse) return `${yse[1]}yz${yse[2]}`;
  }
  return word;
}
