// Hand-read statements against what Stop and PreCompact would capture or suggest, with the detector of
// this tree, in process, no network. The statements (kept outside the repository) are a JSON file:
//
//   { "folder": "/path/to/transcripts",
//     "statements": [ { "file": "x.jsonl", "id": "short name", "needle": "words of the statement, verbatim" or ["…", "…"] } ] }
//
//   bun test/bench/statements.bench.ts <statements.json> [--results <out.json>] [--signals <out.json>] [--folder <dir>] [--joined]
//
// Each transcript is replayed as in transcripts.bench.mjs (transcript-points.mjs decides where the hooks
// run): at every Stop, what Stop gives the detector (stopReplies: the main agent's messages of that turn,
// each read on its own), at every PreCompact the main agent's messages since the last compaction (the user's
// typed prompts count for markers only). --joined reads each hook's messages as one text joined with blank
// lines, as the hooks did before they read messages one by one. A statement is found by a signal whose statement (its body) holds the needle, compared
// without Markdown emphasis, inline-code ticks or line breaks; the best confidence over all runs decides:
// captured (>= 0.95), suggested (0.70 to 0.95) or missed. A needle that no run's text holds is reported
// as "not read" (a typo in the needle, or words the reader does not pass).
// --results writes each statement's verdict and the signal that found it. --signals writes every distinct signal of the capture and suggest tiers the hooks would see in the
// listed transcripts (or, with --folder, in every transcript of a folder), for judging precision by hand.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detectSignals, type Signal, tierOf } from '../../src/core/signals.ts';
import { readSessionReplies, stopReplies } from '../../src/agents/claude/transcript.ts';
import type { AgentMessage } from '../../src/core/transcript-entries.ts';
import { hookPoints } from './transcript-points.mjs';

