// The public-benchmark importer (test/bench/memory-benchmark.ts) on tiny files in each format it
// reads: it must find the relevant memories, score both rankings, and refuse what is not a benchmark.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const BUN = path.join(REPO, 'node_modules/.bin/bun');

function run(args: string[]) {
  return spawnSync(BUN, [path.join(REPO, 'test/bench/memory-benchmark.ts'), ...args], { encoding: 'utf8' });
}

interface Figures { questions: number; r1: number; r5: number; r10: number; mrr: number }
interface Report { benchmark: string; memories: number; skipped: number; methods: Record<string, { all: Figures; byCategory: Record<string, Figures> }> }

describe('memory-benchmark.ts', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-membench-'));
  const turns = (s: number, texts: Array<[string, string]>) => texts.map(([speaker, text], i) => ({ speaker, dia_id: `D${s}:${i + 1}`, text }));

  it('reads LoCoMo: a memory per turn, evidence ids as the relevant ones, BM25 beside recall', () => {
    const file = path.join(dir, 'locomo.json');
    const conversation = {
      speaker_a: 'Ana',
      speaker_b: 'Ben',
      session_1_date_time: '1:00 pm on 1 May, 2023',
      session_1: turns(1, [['Ana', 'I adopted a puppy named Biscuit last week'], ['Ben', 'Congrats! I started learning the violin']]),
      session_2: turns(2, [['Ana', 'Biscuit chewed my running shoes'], ['Ben', 'My violin teacher moved to Lisbon'], ['Ana', 'The weather is lovely today']]),
    };
    const qa = [
      { question: 'What is the name of the puppy Ana adopted?', evidence: ['D1:1'], category: 4 },
      { question: 'Where did the violin teacher move?', evidence: ['D2:2; D1:2'], category: 1 },
      { question: 'Something with no evidence', evidence: [], category: 5 },
    ];
    fs.writeFileSync(file, JSON.stringify([{ sample_id: 'x', conversation, qa }]));
    const r = run(['--locomo', file, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report).toMatchObject({ benchmark: 'LoCoMo', memories: 5, skipped: 1 });
    for (const name of ['bm25', 'git-mem']) {
      const m = report.methods[name]!;
      expect(m.all.questions).toBe(2);
      expect(m.byCategory['category 4']!.mrr).toBe(1);
      // Two relevant turns, both found in the top 5.
      expect(m.byCategory['category 1']!.r5).toBe(1);
    }
    const text = run(['--locomo', file]);
    expect(text.stdout).toMatch(/^LoCoMo: 1 haystacks, 5 memories, 2 questions \(1 without a relevant memory, skipped\)/);
    expect(text.stdout).toMatch(/\ngit-mem +all +2 /);
  });

  it('reads LongMemEval by session or by turn', () => {
    const file = path.join(dir, 'longmemeval.json');
    const haystack = [
      [{ role: 'user', content: 'Can you suggest a recipe for sourdough bread?' }, { role: 'assistant', content: 'Sure, start with a levain.' }],
      [{ role: 'user', content: 'I renewed my passport at the consulate in March', has_answer: true }, { role: 'assistant', content: 'Good to know.' }],
      [{ role: 'user', content: 'What is the capital of Peru?' }, { role: 'assistant', content: 'Lima.' }],
    ];
    fs.writeFileSync(
      file,
      JSON.stringify([{ question_id: 'q1', question_type: 'single-session-user', question: 'Where did I renew my passport?', answer: 'the consulate', answer_session_ids: ['s2'], haystack_session_ids: ['s1', 's2', 's3'], haystack_sessions: haystack }]),
    );
    const sessions = JSON.parse(run(['--longmemeval', file, '--json']).stdout) as Report;
    expect(sessions).toMatchObject({ benchmark: 'LongMemEval (a memory per session)', memories: 3 });
    expect(sessions.methods['git-mem']!.byCategory['single-session-user']!.mrr).toBe(1);
    const byTurn = JSON.parse(run(['--longmemeval', file, '--unit', 'turn', '--json']).stdout) as Report;
    expect(byTurn).toMatchObject({ memories: 6 });
    expect(byTurn.methods.bm25!.all.r1).toBe(1);
  });

  it('refuses a missing file, a file of another format, and no benchmark at all, in one line', () => {
    const other = path.join(dir, 'other.json');
    fs.writeFileSync(other, JSON.stringify({ hello: 'world' }));
    for (const args of [['--locomo', path.join(dir, 'nope.json')], ['--locomo', other], ['--longmemeval', other], []]) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^memory-benchmark: /);
    }
  });
});
