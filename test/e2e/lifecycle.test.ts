// The memory lifecycle through the compiled binary on real repositories: links at capture,
// related, consolidate (extractive and --with), supersession, gc, forget with filters, every
// --dry-run leaving every refs/notes/mem/* ref as it was, and a consolidation converging with an
// edit of an original made in another clone.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testModelDir } from '../helpers/model.ts';
import { git, makeClones, makeRepo, mem, memOk, sandbox, type Sandbox } from './helpers.ts';

interface Json {
  id: string;
  key: string;
  summary: string;
  status: string;
  relates_to: string[];
  consolidates: string[];
  consolidated_into: string | null;
  supersedes: string[];
  superseded_by: string | null;
  reprieves: number;
  body: string;
}

const lexical = (box: Sandbox) => ({ ...box.env, GIT_MEM_RECALL_MODE: 'lexical' });
const at = (env: NodeJS.ProcessEnv, now: string) => ({ ...env, GIT_MEM_NOW: now });
const show = (repo: string, env: NodeJS.ProcessEnv, id: string): Json => JSON.parse(memOk(repo, env, ['show', id, '--json']));
const all = (repo: string, env: NodeJS.ProcessEnv): Json[] => JSON.parse(memOk(repo, env, ['list', '--json']));

/** Every notes ref of git-mem and where it points: what a dry run must leave alone. */
function noteRefs(repo: string, env: NodeJS.ProcessEnv): string {
  return git(repo, env, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/notes/mem/']);
}

/** Three memories about upload retries, one about CSS: the first three say nearly the same. */
function backoffRepo(box: Sandbox, env: NodeJS.ProcessEnv) {
  const repo = makeRepo(box);
  const a = memOk(repo, env, ['capture', 'learnings', 'Retry storage uploads with exponential backoff on 503', '-m', 'Because the storage API throttles bursts.']);
  const b = memOk(repo, env, ['capture', 'learnings', 'Storage uploads need exponential backoff retries', '-m', 'The storage API answers 503 when it throttles.']);
  const c = memOk(repo, env, ['capture', 'learnings', 'Exponential backoff for storage uploads avoids 503 errors']);
  const d = memOk(repo, env, ['capture', 'learnings', 'The CSS grid layout breaks in Safari 15', '-m', 'Use flexbox there instead of grid, so that old iPads render it.']);
  return { repo, a, b, c, d };
}

describe('connections', () => {
  it('a capture links to the similar memories of its namespace, and related shows them both ways, with no unrelated one', () => {
    const box = sandbox();
    const env = lexical(box);
    const { repo, a, b, c, d } = backoffRepo(box, env);
    const keyOf = (id: string) => id.split(':')[2]!;
    // c was captured last: it names both earlier ones; the CSS memory names none and is named by none.
    expect(show(repo, env, c).relates_to.map((r) => r.split(':')[1]!.slice(0, 10)).sort()).toEqual([keyOf(a), keyOf(b)].sort());
    expect(show(repo, env, d).relates_to).toEqual([]);

    const related = JSON.parse(memOk(repo, env, ['related', a, '--json']));
    expect(related.measure).toBe('lexical');
    expect(related.linked.map((l: { id: string }) => l.id).sort()).toEqual([b, c].sort());
    expect(related.linked.every((l: { direction: string }) => l.direction === 'from')).toBe(true);
    expect(JSON.stringify(related)).not.toContain(keyOf(d));
    expect(memOk(repo, env, ['related', d])).toMatch(/linked\s+\(none\)[\s\S]*similar, not linked.*\(none\)/);
  });

  it('related lists unlinked memories above the threshold, and none below it', () => {
    const box = sandbox();
    // Linking off at capture (threshold above 1): related finds the neighbours by similarity alone.
    const env = { ...lexical(box), GIT_MEM_LIFECYCLE_CONNECT: '1' };
    const { repo, a, b, c, d } = backoffRepo(box, env);
    expect(show(repo, env, c).relates_to).toEqual([]);
    const related = JSON.parse(memOk(repo, { ...env, GIT_MEM_LIFECYCLE_CONNECT: '0.4' }, ['related', a, '--json']));
    expect(related.linked).toEqual([]);
    expect(related.similar.map((s: { id: string }) => s.id).sort()).toEqual([b, c].sort());
    for (const s of related.similar) expect(s.similarity).toBeGreaterThanOrEqual(0.4);
    expect(related.similar.map((s: { id: string }) => s.id)).not.toContain(d);
  });

  it('with the embedding model, related measures cosine similarity and still leaves the unrelated memory out', () => {
    const box = sandbox();
    // The test model is a bag of random word vectors: unrelated texts score about 0.7 there, so its threshold is set higher.
    const env = { ...box.env, GIT_MEM_MODEL_PATH: testModelDir(), GIT_MEM_RECALL_MODE: 'hybrid', GIT_MEM_LIFECYCLE_CONNECT: '1', GIT_MEM_LIFECYCLE_CONNECT_COSINE: '0.78' };
    const { repo, a, b, c, d } = backoffRepo(box, env);
    const related = JSON.parse(memOk(repo, env, ['related', a, '--json']));
    expect(related.measure).toBe('cosine');
    expect(related.threshold).toBe(0.78);
    const ids = related.similar.map((s: { id: string }) => s.id);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect([b, c]).toContain(id);
    expect(ids).not.toContain(d);
  });
});

describe('captures with the embedding model present', () => {
  // Issue 36: a capture links by words and never loads the model; the vectors are computed by the next semantic recall.
  const withModel = (box: Sandbox) => ({ ...box.env, GIT_MEM_MODEL_PATH: testModelDir(), GIT_MEM_RECALL_MODE: 'hybrid', GIT_MEM_LIFECYCLE_CONNECT: '0.4', GIT_MEM_TRACE: '1' });
  const linkedKeys = (m: Json) => m.relates_to.map((r) => r.split(':')[1]!.slice(0, 10)).sort();
  const keyOf = (id: string) => id.split(':')[2]!.slice(0, 10);
  const loaded = (stderr: string) => /embedding model loaded/.test(stderr);
  const vectors = (repo: string, env: NodeJS.ProcessEnv) => JSON.parse(memOk(repo, env, ['model', 'status', '--json'])).vectors;

  it('a capture links by words, never loads the model, and stores no vector; the next semantic recall embeds them', () => {
    const box = sandbox();
    const env = withModel(box);
    const repo = makeRepo(box);
    const ids: string[] = [];
    for (const args of [
      ['Retry storage uploads with exponential backoff on 503', '-m', 'Because the storage API throttles bursts.'],
      ['Storage uploads need exponential backoff retries', '-m', 'The storage API answers 503 when it throttles.'],
      ['Exponential backoff for storage uploads avoids 503 errors'],
      ['The CSS grid layout breaks in Safari 15', '-m', 'Use flexbox there instead of grid, so that old iPads render it.'],
    ]) {
      const r = mem(repo, env, ['capture', 'learnings', ...args]);
      expect(r.code).toBe(0);
      expect(loaded(r.stderr)).toBe(false);
      ids.push(r.stdout.trim());
    }
    const [a, b, c, d] = ids as [string, string, string, string];
    expect(linkedKeys(show(repo, env, c))).toEqual([keyOf(a), keyOf(b)].sort());
    expect(linkedKeys(show(repo, env, d))).toEqual([]);
    expect(vectors(repo, env).embedded).toBe(0);
    // The model is there: the next semantic recall loads it and embeds what is missing.
    const recall = mem(repo, env, ['recall', '--mode', 'semantic', 'exponential backoff']);
    expect(recall.code).toBe(0);
    expect(loaded(recall.stderr)).toBe(true);
    expect(vectors(repo, env)).toMatchObject({ embedded: 4, memories: 4 });
  });

  it('an import links its memories to each other by words and never loads the model', () => {
    const box = sandbox();
    const env = withModel(box);
    const repo = makeRepo(box);
    const lines = [
      { namespace: 'learnings', summary: 'Retry storage uploads with exponential backoff on 503', body: 'Because the storage API throttles bursts.' },
      { namespace: 'learnings', summary: 'Exponential backoff for storage uploads avoids 503 errors', body: '' },
      { namespace: 'learnings', summary: 'The CSS grid layout breaks in Safari 15', body: 'Use flexbox there instead of grid, so that old iPads render it.' },
    ];
    const file = path.join(box.root, 'import.jsonl');
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const r = mem(repo, env, ['import', file]);
    expect(r.code).toBe(0);
    expect(loaded(r.stderr)).toBe(false);
    const byText = new Map(all(repo, env).map((m) => [m.summary, m]));
    const first = byText.get(lines[0]!.summary)!;
    expect(linkedKeys(byText.get(lines[1]!.summary)!)).toEqual([first.key.slice(0, 10)]);
    expect(linkedKeys(byText.get(lines[2]!.summary)!)).toEqual([]);
    expect(vectors(repo, env).embedded).toBe(0);
  });
});

describe('consolidate', () => {
  it('--dry-run prints the plan and changes no ref; then the group becomes one memory and the originals are archived', () => {
    const box = sandbox();
    const env = lexical(box);
    const { repo, a, b, c, d } = backoffRepo(box, env);
    const before = noteRefs(repo, env);
    const plan = JSON.parse(memOk(repo, env, ['consolidate', '--dry-run', '--json']));
    expect(plan.dry_run).toBe(true);
    expect(plan.consolidations).toHaveLength(1);
    expect(plan.consolidations[0].consolidates.map((o: { id: string }) => o.id).sort()).toEqual([a, b, c].sort());
    expect(noteRefs(repo, env)).toBe(before);

    const done = JSON.parse(memOk(repo, env, ['consolidate', '--json']));
    const merged = show(repo, env, done.consolidations[0].id);
    expect(merged.id).toBe(plan.consolidations[0].id); // the same key: derived from the originals
    expect(merged.consolidates).toHaveLength(3);
    // Extractive: every original summary, and the line that gives a reason.
    for (const id of [a, b, c]) expect(merged.body).toContain(show(repo, env, id).summary);
    expect(merged.body).toContain('Because the storage API throttles bursts.');
    for (const id of [a, b, c]) {
      const o = show(repo, env, id);
      expect(o.status).toBe('archived');
      expect(o.consolidated_into).toBe(`learnings:${merged.key}`);
    }
    expect(show(repo, env, d).status).toBe('active');

    // Recall ranks the consolidated memory, not its originals; --status archived finds them.
    const hits = JSON.parse(memOk(repo, env, ['recall', 'exponential backoff uploads', '--json'])).map((h: { id: string }) => h.id);
    expect(hits).toContain(merged.id);
    for (const id of [a, b, c]) expect(hits).not.toContain(id);
    const archived = JSON.parse(memOk(repo, env, ['recall', 'exponential backoff uploads', '--status', 'archived', '--json'])).map((h: { id: string }) => h.id);
    expect(archived.sort()).toEqual([a, b, c].sort());
    // A second run finds nothing left to do.
    expect(memOk(repo, env, ['consolidate'])).toContain('nothing to consolidate');
  });

  it('--with CMD writes the consolidated memory from what the command prints, given the group on stdin', () => {
    const box = sandbox();
    const env = lexical(box);
    const { repo, a, b, c } = backoffRepo(box, env);
    const seen = path.join(box.root, 'stdin.json');
    const script = path.join(box.root, 'merge.sh');
    fs.writeFileSync(script, `#!/bin/sh\ncat > '${seen}'\necho '{"summary": "Back off exponentially on storage 503s", "body": "Merged by the script.", "tags": ["storage"]}'\n`, { mode: 0o755 });
    const done = JSON.parse(memOk(repo, env, ['consolidate', '--with', script, '--json']));
    const merged = show(repo, env, done.consolidations[0].id);
    expect(merged).toMatchObject({ summary: 'Back off exponentially on storage 503s', body: 'Merged by the script.' });
    const input = JSON.parse(fs.readFileSync(seen, 'utf8'));
    expect(input.namespace).toBe('learnings');
    expect(input.memories.map((m: { id: string }) => m.id).sort()).toEqual([a, b, c].sort());
    expect(Object.keys(input.memories[0]).sort()).toEqual(['body', 'created', 'id', 'summary', 'tags']);
  });

  it('a --with command that fails, prints no JSON or runs too long leaves everything unchanged, with a one-line error', () => {
    const box = sandbox();
    const env = lexical(box);
    const { repo } = backoffRepo(box, env);
    const before = noteRefs(repo, env);
    const cases: Array<[string, RegExp, NodeJS.ProcessEnv]> = [
      ['echo oops >&2; exit 3', /failed \(exit 3\): oops/, env],
      ['echo not json', /printed no JSON/, env],
      ['echo \'{"body": "no summary"}\'', /no summary/, env],
      ['sleep 5', /did not answer within 1 s/, { ...env, GIT_MEM_LIFECYCLE_TIMEOUT: '1' }],
    ];
    for (const [command, message, runEnv] of cases) {
      const r = mem(repo, runEnv, ['consolidate', '--with', command]);
      expect(r.code, command).not.toBe(0);
      expect(r.stderr.trim().split('\n')[0], command).toMatch(message);
      expect(r.stdout).toBe('');
      expect(noteRefs(repo, env), command).toBe(before);
    }
  });
});

describe('supersession', () => {
  it('capture --supersedes archives the older memory, links both ways, and SessionStart offers only the newer', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box);
    const old = memOk(repo, env, ['capture', 'decisions', 'Deploy with Heroku pipelines']);
    const fresh = memOk(repo, env, ['capture', 'decisions', 'Deploy with Fly.io machines', '--supersedes', old]);
    const o = show(repo, env, old);
    const n = show(repo, env, fresh);
    expect(o.status).toBe('archived');
    expect(o.superseded_by).toBe(`decisions:${n.key}`);
    expect(o.relates_to).toContain(`decisions:${n.key}`);
    expect(n.supersedes).toEqual([`decisions:${o.key}`]);
    expect(n.relates_to).toContain(`decisions:${o.key}`);
    const context = memOk(repo, env, ['hook', 'SessionStart'], JSON.stringify({ session_id: 's1', hook_event_name: 'SessionStart', source: 'startup', cwd: repo }));
    expect(context).toContain('Deploy with Fly.io machines');
    expect(context).not.toContain('Heroku');
  });

  it('edit --supersedes links an existing memory to the one it replaces; a wrong id writes nothing', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box);
    const old = memOk(repo, env, ['capture', 'patterns', 'Name branches after tickets']);
    const fresh = memOk(repo, env, ['capture', 'patterns', 'Name branches kind/ticket-slug']);
    const before = noteRefs(repo, env);
    const bad = mem(repo, env, ['capture', 'patterns', 'x', '--supersedes', 'patterns:ffffffffff']);
    expect(bad.code).not.toBe(0);
    expect(noteRefs(repo, env)).toBe(before);
    memOk(repo, env, ['edit', fresh, '--supersedes', old]);
    expect(show(repo, env, old)).toMatchObject({ status: 'archived', superseded_by: `patterns:${show(repo, env, fresh).key}` });
    expect(show(repo, env, fresh).supersedes).toEqual([`patterns:${show(repo, env, old).key}`]);
  });
});

