/**
 * Lexical ranking, pure: turning what a user typed into an FTS4 MATCH
 * expression, and scoring a row from FTS4's `matchinfo(fts, 'pcnalx')` with
 * BM25F (field-weighted BM25). sql.js ships FTS4 (with the porter stemmer and
 * matchinfo) but not FTS5 and its built-in bm25(), so the formula lives here,
 * where it can be tested without a database.
 */

/** The columns of the full-text table, in order; weights are given in this order. */
export const FTS_COLUMNS = ['summary', 'tags', 'body'] as const;

/** Summary and tags say what a memory is about; the body mostly how. */
export const DEFAULT_WEIGHTS: readonly number[] = [3, 2, 1];

export interface Bm25Options {
  /** One weight per column (FTS_COLUMNS order). */
  weights?: readonly number[];
  /** Term-frequency saturation. */
  k1?: number;
  /** Length normalisation, 0 (none) to 1 (full). */
  b?: number;
}

/**
 * English function words plus the filler of questions people ask a memory
 * ("why did we ...", "how do I ..."): they carry no topic and, OR-ed, would
 * match nearly every memory.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being below between both but by
can cannot could did do does doing don done down during each else etc ever every few for from further get gets got had has have having he her here hers
herself him himself his how i if in into is isn it its itself just let like made make makes many may me might more most much must my myself no nor not
now of off on once one only or other ought our ours ourselves out over own per please re same shall she should so some such than that the their theirs them
themselves then there these they this those though through thus to too under until up upon us use used using very via was we were what whatever when where
whether which while who whom whose why will with within without would yet you your yours yourself yourselves`
    .split(/\s+/)
    .filter(Boolean),
);

/** Terms beyond this many are dropped: a pasted paragraph is not a better query. */
export const MAX_TERMS = 32;
/** The last term also matches as a prefix (typing ahead) when it has at least this many characters. */
export const MIN_PREFIX = 3;

/**
 * Words as FTS4's tokenizer sees them: runs of ASCII letters and digits and of
 * non-ASCII characters; ASCII is lowercased (the porter tokenizer folds only ASCII).
 */
export function tokenize(text: string): string[] {
  return text
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
    .split(/[^a-z0-9\u0080-\uffff]+/)
    .filter(Boolean);
}

/** The query's distinct terms, stop words removed; if nothing but stop words remains, they are kept. */
export function queryTerms(text: string): string[] {
  const words = [...new Set(tokenize(text))];
  const content = words.filter((w) => !STOP_WORDS.has(w) && !STOP_WORDS.has(w.replace(/'.*$/, '')));
  return (content.length ? content : words).slice(0, MAX_TERMS);
}

export interface LexicalQuery {
  /** The FTS4 MATCH expression: quoted terms OR-ed together. */
  match: string;
  terms: string[];
  /**
   * Phrase numbers (as matchinfo counts them) for each term. A term has two
   * phrases when it is also searched as a prefix; it scores as the better of them.
   */
  groups: number[][];
}

/** Builds the MATCH expression, or null when the text has no words at all. */
export function buildLexicalQuery(text: string, options: { prefixLast?: boolean } = {}): LexicalQuery | null {
  const terms = queryTerms(text);
  if (terms.length === 0) return null;
  const phrases: string[] = [];
  const groups: number[][] = [];
  terms.forEach((term, i) => {
    // Quoted, so that no word is read as an operator; tokens never contain a double quote.
    const group = [phrases.push(`"${term}"`) - 1];
    const last = i === terms.length - 1;
    if (last && options.prefixLast !== false && term.length >= MIN_PREFIX) group.push(phrases.push(`"${term}*"`) - 1);
    groups.push(group);
  });
  return { match: phrases.join(' OR '), terms, groups };
}

/** matchinfo() returns 32-bit unsigned integers in machine order (little-endian in WebAssembly). */
export function decodeMatchinfo(blob: Uint8Array): Uint32Array {
  const out = new Uint32Array(Math.floor(blob.byteLength / 4));
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

/** Robertson/Lucene IDF: always positive, so a term in most memories still counts a little. */
export function idf(totalDocs: number, docsWithTerm: number): number {
  return Math.log(1 + (totalDocs - docsWithTerm + 0.5) / (docsWithTerm + 0.5));
}

/**
 * BM25F score of one row from `matchinfo(fts, 'pcnalx')`:
 * p phrases, c columns, n rows, a[c] average tokens per column, l[c] this
 * row's tokens per column, then per phrase and column x = (hits in this row,
 * hits in all rows, rows with a hit).
 *
 * For each term, the column frequencies are length-normalised per column,
 * weighted and summed into one pseudo-frequency, saturated once with k1, and
 * multiplied by the term's IDF. Saturating once (rather than per column) keeps
 * a term repeated in every field from outscoring two different terms. The
 * number of rows holding the term in any column is not in matchinfo; the
 * largest per-column count is used (a lower bound).
 */
export function bm25(info: ArrayLike<number>, options: Bm25Options = {}, groups?: readonly (readonly number[])[]): number {
  const weights = options.weights ?? DEFAULT_WEIGHTS;
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const p = info[0] ?? 0;
  const c = info[1] ?? 0;
  const n = info[2] ?? 0;
  const xAt = 3 + 2 * c;
  if (info.length < xAt + 3 * p * c) throw new Error(`matchinfo has ${info.length} values; 'pcnalx' with ${p} phrases and ${c} columns needs ${xAt + 3 * p * c}`);

  // Plain loops: this runs once per matching row, often thousands of times per query.
  const phraseScore = (phrase: number): number => {
    let tf = 0;
    let df = 0;
    for (let col = 0; col < c; col++) {
      const at = xAt + 3 * (phrase * c + col);
      const rows = info[at + 2]!;
      if (rows > df) df = rows;
      const hits = info[at]!;
      if (hits === 0) continue;
      const avg = info[3 + col]!;
      const norm = 1 - b + b * (info[3 + c + col]! / (avg > 1 ? avg : 1));
      tf += ((weights[col] ?? 1) * hits) / norm;
    }
    return tf === 0 ? 0 : idf(n, df) * ((tf * (k1 + 1)) / (tf + k1));
  };

  let score = 0;
  if (!groups) {
    for (let i = 0; i < p; i++) score += phraseScore(i);
    return score;
  }
  for (const group of groups) {
    let best = 0;
    for (const i of group) if (i < p) best = Math.max(best, phraseScore(i));
    score += best;
  }
  return score;
}
