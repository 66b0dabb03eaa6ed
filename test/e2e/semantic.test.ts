// Semantic and hybrid recall through the compiled binary, with the model generated
// by test/helpers/tiny-model.mjs (GIT_MEM_MODEL_PATH), and the model's absence,
// fetch and status. The fetch tests use a server on 127.0.0.1 (GIT_MEM_MODEL_URL).
import fs from 'node:fs';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { MODEL_FILES } from '../../src/stores/embed/model-files.ts';
import { testModelDir } from '../helpers/model.ts';
import { makeRepo, mem, memHook, memOk, type Sandbox, sandbox } from './helpers.ts';

interface Hit {
  id: string;
  summary: string;
  score: number;
}

const MODEL = testModelDir();
let server: ChildProcess;
let modelUrl = '';
let countUrl = '';

beforeAll(async () => {
  server = spawn(process.execPath, [path.join(import.meta.dirname, '../helpers/model-server.mjs'), MODEL], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => {
      const m = /port (\d+)/.exec(String(d));
      if (m) resolve(m[1]!);
    });
    server.on('exit', () => reject(new Error('model server exited')));
  });
  modelUrl = `http://127.0.0.1:${port}/model`;
  countUrl = `http://127.0.0.1:${port}/count`;
});
afterAll(() => {
  server.kill();
});

const requests = async () => Number(await (await fetch(countUrl)).text());

function seeded(box: Sandbox, env: NodeJS.ProcessEnv): { repo: string; ids: Record<string, string> } {
  const repo = makeRepo(box);
  const ids = {
    sqljs: memOk(repo, env, ['capture', 'decisions', 'Use sql.js for the local index', '-m', 'No native modules to build; the wasm build runs on every platform.', '--tags', 'database,wasm']),
    flaky: memOk(repo, env, ['capture', 'blockers', 'Flaky timeout in the sync integration tests', '-m', 'The remote fixture is slow to start.', '--tags', 'ci,tests']),
    cache: memOk(repo, env, ['capture', 'learnings', 'Caching parsed notes trees cuts capture latency', '-m', 'Reading objects in one batch avoids a process per note.']),
    windows: memOk(repo, env, ['capture', 'blockers', 'Windows paths break the index', '-m', 'Backslashes were not normalised.', '--status', 'resolved']),
  };
  return { repo, ids };
}

