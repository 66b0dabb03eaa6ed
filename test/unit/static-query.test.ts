// The static query embedding: our WordPiece tokenizer against transformers.js's, and the
// distilled table against the model it came from (tiny generated model).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cosine } from '../../src/core/search/embedding.ts';
import { bertWords, wordPieceIds } from '../../src/core/search/wordpiece.ts';
import { loadEmbedder } from '../../src/stores/embed/embedder.ts';
import { modelInfo } from '../../src/stores/embed/model-files.ts';
import { distillStaticTable, openStaticEmbedder, readWordPiece } from '../../src/services/search/static-query.ts';
import { testModelDir } from '../helpers/model.ts';

const TEXTS = [
  'Why did we choose sql.js for the local index?',
  "Don't retry on HTTP 429: back off (exponentially) instead.",
  'Café naïve résumé — ÜBER straße',
  'getUserById in src/stores/index/index.ts:257',
  '日本語のテキスト and emoji 🎉 mixed',
  'a'.repeat(120),
  '   \t\n  ',
];

describe('static query embedding', () => {
  const dir = testModelDir();

  it('splits text into the same word pieces as transformers.js', async () => {
    const { AutoTokenizer } = await import('@xenova/transformers/src/tokenizers.js');
    const read = (f: string) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    const config = read('tokenizer_config.json');
    const Tokenizer = AutoTokenizer.TOKENIZER_CLASS_MAPPING[config.tokenizer_class]!;
    const reference = new Tokenizer(read('tokenizer.json'), config) as unknown as { encode(text: string, pair: null, options: { add_special_tokens: boolean }): number[] };
    const wp = readWordPiece(dir);
    if ('unsupported' in wp) throw new Error(wp.unsupported);
    const vocab = new Map(wp.tokens.map((t, i) => [t, i]));
    for (const text of TEXTS) {
      const want = reference.encode(text, null, { add_special_tokens: false }).slice(0, 50);
      expect(wordPieceIds(text, vocab, wp.unk, 50), text).toEqual(want);
    }
    expect(bertWords('Hello, World!')).toEqual(['hello', ',', 'world', '!']);
  });

  it('distils a table whose query vectors are close to the model\'s', async () => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-static-'));
    const env = { HOME: cache, XDG_CACHE_HOME: cache };
    const info = modelInfo(dir, 'x');
    expect(openStaticEmbedder(info, env, false)).toBeNull();
    const model = await loadEmbedder(info, env);
    const report = await distillStaticTable(info, model, env, false);
    expect(report.file.startsWith(cache)).toBe(true);
    expect(report.tokens).toBeGreaterThan(1000);
    const table = openStaticEmbedder(info, env, false)!;
    expect(table.modelId).toBe(model.modelId);
    const queries = ['sql.js local index', 'flaky sync integration tests', 'kubernetes rollout retries', 'why did we pick the wasm build of sqlite over a native module for the index'];
    const [exact, fast] = [await model.embed(queries), await table.embed(queries)];
    // The tiny model is a bag of words: with the surplus [CLS]/[SEP] pairs taken out, the static
    // vector is the model's but for the rows' int8 rounding (left in, a three-word query fell to 0.9989, longer ones further).
    for (let i = 0; i < queries.length; i++) expect(cosine(exact[i]!, fast[i]!), queries[i]).toBeGreaterThan(0.9999);
    // Nothing known: a zero vector, which ranks nothing.
    expect(Math.hypot(...(await table.embed(['🎉']))[0]!)).toBe(0);
    fs.rmSync(cache, { recursive: true });
  });
});
