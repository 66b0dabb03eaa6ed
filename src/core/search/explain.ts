/**
 * Why a memory was recalled (git mem recall --explain, --json's `explain`, and the hooks' lines
 * under GIT_MEM_TRACE): the matches BM25F recorded while it scored (core/search/bm25f.ts TermMatch), and
 * what recall did with the score after (placement, a time asked for, the hooks' relevance floor).
 * Nothing here scores: it only says what the scorer and recall recorded. Pure.
 */
import { FIELDS, type TermMatch } from './bm25f.ts';
import { relatedSource } from './query.ts';

export interface Explanation {
  /** The BM25F score: the sum of the matches' scores. */
  lexical: number;
  /** Each query word (or feedback word) that matched, in the order scored. */
  matches: TermMatch[];
  /** Where the memory's commit stands and the weight that gives (core/history/anchor.ts reachWeight). */
  placement?: { reach: string; weight: number };
  /** A time the query asked about (core/search/query-time.ts): the weight the memory's date gives. */
  time?: { asked: string; weight: number };
  /** Hybrid recall: the memory's rank (from 1) in the lexical and the semantic ranking, null where absent. */
  fused?: { lexical: number | null; semantic: number | null };
  /** Found by its time alone: the query asked about a time and named no topic (newest first). */
  byTime?: boolean;
  /** The score recall ranked by. */
  score: number;
  /** The hooks' relevance floor: the lowest score injected unasked, and whether this hit reaches it. */
  floor?: { share: number; min: number; kept: boolean };
}

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Where a related word's match came from: the word's neighbours in developer text, the general-English
 * synonyms (WordNet) or the everyday neighbours (GloVe). The scorer records all as `related`, and the
 * tables say which (core/search/query.ts relatedSource).
 */
const sourceOf = (m: TermMatch) => (m.kind === 'related' && m.terms.length === 1 ? relatedSource(m.word, m.terms[0]!) : null);
const RELATED_NAMES = { developer: 'related word', general: 'general synonym', everyday: 'everyday neighbour' } as const;

/** One match as words: `db → databas (synonym) ×0.8: summary tf 1 (1.52); idf 1.87 = 1.23`. */
export function matchText(m: TermMatch): string {
  if (m.kind === 'phrase') return phraseText(m);
  const related = RELATED_NAMES[sourceOf(m) ?? 'developer'];
  const how =
    m.kind === 'term' ? '' : m.kind === 'prefix' ? ` (prefix: ${m.terms.join(', ')})` : m.kind === 'synonym' ? ` → ${m.terms.join(', ')} (synonym)` : m.kind === 'related' ? ` → ${m.terms.join(', ')} (${related})` : ' (feedback)';
  const fields = FIELDS.flatMap((f, i) => (m.frequencies[i]! > 0 ? [`${f} tf ${m.frequencies[i]} (${round(m.fields[i]!, 2)})`] : [])).join(', ');
  const weight = m.weight !== 1 ? ` ×${round(m.weight)}` : '';
  return `${m.word}${how}${weight}: ${fields}; idf ${round(m.idf, 2)} = ${round(m.score)}`;
}

/** A quoted phrase the memory holds: `"connection pool" (phrase): summary 1, body 2 = 7.4` (the best match's score, added). */
function phraseText(m: TermMatch): string {
  const fields = FIELDS.flatMap((f, i) => (m.frequencies[i]! > 0 ? [`${f} ${m.frequencies[i]}`] : [])).join(', ');
  return `"${m.word}" (phrase): ${fields} = ${round(m.score)}`;
}

/** The explanation as lines (without indentation), the matches first. */
export function explanationLines(e: Explanation): string[] {
  const lines = e.matches.map(matchText);
  if (!e.matches.length) lines.push(e.byTime ? 'created in the time asked about; the query names no topic (newest first)' : 'no word of the query matched');
  const after: string[] = [`bm25f ${round(e.lexical)}`];
  if (e.fused) after.push(`fused ranks: lexical ${e.fused.lexical ?? '-'}, semantic ${e.fused.semantic ?? '-'}`);
  if (e.placement) after.push(`placement ${e.placement.reach} ×${e.placement.weight}`);
  if (e.time) after.push(`time ${e.time.asked} ×${round(e.time.weight)}`);
  after.push(`score ${round(e.score)}`);
  lines.push(after.join('; '));
  if (e.floor) {
    // A single hit is kept whenever it matches (core/search/floor.ts floorScore): there is no best to be near.
    const floor = e.floor.min === Number.MIN_VALUE ? 'relevance floor: a single hit' : `relevance floor ${e.floor.share} × best = ${round(e.floor.min)}`;
    lines.push(`${floor}: ${e.floor.kept ? 'kept' : 'dropped'} by the hooks`);
  }
  return lines;
}

/** A match for JSON: numbers rounded, names spelt out. */
export function matchJson(m: TermMatch): Record<string, unknown> {
  // A phrase has occurrences per field and what it added, no BM25F parts.
  if (m.kind === 'phrase') {
    return { word: m.word, kind: m.kind, terms: m.terms, fields: Object.fromEntries(FIELDS.flatMap((f, i) => (m.frequencies[i]! > 0 ? [[f, { tf: m.frequencies[i] }]] : []))), score: round(m.score, 4) };
  }
  // A related word from the general-English synonyms (WordNet) or the everyday neighbours (GloVe),
  // not the developer-text neighbours, says so.
  const source = sourceOf(m);
  return {
    word: m.word,
    kind: m.kind,
    ...(source === 'general' ? { general: true } : source === 'everyday' ? { everyday: true } : {}),
    terms: m.terms,
    fields: Object.fromEntries(FIELDS.flatMap((f, i) => (m.frequencies[i]! > 0 ? [[f, { tf: m.frequencies[i], part: round(m.fields[i]!, 4) }]] : []))),
    idf: round(m.idf, 4),
    weight: round(m.weight, 4),
    score: round(m.score, 4),
  };
}

export function explanationJson(e: Explanation): Record<string, unknown> {
  return {
    matches: e.matches.map(matchJson),
    bm25f: round(e.lexical, 4),
    ...(e.byTime ? { byTime: true } : {}),
    ...(e.fused ? { fused: e.fused } : {}),
    ...(e.placement ? { placement: e.placement } : {}),
    ...(e.time ? { time: { asked: e.time.asked, weight: round(e.time.weight, 4) } } : {}),
    score: round(e.score, 4),
    ...(e.floor ? { floor: { share: e.floor.share, min: round(e.floor.min, 4), kept: e.floor.kept } } : {}),
  };
}