interface Statement {
  file: string;
  id: string;
  /** Words of the statement, verbatim; several when the transcript states it more than once. */
  needle: string | string[];
}
interface Seen {
  file: string;
  hook: 'Stop' | 'PreCompact';
  line: number;
  confidence: number;
  /** Read from a working note (a message the agent called a tool after): suggested at most. */
  working: boolean;
  namespace: string;
  summary: string;
  body: string;
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const signalsOut = option('--signals');
const resultsOut = option('--results');
const joined = args.includes('--joined') && Boolean(args.splice(args.indexOf('--joined'), 1));
const wholeFolder = option('--folder');
const listFile = args[0];
if (!listFile) {
  console.error('usage: bun test/bench/statements.bench.ts <statements.json> [--results out.json] [--signals out.json] [--folder dir]');
  process.exit(2);
}
const list = JSON.parse(fs.readFileSync(listFile, 'utf8')) as { folder: string; statements: Statement[] };
const folder = wholeFolder ?? list.folder;

/** Text as compared: no Markdown emphasis or inline-code ticks, whitespace runs as one space, lower case. */
const plain = (s: string) => s.replace(/\*\*|__|`/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

/** Every capture- or suggest-tier signal, and every text the hooks read, over one transcript's replay. */
function replay(file: string): { seen: Seen[]; texts: string[] } {
  const lines = fs.readFileSync(path.join(folder, file), 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const { stops, compacts, lastMessage } = hookPoints(lines);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-statements-'));
  const transcript = path.join(dir, 'session.jsonl');
  const seen: Seen[] = [];
  const texts: string[] = [];
  // Each message on its own, as the hooks read them; --joined: a hook's messages as one text, as before 2026-11-26.
  const keep = (hook: Seen['hook'], line: number, messages: AgentMessage[], markersOnly = false) => {
    // Joined, the text is a working note only when every message in it is one.
    for (const { text, working } of joined ? [{ text: messages.map((m) => m.text).join('\n\n'), working: messages.every((m) => m.working) }] : messages) {
      if (!text) continue;
      texts.push(plain(text));
      for (const s of detectSignals(text, { working }) as Signal[]) {
        if (tierOf(s.confidence) === 'skip' || (markersOnly && s.kind === 'model')) continue;
        seen.push({ file, hook, line, confidence: s.confidence, working, namespace: s.namespace, summary: s.summary, body: s.body });
      }
    }
  };
  fs.writeFileSync(transcript, '');
  let written = 0;
  try {
    for (const i of [...new Set<number>([...stops, ...compacts])].sort((a, b) => a - b)) {
      if (i > written) fs.appendFileSync(transcript, lines.slice(written, i).map((l) => `${l}\n`).join(''));
      written = Math.max(written, i);
      if (stops.includes(i)) keep('Stop', i, stopReplies(transcript, lastMessage[i] ?? ''));
      if (compacts.includes(i)) {
        const words = readSessionReplies(transcript);
        keep('PreCompact', i, words.assistant);
        keep(
          'PreCompact',
          i,
          words.user.map((text) => ({ text, working: false })),
          true,
        );
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { seen, texts };
}

const files = wholeFolder ? fs.readdirSync(folder).filter((f) => f.endsWith('.jsonl')).sort() : [...new Set(list.statements.map((s) => s.file))];
const runs = new Map<string, ReturnType<typeof replay>>();
for (const [n, f] of files.entries()) {
  process.stderr.write(`\r${n + 1}/${files.length} ${f.slice(0, 60).padEnd(60)}`);
  runs.set(f, replay(f));
}
process.stderr.write('\n');

const counts = { captured: 0, suggested: 0, missed: 0, notRead: 0 };
const bodyOnly = { captured: 0, suggested: 0 };
const results: unknown[] = [];
/** Whether a needle and a summary share a run of 30 characters (or the shorter whole): the summary states the statement. */
const overlaps = (needle: string, summary: string) => {
  const s = summary.replace(/…$/, '');
  const k = Math.min(30, needle.length, s.length);
  for (let i = 0; i + k <= needle.length; i += 5) if (s.includes(needle.slice(i, i + k))) return true;
  return false;
};
console.log('statement                        verdict    conf  hook        summary');
for (const st of list.statements) {
  const run = runs.get(st.file);
  if (!run) throw new Error(`no transcript ${st.file} in ${folder}`);
  const needles = (Array.isArray(st.needle) ? st.needle : [st.needle]).map(plain);
  const read = run.texts.some((t) => needles.some((n) => t.includes(n)));
  const best = run.seen.filter((s) => needles.some((n) => plain(s.body).includes(n) || plain(s.summary).includes(n))).sort((a, b) => b.confidence - a.confidence)[0];
  const verdict = !read ? 'not read' : !best ? 'missed' : tierOf(best.confidence) === 'auto' ? 'captured' : 'suggested';
  if (verdict === 'not read') counts.notRead++;
  else counts[verdict as 'captured' | 'suggested' | 'missed']++;
  // Whether the signal is about this statement (its summary says it) or only carries it in a longer body (a list under another item's summary).
  const own = best && needles.some((n) => overlaps(n, plain(best.summary)));
  if (best && !own) bodyOnly[verdict as 'captured' | 'suggested']++;
  results.push({ ...st, verdict, own: Boolean(own), signal: best ?? null });
  console.log(`${st.id.slice(0, 32).padEnd(32)} ${verdict.padEnd(10)} ${best ? best.confidence.toFixed(2) : '  - '}  ${(best?.hook ?? '').padEnd(10)} ${best ? (own ? 'summary' : `body of ${best.body.length}`).padEnd(12) : ''.padEnd(12)} ${best?.summary.slice(0, 80) ?? ''}`);
}
const total = list.statements.length;
console.log(`\n${total} statements: captured ${counts.captured}, suggested ${counts.suggested}, missed ${counts.missed}${counts.notRead ? `, not read ${counts.notRead} (fix the needle)` : ''}`);
console.log(`of those captured or suggested, only inside a longer statement summarised as something else: captured ${bodyOnly.captured}, suggested ${bodyOnly.suggested}`);

if (resultsOut) fs.writeFileSync(resultsOut, `${JSON.stringify(results, null, 2)}\n`);
if (signalsOut) {
  const distinct = new Map<string, Seen & { runs: number }>();
  for (const run of runs.values())
    for (const s of run.seen) {
      const key = `${s.file}\0${s.hook}\0${plain(s.body)}`;
      const had = distinct.get(key);
      if (!had) distinct.set(key, { ...s, runs: 1 });
      else {
        had.runs++;
        had.confidence = Math.max(had.confidence, s.confidence);
      }
    }
  const all = [...distinct.values()];
  const tier = (t: string) => all.filter((s) => tierOf(s.confidence) === t);
  console.log(`signals (distinct statements per transcript and hook): ${tier('auto').length} capture tier, ${tier('suggest').length} suggest tier -> ${signalsOut}`);
  fs.writeFileSync(signalsOut, `${JSON.stringify(all, null, 2)}\n`);
}
