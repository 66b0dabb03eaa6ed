// An in-memory postings source built as the term index builds its own (core/search/analyzer.ts terms,
// summary / tags / body frequencies packed per document), for in-process ranking runs: the fixture
// sweep (ranking-sweep.ts) and the public-benchmark importer (memory-benchmark.ts).
import { analyzeText, termOf } from '../../src/core/search/analyzer.ts';
import { packFrequencies } from '../../src/core/search/bm25f.ts';
import type { LexicalSource } from '../../src/core/search/lexical.ts';

export interface SourceMemory {
  summary: string;
  body?: string;
  tags?: string[];
}

export function memorySource(mems: readonly SourceMemory[]): LexicalSource {
  const lists = new Map<string, number[]>();
  const texts = mems.map((m) => [m.summary, (m.tags ?? []).join(' '), m.body ?? '']);
  const lengths = new Uint32Array(mems.length * 3);
  texts.forEach((fields, d) => {
    const freq = new Map<string, number[]>();
    fields.forEach((text, f) => {
      const tokens = analyzeText(text);
      lengths[d * 3 + f] = tokens.length;
      for (const t of tokens) {
        const term = termOf(t);
        if (!freq.has(term)) freq.set(term, [0, 0, 0]);
        freq.get(term)![f]!++;
      }
    });
    for (const [term, f] of freq) {
      if (!lists.has(term)) lists.set(term, []);
      lists.get(term)!.push(d, packFrequencies(f[0]!, f[1]!, f[2]!));
    }
  });
  const sorted = [...lists.keys()].sort();
  const postings = new Map([...lists].map(([t, l]) => [t, new Uint32Array(l)]));
  const averageLengths = [0, 1, 2].map((f) => {
    let sum = 0;
    for (let d = 0; d < mems.length; d++) sum += lengths[d * 3 + f]!;
    return sum / Math.max(1, mems.length);
  });
  return {
    docCount: mems.length,
    averageLengths,
    lengths,
    postings: (t) => postings.get(t),
    termsWithPrefix: (p) => sorted.filter((t) => t.startsWith(p)),
    docFrequency: (t) => (postings.get(t)?.length ?? 0) / 2,
    fieldTexts: (d) => texts[d]!,
  };
}