describe('gc', () => {
  const OLD = '2026-01-01T00:00:00Z';
  const NOW = '2026-06-01T00:00:00Z';

  it('a memory that recalls keep showing is in use: spared as recalled, counted in this clone only', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box);
    const cap = (...args: string[]) => memOk(repo, at(env, OLD), ['capture', ...args]);
    const used = cap('learnings', 'tests flaky today');
    const twice = cap('learnings', 'lint noisy again');
    const unused = cap('learnings', 'coffee machine broken');
    // Three uses: two recalls that show it and one hydrate; the other is shown twice only.
    memOk(repo, env, ['recall', 'flaky tests']);
    memOk(repo, env, ['recall', 'flaky']);
    memOk(repo, env, ['hydrate', used]);
    memOk(repo, env, ['recall', 'lint noisy']);
    memOk(repo, env, ['recall', 'noisy']);
    const refsBefore = noteRefs(repo, env);
    const plan = JSON.parse(memOk(repo, at(env, NOW), ['gc', '--dry-run', '--json']));
    // Counting uses wrote no note.
    expect(noteRefs(repo, env)).toBe(refsBefore);
    expect(plan.archived.map((m: { id: string }) => m.id).sort()).toEqual([twice, unused].sort());
    expect(plan.spared).toMatchObject({ recalled: 1 });
    // The counts stay in this clone: a fresh clone of the notes would archive it.
    const clone = path.join(box.root, 'clone');
    git(box.root, env, ['clone', '-q', repo, clone]);
    git(clone, env, ['fetch', '-q', 'origin', 'refs/notes/mem/*:refs/notes/mem/*']);
    const there = JSON.parse(memOk(clone, at(env, NOW), ['gc', '--dry-run', '--json']));
    expect(there.archived.map((m: { id: string }) => m.id.split(':')[2]).sort()).toEqual([used, twice, unused].map((id) => id.split(':')[2]).sort());
  });

  it('archives old isolated memories without substance, reprieves the rest, and spares every protected kind', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box);
    const cap = (when: string, ...args: string[]) => memOk(repo, at(env, when), ['capture', ...args]);
    const trivial = cap(OLD, 'learnings', 'tests flaky today');
    const substantial = cap(OLD, 'learnings', 'Pin the node version', '-m', 'Because `npm ci` breaks on node 22 with the lockfile v1.');
    const decision = cap(OLD, 'decisions', 'ok then');
    const kept = cap(OLD, 'progress', 'wip', '--tags', 'keep');
    const resolved = cap(OLD, 'blockers', 'db down', '--status', 'resolved');
    const young = cap('2026-05-20T00:00:00Z', 'learnings', 'lint noisy');
    const linkedA = cap(OLD, 'research', 'Redis streams for queues');
    const linkedB = cap(OLD, 'research', 'Redis streams versus queues');

    const before = noteRefs(repo, env);
    const plan = JSON.parse(memOk(repo, at(env, NOW), ['gc', '--dry-run', '--json']));
    expect(noteRefs(repo, env)).toBe(before);
    expect(plan.archived.map((m: { id: string }) => m.id)).toEqual([trivial]);
    expect(plan.reprieved.map((m: { id: string }) => m.id)).toEqual([substantial]);

    const done = JSON.parse(memOk(repo, at(env, NOW), ['gc', '--json']));
    expect(done.archived.map((m: { id: string }) => m.id)).toEqual([trivial]);
    expect(done.spared).toMatchObject({ 'protected-namespace': 1, 'kept-tag': 1, 'not-active': 1, young: 1, connected: 2 });
    expect(show(repo, env, trivial).status).toBe('archived');
    expect(show(repo, env, substantial)).toMatchObject({ status: 'active', reprieves: 1 });
    for (const id of [decision, kept, resolved, young, linkedA, linkedB]) expect(show(repo, env, id).status, id).not.toBe('archived');
    expect(show(repo, env, decision).status).toBe('active');

    // Two more reprieves, then it is kept for good and no longer judged.
    memOk(repo, at(env, NOW), ['gc']);
    memOk(repo, at(env, NOW), ['gc']);
    expect(show(repo, env, substantial).reprieves).toBe(3);
    const last = JSON.parse(memOk(repo, at(env, NOW), ['gc', '--json']));
    expect(last.reprieved).toEqual([]);
    expect(last.spared['kept-for-good']).toBe(1);
    expect(show(repo, env, substantial).reprieves).toBe(3);
  });

  it('mem.lifecycle.protect names the protected namespaces; --with CMD judges, and a failing judge changes nothing', () => {
    const box = sandbox();
    const env = { ...lexical(box), GIT_MEM_LIFECYCLE_PROTECT: 'learnings' };
    const repo = makeRepo(box);
    const learning = memOk(repo, at(env, OLD), ['capture', 'learnings', 'meh']);
    const decision = memOk(repo, at(env, OLD), ['capture', 'decisions', 'fine']);
    const other = memOk(repo, at(env, OLD), ['capture', 'progress', 'did stuff']);
    const judge = path.join(box.root, 'judge.sh');
    fs.writeFileSync(judge, `#!/bin/sh\necho '{"keep": ["${other}"]}'\n`, { mode: 0o755 });
    const before = noteRefs(repo, env);
    const bad = mem(repo, at(env, NOW), ['gc', '--with', 'exit 1']);
    expect(bad.code).not.toBe(0);
    expect(noteRefs(repo, env)).toBe(before);
    const done = JSON.parse(memOk(repo, at(env, NOW), ['gc', '--with', judge, '--json']));
    expect(done.archived.map((m: { id: string }) => m.id)).toEqual([decision]);
    expect(done.reprieved.map((m: { id: string }) => m.id)).toEqual([other]);
    expect(show(repo, env, learning).status).toBe('active');
  });
});

