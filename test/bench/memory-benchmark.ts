// Lexical recall on a public long-term-memory benchmark, against plain BM25 measured in the same run.
// Downloads nothing: give it a local copy of the benchmark's data file.
//
//   bun test/bench/memory-benchmark.ts --locomo PATH        LoCoMo (snap-research/LoCoMo data/locomo10.json,
//                                                          or a folder of its per-conversation files)
//   bun test/bench/memory-benchmark.ts --longmemeval PATH   LongMemEval (longmemeval_s.json, _m or _oracle)
//       [--unit session|turn]   LongMemEval: a memory per session (default; relevant: answer_session_ids)
//                               or per turn (relevant: turns marked has_answer)
//       [--json]                figures as JSON
//       [--limit N]             the first N conversations (LoCoMo) or questions (LongMemEval)
//
// Each memory is what a memory tool would keep of the conversation: LoCoMo, one per dialogue turn,
// "Speaker: text" with a shared photo's caption as its body; LongMemEval, one per session (user and
// assistant turns) or per turn. Every question searches the memories of its own conversation
// (LoCoMo) or haystack (LongMemEval). Two rankings over the same memories and the same analyzer
// (core/search/analyzer.ts: words, identifier parts, Porter stems):
//   bm25     plain BM25 (k1 1.2, b 0.75), one field, the query's words (stop words out), nothing else
//   git-mem  recall's lexical ranking (core/search/lexical.ts DEFAULT_LEXICAL, query.ts: synonyms,
//            related words, the last word as a prefix, BM25F, feedback), as `git mem recall --mode
//            lexical` ranks; time phrases (core/search/query-time.ts) are not read here.
// recall@k: per question, the share of its relevant memories in the top k, averaged; MRR: 1 / the
// rank of the first relevant memory in the top 10 (0 if none), averaged. Questions without any
// relevant memory found in the data are skipped (counted in the report).
//
// Do not tune on a benchmark whose figures you report: docs/search.md.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LEXICAL, lexicalScores, type LexicalOptions, type LexicalSource } from '../../src/core/search/lexical.ts';
import { buildLexicalQuery } from '../../src/core/search/query.ts';
import { memorySource, type SourceMemory } from './lexical-source.ts';

const { values: opts } = parseArgs({
  options: {
    locomo: { type: 'string' },
    longmemeval: { type: 'string' },
    unit: { type: 'string', default: 'session' },
    json: { type: 'boolean', default: false },
    limit: { type: 'string' },
  },
});

/** One searched collection: its memories and the questions asked of it. */
interface Haystack {
  memories: SourceMemory[];
  questions: Array<{ question: string; relevant: number[]; category: string }>;
}

function fail(message: string): never {
  console.error(`memory-benchmark: ${message}`);
  process.exit(2);
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    fail(`cannot read ${file}: ${(e as Error).message}`);
  }
}

interface LocomoTurn { speaker: string; dia_id: string; text: string; blip_caption?: string }
interface LocomoQa { question: string; evidence?: string[]; category?: number }

/** LoCoMo: locomo10.json (samples with `conversation` and `qa`), or a folder of per-conversation files (sessions at the top level). */
function loadLocomo(file: string): Haystack[] {
  const samples: Array<{ conversation: Record<string, unknown>; qa: LocomoQa[] }> = [];
  if (fs.statSync(file).isDirectory()) {
    for (const name of fs.readdirSync(file).filter((n) => n.endsWith('.json')).sort()) {
      const data = readJson(path.join(file, name)) as Record<string, unknown> & { qa: LocomoQa[] };
      samples.push({ conversation: data, qa: data.qa ?? [] });
    }
  } else {
    const data = readJson(file);
    if (!Array.isArray(data)) fail(`${file}: not LoCoMo (expected an array of conversations)`);
    for (const s of data as Array<{ conversation?: Record<string, unknown>; qa?: LocomoQa[] }>) {
      if (!s.conversation) fail(`${file}: not LoCoMo (a sample without "conversation")`);
      samples.push({ conversation: s.conversation, qa: s.qa ?? [] });
    }
  }
  return samples.map(({ conversation, qa }) => {
    const memories: SourceMemory[] = [];
    const byId = new Map<string, number>();
    const sessions = Object.keys(conversation)
      .filter((k) => /^session_\d+$/.test(k) && Array.isArray(conversation[k]))
      .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
    for (const key of sessions) {
      for (const turn of conversation[key] as LocomoTurn[]) {
        byId.set(turn.dia_id, memories.length);
        memories.push({ summary: `${turn.speaker}: ${turn.text}`, body: turn.blip_caption ? `shares ${turn.blip_caption}` : '' });
      }
    }
    const questions = qa.map((q) => {
      // Evidence ids are sometimes written together ("D8:6; D9:17"): each D<session>:<turn> counts.
      const ids = (q.evidence ?? []).flatMap((e) => String(e).match(/D\d+:\d+/g) ?? []);
      const relevant = [...new Set(ids.map((id) => byId.get(id)).filter((d): d is number => d !== undefined))];
      return { question: q.question, relevant, category: `category ${q.category ?? '?'}` };
    });
    return { memories, questions };
  });
}

interface LongMemEvalTurn { role: string; content: string; has_answer?: boolean }
interface LongMemEvalQuestion {
  question: string;
  question_type?: string;
  answer_session_ids?: string[];
  haystack_session_ids: string[];
  haystack_sessions: LongMemEvalTurn[][];
}

