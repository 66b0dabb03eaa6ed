// Issue 5 in-process targets: signal detection over a 100 KB transcript <= 20 ms, redaction of 10 KB <= 5 ms.
// Run with bun (node_modules/.bin/bun test/bench/inprocess.bench.ts); baseline: a plain regex scan of the same text.
import fs from 'node:fs';
import path from 'node:path';
import { redact } from '../../src/core/redact/redact.ts';
import { detectSignals, SCAN_MAX } from '../../src/core/signals.ts';
import { sessionWords } from '../../src/core/transcript-entries.ts';
import { transcriptEntries } from '../../src/agents/claude/transcript.ts';
import { median } from './median.ts';

const fixture = fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/transcript.jsonl'), 'utf8');
// Copies with their own ids, so the transcript reader does not fold them together.
let jsonl = '';
for (let copy = 0; jsonl.length < 100 * 1024; copy++) jsonl += fixture.replace(/"(u|a|msg_)(\d+)"/g, `"$1$2-${copy}"`).replace(/Sync test/g, `Sync test ${copy}`);
/** The transcript's words as PreCompact reads them: the typed prompts, then the assistant's replies. */
const transcriptText = (j: string) => {
  const words = sessionWords(transcriptEntries(j), SCAN_MAX);
  return [words.user, words.assistant].filter(Boolean).join('\n\n');
};
const text = transcriptText(jsonl);
const tenKb = text.slice(0, 10 * 1024);


const prose = text.repeat(Math.ceil((100 * 1024) / text.length)).slice(0, 100 * 1024);
const scan = median(50, () => void text.match(/decided|learned|blocked/gi));
const detect = median(50, () => void detectSignals(text));
const detectProse = median(50, () => void detectSignals(prose));
const parse = median(50, () => void transcriptText(jsonl));
const redactMs = median(200, () => void redact(tenKb));
const scan10 = median(200, () => void tenKb.match(/password|secret|token/gi));
const row = (name: string, ms: number, target?: number, base?: number) =>
  console.log(`${name.padEnd(46)}${ms.toFixed(2).padStart(8)} ms${target ? `  target <=${target}${ms <= target ? '' : ' MISS'}` : ''}${base ? `  ratio to baseline ${(ms / base).toFixed(1)}x` : ''}`);
console.log(`in-process: transcript ${(jsonl.length / 1024).toFixed(0)} KB JSONL -> ${(text.length / 1024).toFixed(0)} KB text; medians\n`);
row('baseline: one regex over the text', scan);
row('transcript JSONL -> text', parse);
row('detectSignals (100 KB transcript)', detect, 20, scan);
row('detectSignals (100 KB of transcript text)', detectProse, 20, scan);
row('baseline: one regex over 10 KB', scan10);
row('redact (10 KB)', redactMs, 5, scan10);