describe('forget with filters', () => {
  function seeded(box: Sandbox) {
    const env = lexical(box);
    const repo = makeRepo(box);
    const ids = {
      oldProgress: memOk(repo, at(env, '2026-01-01T00:00:00Z'), ['capture', 'progress', 'Shipped the importer', '--tags', 'release']),
      newProgress: memOk(repo, at(env, '2026-05-01T00:00:00Z'), ['capture', 'progress', 'Shipped the exporter', '--tags', 'release,cli']),
      resolvedBlocker: memOk(repo, at(env, '2026-02-01T00:00:00Z'), ['capture', 'blockers', 'CI runners out of disk', '--status', 'resolved']),
      activeBlocker: memOk(repo, at(env, '2026-02-01T00:00:00Z'), ['capture', 'blockers', 'Staging certificate expired']),
      learning: memOk(repo, at(env, '2026-01-15T00:00:00Z'), ['capture', 'learnings', 'The importer chokes on CRLF files', '--tags', 'cli']),
    };
    return { env, repo, ids };
  }
  const left = (repo: string, env: NodeJS.ProcessEnv) => all(repo, env).map((m) => m.id).sort();

  it.each([
    ['--before', ['--before', '2026-01-20'], ['oldProgress', 'learning']],
    ['--namespace', ['--namespace', 'blockers'], ['resolvedBlocker', 'activeBlocker']],
    ['--status', ['--status', 'resolved'], ['resolvedBlocker']],
    ['--tags', ['--tags', 'release,cli'], ['newProgress']],
    ['--query', ['--query', 'importer'], ['oldProgress', 'learning']],
    ['combined', ['--before', '2026-03-01', '--namespace', 'progress'], ['oldProgress']],
  ] as const)('%s: forgets exactly what it takes, after a dry run that changes nothing', (_name, args, gone) => {
    const box = sandbox();
    const { env, repo, ids } = seeded(box);
    const expected = gone.map((k) => ids[k]).sort();
    const before = noteRefs(repo, env);
    const plan = JSON.parse(memOk(repo, env, ['forget', ...args, '--dry-run', '--json']));
    expect(plan.forgotten.map((m: { id: string }) => m.id).sort()).toEqual(expected);
    expect(noteRefs(repo, env)).toBe(before);
    const counts = (ns: string) => Number(git(repo, env, ['rev-list', '--count', `refs/notes/mem/${ns}`]).trim());
    const namespaces = [...new Set(expected.map((id) => id.split(':')[0]!))];
    const commitsBefore = namespaces.map(counts);
    const text = memOk(repo, env, ['forget', ...args]);
    expect(text).toContain(`forgot ${expected.length} ${expected.length === 1 ? 'memory' : 'memories'}`);
    // One notes commit per namespace touched.
    expect(namespaces.map(counts)).toEqual(commitsBefore.map((n) => n + 1));
    expect(left(repo, env)).toEqual(Object.values(ids).filter((id) => !expected.includes(id)).sort());
    for (const id of expected) expect(mem(repo, env, ['show', id]).code).not.toBe(0);
  });

  it('refuses to run with no filter, and with an id and filters together', () => {
    const box = sandbox();
    const { env, repo, ids } = seeded(box);
    const before = noteRefs(repo, env);
    const none = mem(repo, env, ['forget']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/needs a memory id or at least one filter/);
    expect(mem(repo, env, ['forget', ids.learning, '--status', 'active']).code).toBe(2);
    expect(noteRefs(repo, env)).toBe(before);
  });
});