/** LongMemEval: one haystack per question; a memory per session or per turn. */
function loadLongMemEval(file: string, unit: 'session' | 'turn'): Haystack[] {
  const data = readJson(file);
  if (!Array.isArray(data)) fail(`${file}: not LongMemEval (expected an array of questions)`);
  return (data as LongMemEvalQuestion[]).map((q) => {
    if (!Array.isArray(q.haystack_sessions) || typeof q.question !== 'string') fail(`${file}: not LongMemEval (a question without "question" or "haystack_sessions")`);
    const memories: SourceMemory[] = [];
    const relevant: number[] = [];
    const answers = new Set(q.answer_session_ids ?? []);
    q.haystack_sessions.forEach((session, s) => {
      if (unit === 'session') {
        if (answers.has(q.haystack_session_ids[s]!)) relevant.push(memories.length);
        const [first, ...rest] = session.map((t) => `${t.role}: ${t.content}`);
        memories.push({ summary: first ?? '', body: rest.join('\n') });
      } else {
        for (const t of session) {
          if (t.has_answer) relevant.push(memories.length);
          memories.push({ summary: `${t.role}: ${t.content}` });
        }
      }
    });
    return { memories, questions: [{ question: q.question, relevant, category: q.question_type ?? 'all' }] };
  });
}

/** A ranking: how a question is scored against one haystack's sources. */
interface Method {
  name: string;
  rank(sources: { fields: LexicalSource; plain: LexicalSource }, question: string): Float64Array | null;
}

const PLAIN_BM25: LexicalOptions = { k1: 1.2, b: 0.75, weights: [1, 1, 1] };
const methods: Method[] = [
  {
    name: 'bm25',
    rank: (s, q) => {
      const query = buildLexicalQuery(q, { synonyms: false, related: false, prefixLast: false });
      return query && lexicalScores(s.plain, query, () => true, PLAIN_BM25);
    },
  },
  {
    name: 'git-mem',
    rank: (s, q) => {
      const query = buildLexicalQuery(q);
      return query && lexicalScores(s.fields, query, () => true, DEFAULT_LEXICAL);
    },
  },
];

interface Row { r1: number; r5: number; r10: number; rr: number }
const mean = (rows: Row[], k: keyof Row) => (rows.length ? rows.reduce((s, r) => s + r[k], 0) / rows.length : 0);

function evaluate(haystacks: Haystack[]) {
  const rows = new Map<string, Array<Row & { category: string }>>(methods.map((m) => [m.name, []]));
  let skipped = 0;
  for (const h of haystacks) {
    const sources = { fields: memorySource(h.memories), plain: memorySource(h.memories.map((m) => ({ summary: [m.summary, (m.tags ?? []).join(' '), m.body ?? ''].join('\n') }))) };
    for (const q of h.questions) {
      if (!q.relevant.length) {
        skipped++;
        continue;
      }
      const relevant = new Set(q.relevant);
      for (const m of methods) {
        const scores = m.rank(sources, q.question);
        // As the term index orders: score, then the later memory first.
        const ranked = scores ? [...scores.keys()].filter((d) => scores[d]! > 0).sort((a, b) => scores[b]! - scores[a]! || b - a).slice(0, 10) : [];
        const at = (k: number) => ranked.slice(0, k).filter((d) => relevant.has(d)).length / relevant.size;
        const first = ranked.findIndex((d) => relevant.has(d));
        rows.get(m.name)!.push({ category: q.category, r1: at(1), r5: at(5), r10: at(10), rr: first < 0 ? 0 : 1 / (first + 1) });
      }
    }
  }
  const summary = (list: Row[]) => ({ questions: list.length, r1: mean(list, 'r1'), r5: mean(list, 'r5'), r10: mean(list, 'r10'), mrr: mean(list, 'rr') });
  const categories = [...new Set(rows.get(methods[0]!.name)!.map((r) => r.category))].sort();
  return {
    skipped,
    methods: Object.fromEntries(
      [...rows].map(([name, list]) => [name, { all: summary(list), byCategory: Object.fromEntries(categories.map((c) => [c, summary(list.filter((r) => r.category === c))])) }]),
    ),
  };
}

if (!opts.locomo === !opts.longmemeval) fail('give one of --locomo PATH or --longmemeval PATH (a local copy; nothing is downloaded)');
if (opts.unit !== 'session' && opts.unit !== 'turn') fail('--unit is session or turn');
const file = (opts.locomo ?? opts.longmemeval)!;
if (!fs.existsSync(file)) fail(`no such file: ${file}`);
let haystacks = opts.locomo ? loadLocomo(file) : loadLongMemEval(file, opts.unit as 'session' | 'turn');
if (opts.limit) haystacks = haystacks.slice(0, Number(opts.limit));
const result = evaluate(haystacks);
const benchmark = opts.locomo ? 'LoCoMo' : `LongMemEval (a memory per ${opts.unit})`;
if (opts.json) {
  console.log(JSON.stringify({ benchmark, file: path.basename(file), haystacks: haystacks.length, memories: haystacks.reduce((s, h) => s + h.memories.length, 0), ...result }, null, 2));
} else {
  const f = (x: number) => x.toFixed(3);
  console.log(`${benchmark}: ${haystacks.length} haystacks, ${haystacks.reduce((s, h) => s + h.memories.length, 0)} memories, ${result.methods.bm25!.all.questions} questions (${result.skipped} without a relevant memory, skipped)`);
  console.log(`${'method'.padEnd(10)} ${'subset'.padEnd(28)} ${'n'.padStart(5)}  R@1    R@5    R@10   MRR`);
  for (const [name, m] of Object.entries(result.methods)) {
    for (const [subset, s] of [['all', m.all] as const, ...Object.entries(m.byCategory)]) {
      console.log(`${name.padEnd(10)} ${subset.padEnd(28)} ${String(s.questions).padStart(5)}  ${f(s.r1)}  ${f(s.r5)}  ${f(s.r10)}  ${f(s.mrr)}`);
    }
  }
}
