/**
 * Forms of an English word that the Porter stemmer (core/search/stem.ts) leaves apart, brought
 * together before it: British and American spellings (normalise / normalize, behaviour /
 * behavior, analyse / analyze, centre / center), adverbs in -ly (randomly / random, smoothly /
 * smooth), irregular past forms and plurals (ran / run, built / build, indices / index). (The comparatives of common adjectives, faster / fast, were tried and left out:
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

/**
 * Irregular past forms and plurals as their base word (ran: run, broken: break, built: build,
 * thrown: throw, indices: index), which no suffix rule reaches. Left out where the form is also
 * another word in developer text: left, led, lit, bound, wound, shot, stuck, saw, rose, went and
 * gone (go is a language), fed, bit (64-bit), won (won't).
 */
const IRREGULAR: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  const table = `run:ran break:broke,broken build:built rebuild:rebuilt write:wrote,written rewrite:rewrote,rewritten
take:took,taken mistake:mistook,mistaken choose:chose,chosen give:gave,given know:knew,known send:sent keep:kept
catch:caught think:thought bring:brought buy:bought teach:taught sell:sold tell:told pay:paid meet:met lose:lost
drive:drove,driven eat:ate,eaten grow:grew,grown throw:threw,thrown speak:spoke,spoken steal:stole,stolen
swim:swam,swum fly:flew,flown forget:forgot,forgotten hide:hid,hidden ride:rode,ridden override:overrode,overridden
wake:woke,woken wear:wore,worn sing:sang,sung sleep:slept feel:felt hold:held deal:dealt understand:understood
stand:stood fight:fought seek:sought spin:spun shake:shook,shaken strike:struck draw:drew,drawn blow:blew,blown
sink:sank,sunk tear:tore,torn begin:began,begun freeze:froze,frozen hang:hung find:found spend:spent fall:fell,fallen
undo:undid,undone withdraw:withdrew,withdrawn forgive:forgave,forgiven bite:bitten beat:beaten slide:slid
learn:learnt burn:burnt spell:spelt dream:dreamt spill:spilt
man:men woman:women foot:feet tooth:teeth mouse:mice index:indices matrix:matrices vertex:vertices
appendix:appendices criterion:criteria half:halves`;
  for (const entry of table.split(/\s+/).filter(Boolean)) {
    const [base, forms] = entry.split(':') as [string, string];
    for (const form of forms.split(',')) map.set(form, base);
  }
  return map;
})();

/**
 * The American form of a British spelling of SPELLINGS, its plural (centres: centers) or its past
 * (centred: centered, licenced: licensed), or null. Other endings keep the word: programmer is
 * not programme + r.
 */
function spellingOf(word: string): string | null {
  const whole = SPELLINGS.get(word);
  if (whole !== undefined) return whole;
  const end = word.at(-1);
  const base = end === 's' || end === 'd' ? SPELLINGS.get(word.slice(0, -1)) : undefined;
  if (base === undefined) return null;
  return end === 's' ? `${base}s` : base.endsWith('e') ? `${base}d` : `${base}ed`;
}

/** The form of a lowercase ASCII word that the stemmer should see (the word itself when no rule applies). */
export function englishForm(word: string): string {
  const irregular = IRREGULAR.get(word);
  if (irregular !== undefined) return irregular;
  if (word.length < 4) return word;
  const spelled = spellingOf(word);
  if (spelled !== null) return spelled;
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