const recall = (repo: string, env: NodeJS.ProcessEnv, args: string[]) => {
  const r = mem(repo, env, ['recall', '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return { hits: JSON.parse(r.stdout) as Hit[], stderr: r.stderr };
};

/** The model command is registered with the other commands by their owner; until then its tests skip (usage error, exit 2). */
function needModelCommand(ctx: TestContext, repo: string, env: NodeJS.ProcessEnv): void {
  if (mem(repo, env, ['model', 'status']).code === 2) ctx.skip();
}

describe('semantic recall with a model', () => {
  it('runs semantic and hybrid recall with no fallback notice', () => {
    const box = sandbox();
    const env = { ...box.env, GIT_MEM_MODEL_PATH: MODEL };
    const { repo, ids } = seeded(box, env);

    const semantic = recall(repo, env, ['--mode', 'semantic', 'flaky sync tests']);
    expect(semantic.stderr).toBe('');
    // Every memory has a vector, so semantic search ranks them all; the one sharing the words first.
    expect(semantic.hits.map((h) => h.id)).toHaveLength(4);
    expect(semantic.hits[0]!.id).toBe(ids.flaky);
    expect(semantic.hits[0]!.score).toBeGreaterThan(semantic.hits[1]!.score);
    expect(semantic.hits[0]!.score).toBeLessThanOrEqual(1);

    const hybrid = recall(repo, env, ['--mode', 'hybrid', 'flaky']);
    expect(hybrid.stderr).toBe('');
    expect(hybrid.hits[0]!.id).toBe(ids.flaky);
    // Lexical search alone finds one memory; fusion adds the semantic ranking's.
    expect(recall(repo, env, ['--mode', 'lexical', 'flaky']).hits).toHaveLength(1);
    expect(hybrid.hits.length).toBeGreaterThan(1);
    // Scores are RRF normalised to (0, 1]: 1 is first in both rankings.
    expect(hybrid.hits[0]!.score).toBe(1);
    // hybrid is the default mode; the plain output has one line per hit and nothing on stderr.
    const plain = mem(repo, env, ['recall', 'flaky']);
    expect(plain).toMatchObject({ code: 0, stderr: '' });
    expect(plain.stdout.split('\n')[0]).toContain(ids.flaky!);

    // Filters apply to the semantic ranking too.
    const filtered = recall(repo, env, ['--mode', 'semantic', 'index', '--status', 'resolved']);
    expect(filtered.hits.map((h) => h.id)).toEqual([ids.windows]);
    expect(recall(repo, env, ['--mode', 'hybrid', 'flaky', '-n', 'decisions']).hits.map((h) => h.id)).toEqual([ids.sqljs]);
  });

  it('embeds new and edited memories on the next recall, and drops forgotten ones', () => {
    const box = sandbox();
    const env = { ...box.env, GIT_MEM_MODEL_PATH: MODEL };
    const { repo, ids } = seeded(box, env);
    // A vector file of version 1 (SQLite) is not read, and goes at the first write.
    const old = path.join(repo, '.git', 'mem', 'vectors.sqlite');
    fs.mkdirSync(path.dirname(old), { recursive: true });
    fs.writeFileSync(old, 'SQLite format 3\0');
    recall(repo, env, ['--mode', 'semantic', 'index']);
    expect(fs.existsSync(old)).toBe(false);
    memOk(repo, env, ['edit', ids.cache!, '--summary', 'Kubernetes operators need retries']);
    const added = memOk(repo, env, ['capture', 'learnings', 'Kubernetes rollout retries', '-m', 'backoff']);
    memOk(repo, env, ['forget', ids.windows!]);
    const r = recall(repo, env, ['--mode', 'semantic', 'kubernetes retries']);
    expect(r.stderr).toBe('');
    expect(r.hits.map((h) => h.id).slice(0, 2).sort()).toEqual([ids.cache, added].sort());
    expect(r.hits.map((h) => h.id)).not.toContain(ids.windows);
    expect(fs.existsSync(path.join(repo, '.git', 'mem', 'vectors.bin'))).toBe(true);
  });

  it('a vectors.bin of another version is never read: recall embeds again and rewrites it', () => {
    const box = sandbox();
    const env = { ...box.env, GIT_MEM_MODEL_PATH: MODEL };
    const { repo, ids } = seeded(box, env);
    memOk(repo, env, ['model', 'embed']);
    const file = path.join(repo, '.git', 'mem', 'vectors.bin');
    const record = path.join(repo, '.git', 'mem', 'vectors-covered.json');
    // What version 2 left: its header says so, and a coverage record of then that matches the file.
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf('"version":"3"');
    expect(at).toBeGreaterThan(0);
    bytes.write('"version":"2"', at, 'latin1');
    fs.writeFileSync(file, bytes);
    const st = fs.statSync(file);
    fs.writeFileSync(record, JSON.stringify({ ...JSON.parse(fs.readFileSync(record, 'utf8')), version: 1, size: st.size, mtimeMs: st.mtimeMs }));
    const traced = { ...env, GIT_MEM_TRACE: '1' };
    const r = recall(repo, traced, ['--mode', 'semantic', 'flaky sync tests']);
    // Every memory is found, as with a fresh file: the old rows were embedded again, not read.
    expect(r.hits).toHaveLength(4);
    expect(r.hits[0]!.id).toBe(ids.flaky);
    expect(r.stderr).toContain('embedding model loaded');
    expect(fs.readFileSync(file).includes('"version":"3"')).toBe(true);
    // From then on the file serves: nothing to embed.
    expect(recall(repo, traced, ['--mode', 'semantic', 'flaky sync tests']).stderr).not.toContain('embedding model loaded');
  });

  it('model status reports the model, its source and the vectors; embed fills them', (ctx) => {
    const box = sandbox();
    const env = { ...box.env, GIT_MEM_MODEL_PATH: MODEL };
    // A capture never embeds (issue 36): the model is present, and no vector is stored until embed.
    const { repo } = seeded(box, env);
    needModelCommand(ctx, repo, env);
    const text = memOk(repo, env, ['model', 'status']);
    expect(text).toContain(MODEL);
    expect(text).toContain('GIT_MEM_MODEL_PATH');
    expect(text).toMatch(/present/);
    const s = JSON.parse(memOk(repo, env, ['model', 'status', '--json']));
    expect(s).toMatchObject({ path: MODEL, source: 'GIT_MEM_MODEL_PATH', present: true, dimension: 64, vectors: { embedded: 0, memories: 4 } });
    expect(s.modelId).toMatch(/^git-mem-test\/tiny@[0-9a-f]{8}$/);
    const embed = JSON.parse(memOk(repo, env, ['model', 'embed', '--json']));
    expect(embed).toMatchObject({ memories: 4, embedded: 4, reused: 0 });
    expect(JSON.parse(memOk(repo, env, ['model', 'embed', '--json']))).toMatchObject({ embedded: 0, reused: 4 });
    expect(JSON.parse(memOk(repo, env, ['model', 'status', '--json'])).vectors).toMatchObject({ embedded: 4, memories: 4 });
    const check = JSON.parse(memOk(repo, env, ['model', 'status', '--check', '--json'])).check;
    expect(check.ok).toBe(true);
    expect(check.embedMs).toBeGreaterThan(0);
    // Outside a repository too, without the vectors line.
    const outside = JSON.parse(memOk(box.root, env, ['model', 'status', '--json']));
    expect(outside.present).toBe(true);
    expect(outside).not.toHaveProperty('vectors');
  });
});

describe('static query table', () => {
  it('model embed distils it once; recall then embeds queries without the model, unless told to use it', () => {
    const box = sandbox();
    const env = { ...box.env, GIT_MEM_MODEL_PATH: MODEL };
    const { repo, ids } = seeded(box, env);
    const first = JSON.parse(memOk(repo, env, ['model', 'embed', '--json']));
    // A model of mem.modelPath is the user's directory: the table goes to the cache folder.
    expect(first.distilled.file.startsWith(path.join(box.root, '.cache', 'git-mem', 'static'))).toBe(true);
    expect(first.distilled.tokens).toBeGreaterThan(1000);
    expect(fs.readdirSync(MODEL)).not.toContain('git-mem-static.bin');
    expect(JSON.parse(memOk(repo, env, ['model', 'embed', '--json']))).not.toHaveProperty('distilled');
    expect(JSON.parse(memOk(repo, env, ['model', 'status', '--json'])).staticTable).toMatchObject({ file: first.distilled.file, used: true });
    expect(memOk(repo, env, ['model', 'status'])).toMatch(/queries +static table/);

    const traced = { ...env, GIT_MEM_TRACE: '1' };
    const fast = recall(repo, traced, ['--mode', 'semantic', 'Use sql.js for the local index']);
    expect(fast.hits[0]!.id).toBe(ids.sqljs);
    expect(fast.stderr).toContain('static query table loaded');
    expect(fast.stderr).not.toContain('embedding model loaded');
    // Every memory has its vector at these notes: the SQLite index is not even opened.
    expect(fast.stderr).not.toContain('sql.js ready');
    const full = recall(repo, { ...traced, GIT_MEM_RECALL_QUERY_EMBEDDING: 'model' }, ['--mode', 'semantic', 'Use sql.js for the local index']);
    expect(full.hits[0]!.id).toBe(ids.sqljs);
    expect(full.stderr).not.toContain('static query table loaded');
    expect(full.stderr).toContain('embedding model loaded');

    // A new memory has no vector: the model is loaded to embed it, the query stays static.
    const added = memOk(repo, env, ['capture', 'learnings', 'Kubernetes rollout retries', '-m', 'backoff']);
    const later = recall(repo, traced, ['--mode', 'hybrid', 'kubernetes rollout retries']);
    expect(later.hits[0]!.id).toBe(added);
    expect(later.stderr).toContain('static query table loaded');
    expect(later.stderr).toContain('embedding model loaded');
    // That recall found every current memory embedded: the next needs neither the model nor the SQLite index.
    const again = recall(repo, traced, ['--mode', 'hybrid', 'kubernetes rollout retries']);
    expect(again.hits.map((h) => h.id)).toEqual(later.hits.map((h) => h.id));
    expect(again.stderr).not.toMatch(/embedding model loaded|sql\.js ready/);
    // An archived memory is outside what that recall measured: asking for it takes the full path.
    expect(recall(repo, traced, ['kubernetes', '--mode', 'hybrid', '--status', 'archived']).stderr).toContain('sql.js ready');

    expect(JSON.parse(memOk(repo, env, ['model', 'distill', '--json']))).toMatchObject({ file: first.distilled.file, tokens: first.distilled.tokens });
    // A damaged table is no table: queries go to the model again.
    fs.writeFileSync(first.distilled.file, 'garbage');
    const damaged = recall(repo, traced, ['--mode', 'semantic', 'Use sql.js for the local index']);
    expect(damaged.hits[0]!.id).toBe(ids.sqljs);
    expect(damaged.stderr).toContain('embedding model loaded');
  });

  it('the prompt hook adds what only semantic search finds, from stored vectors, without the model', async () => {
    const box = sandbox();
    const env = { ...box.env, GIT_MEM_MODEL_PATH: MODEL };
    const { repo } = seeded(box, env);
    // A word lexical search does not match (neither a stem nor a prefix of it), but which shares all but one word piece.
    memOk(repo, env, ['capture', 'decisions', 'Adopt zyxwvut for qponm']);
    const prompt = { session_id: 's1', prompt: 'why did we pick zyxwvutq?' };
    const before = await memHook(repo, env, 'UserPromptSubmit', prompt);
    expect(before.code).toBe(0);
    expect(before.stdout).not.toContain('zyxwvut');
    memOk(repo, env, ['model', 'embed']);
    const traced = await memHook(repo, { ...env, GIT_MEM_TRACE: '1' }, 'UserPromptSubmit', { ...prompt, session_id: 's2' });
    expect(traced.code).toBe(0);
    expect(traced.stdout).toContain('Adopt zyxwvut for qponm');
    expect(traced.stderr).toContain('prompt recall: semantic adds');
    expect(traced.stderr).not.toContain('embedding model loaded');
    const off = await memHook(repo, { ...env, GIT_MEM_HOOKS_SEMANTIC: 'false' }, 'UserPromptSubmit', { ...prompt, session_id: 's3' });
    expect(off.code).toBe(0);
    expect(off.stdout).not.toContain('zyxwvut');
  });
});

describe('without a model', () => {
  it('falls back to lexical with one notice line, and never fetches when told not to', async (ctx) => {
    const box = sandbox();
    const env = { ...box.env, GIT_MEM_MODEL_DOWNLOAD: 'false', GIT_MEM_MODEL_URL: modelUrl };
    const { repo, ids } = seeded(box, env);
    const before = await requests();
    for (const mode of ['semantic', 'hybrid']) {
      const r = recall(repo, env, ['--mode', mode, 'flaky']);
      expect(r.hits.map((h) => h.id)).toEqual([ids.flaky]);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/no embedding model is available .*falls back to lexical search/);
    }
    expect(await requests()).toBe(before);
    needModelCommand(ctx, repo, env);
    const s = JSON.parse(memOk(repo, env, ['model', 'status', '--json']));
    expect(s).toMatchObject({ present: false, source: 'cache', path: path.join(box.root, '.cache', 'git-mem', 'models', 'Xenova', 'all-MiniLM-L6-v2') });
    expect(memOk(repo, env, ['model', 'status'])).toMatch(/missing/);
  });

  it('a missing mem.modelPath copy is named in the notice', () => {
    const box = sandbox();
    const { repo } = seeded(box, box.env);
    const env = { ...box.env, GIT_MEM_MODEL_PATH: path.join(box.root, 'nowhere') };
    const r = recall(repo, env, ['--mode', 'hybrid', 'flaky']);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('nowhere');
    expect(r.stderr).toContain('falls back to lexical search');
  });

  it('fetches the model on first semantic use where a server answers, into the XDG cache', () => {
    const box = sandbox();
    const cache = path.join(box.root, 'xdg-cache');
    const env = { ...box.env, GIT_MEM_MODEL_URL: modelUrl, XDG_CACHE_HOME: cache };
    const { repo, ids } = seeded(box, env);
    const r = recall(repo, env, ['--mode', 'hybrid', 'flaky']);
    expect(r.hits[0]!.id).toBe(ids.flaky);
    expect(r.hits.length).toBeGreaterThan(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/fetching the embedding model/)]);
    for (const f of MODEL_FILES) expect(fs.existsSync(path.join(cache, 'git-mem', 'models', 'Xenova', 'all-MiniLM-L6-v2', f)), f).toBe(true);
    // From now on it is there: no fetch, no notice.
    expect(recall(repo, env, ['--mode', 'semantic', 'flaky']).stderr).toBe('');
  });

  it('gives up quickly on an unreachable server, then waits before trying again; model pull fetches it', (ctx) => {
    const box = sandbox();
    const env = { ...box.env, GIT_MEM_MODEL_URL: 'http://127.0.0.1:9/model' };
    const { repo, ids } = seeded(box, env);
    const started = Date.now();
    const first = recall(repo, env, ['--mode', 'hybrid', 'flaky']);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(first.hits.map((h) => h.id)).toEqual([ids.flaky]);
    expect(first.stderr.trim().split('\n')).toHaveLength(1);
    expect(first.stderr).toMatch(/fetching it failed: cannot reach 127\.0\.0\.1:9/);
    const second = recall(repo, env, ['--mode', 'hybrid', 'flaky']);
    expect(second.stderr).toMatch(/the last fetch failed/);

    needModelCommand(ctx, repo, env);
    const failed = mem(repo, env, ['model', 'pull']);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim().split('\n')).toHaveLength(1);
    const ok = { ...env, GIT_MEM_MODEL_URL: modelUrl };
    expect(memOk(repo, ok, ['model', 'pull'])).toMatch(/^fetched .* into /);
    expect(memOk(repo, ok, ['model', 'pull'])).toMatch(/already present/);
    expect(JSON.parse(memOk(repo, ok, ['model', 'status', '--json']))).toMatchObject({ present: true, source: 'cache', download: { lastFailure: null } });
    expect(recall(repo, env, ['--mode', 'hybrid', 'flaky']).stderr).toBe('');
  });

  it('model pull, embed and distill draw their progress on a terminal, erased before the result', (ctx) => {
    const box = sandbox();
    const env = { ...box.env, GIT_MEM_MODEL_URL: modelUrl, XDG_CACHE_HOME: path.join(box.root, 'xdg-cache') };
    const { repo } = seeded(box, env);
    needModelCommand(ctx, repo, env);
    if (spawnSync('script', ['-qec', 'true', '/dev/null'], { encoding: 'utf8' }).status !== 0) return; // no script(1) here
    // Under script(1) stdout and stderr are one terminal, read here as stdout.
    const onTerminal = (args: string) => {
      const r = spawnSync('script', ['-qec', `git mem model ${args}`, '/dev/null'], { cwd: repo, env, encoding: 'utf8' });
      expect(r.status, r.stdout).toBe(0);
      return r.stdout;
    };
    const erased = '\\r\\x1b\\[K(?:\\r?\\n)?';
    expect(onTerminal('pull')).toMatch(new RegExp(`\\rfetching Xenova/all-MiniLM-L6-v2 \\[#{30}\\] 100% (\\d+)/\\1 KiB${erased}fetched [\\d.]+ MB into `));
    const embedded = onTerminal('embed');
    expect(embedded).toMatch(new RegExp(`\\rembedding \\[#{30}\\] 100% 4/4 memories${erased}`));
    expect(embedded).toMatch(new RegExp(`\\rdistilling the static query table \\[#{30}\\] 100% (\\d+)/\\1 tokens${erased}4 memories embedded in `));
    expect(onTerminal('distill')).toMatch(new RegExp(`\\rdistilling the static query table \\[#{30}\\] 100% (\\d+)/\\1 tokens${erased}static query table: \\d+ tokens distilled`));
  });
});