describe('a consolidation and an edit made in another clone', () => {
  it('converge after sync: the edit is kept, the original stays archived, nothing is resurrected', () => {
    const box = sandbox();
    const env = lexical(box);
    const { clones } = makeClones(box, ['a', 'b']);
    const [a, b] = clones as [string, string];
    const ids = [
      memOk(a, env, ['capture', 'learnings', 'Retry storage uploads with exponential backoff on 503']),
      memOk(a, env, ['capture', 'learnings', 'Storage uploads need exponential backoff retries']),
      memOk(a, env, ['capture', 'learnings', 'Exponential backoff for storage uploads avoids 503 errors']),
    ];
    memOk(a, env, ['push']);
    memOk(b, env, ['pull']);
    // A consolidates; B, not knowing, edits an original a little later.
    const merged = JSON.parse(memOk(a, at(env, '2030-01-01T00:00:00Z'), ['consolidate', '--json'])).consolidations[0].id;
    memOk(b, at(env, '2030-01-02T00:00:00Z'), ['edit', ids[0]!, '-m', 'Edited in clone B.']);
    memOk(b, env, ['push']);
    memOk(a, env, ['pull']);
    memOk(a, env, ['push']);
    memOk(b, env, ['pull']);
    for (const clone of [a, b]) {
      const o = show(clone, env, ids[0]!);
      expect(o.status, clone).toBe('archived');
      expect(o.body).toBe('Edited in clone B.');
      expect(o.consolidated_into?.split(':')[1]?.startsWith(merged.split(':')[2]!)).toBe(true);
      const current = all(clone, env).filter((m) => m.status === 'active').map((m) => m.id);
      expect(current).toEqual([merged]);
      const hits = JSON.parse(memOk(clone, env, ['recall', 'exponential backoff', '--json'])).map((h: { id: string }) => h.id);
      expect(hits).toEqual([merged]);
    }
    expect(git(a, env, ['rev-parse', 'refs/notes/mem/learnings'])).toBe(git(b, env, ['rev-parse', 'refs/notes/mem/learnings']));
  });
});
