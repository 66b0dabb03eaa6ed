#!/usr/bin/env node
// A mutation check of the rules git-mem promises: each mutation below breaks one rule on purpose
// (an exact snippet of the source and what replaces it), and the tests named with it must fail.
// A mutation they survive is a rule no test holds. Each runs in a copy of the work tree (tracked
// and untracked files, node_modules linked), one at a time: applied, the binary rebuilt when e2e
// tests are named, the tests run with vitest, the file restored. A snippet that is not found
// exactly once refuses the run, so the list is corrected as the code moves.
//
//   node tools/mutation-check.mjs                        every mutation
//   node tools/mutation-check.mjs --files src/core/merge.ts,src/core/note-format.ts
//   node tools/mutation-check.mjs --id merge.tombstones-never-win
//   node tools/mutation-check.mjs --list                 the mutations, and whether each snippet is found
//
// Exit status: 0 every mutation killed; 1 one survived (or the baseline failed); 2 refused.
// No dependencies beyond the project's own (vitest, and bun for the build).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

const UNIT = (...files) => files.map((f) => `test/unit/${f}.test.ts`);
const E2E = (...files) => files.map((f) => `test/e2e/${f}.test.ts`);

/**
 * id: area.what-breaks; file; find: exact text, found exactly once; replace; tests: files to run;
 * only: a vitest -t pattern (test names), to run a few tests of a large e2e file.
 */
const MUTATIONS = [
  // Merge: per id the newest revision wins (updated, then tie-break); a tombstone at least as new hides it; canonical order.
  { id: 'sorted-tables.search-direction', file: 'src/stores/cache/sorted-tables.ts', find: 'if (cmp < 0) lo = e + 1;', replace: 'if (cmp > 0) lo = e + 1;', tests: UNIT('sorted-tables') },
  { id: 'sorted-tables.utf16-order', file: 'src/stores/cache/sorted-tables.ts', find: 'lines.sort(Buffer.compare);', replace: 'lines.sort();', tests: UNIT('sorted-tables') },
  { id: 'sorted-tables.update-keeps-replaced-row', file: 'src/stores/cache/sorted-tables.ts', find: 'const replaced = next < added.length && cmp === 0;', replace: 'const replaced = false;', tests: UNIT('sorted-tables') },
  { id: 'sorted-tables.key-hit-skips-row', file: 'src/stores/cache/sorted-tables.ts', find: 'if (hit < tab && tab < end) {', replace: 'if (false) {', tests: UNIT('sorted-tables') },
  { id: 'lexical.common-words-bring-memories', file: 'src/core/search/lexical.ts', find: 'return score(common, score(groups.filter((g) => !common.includes(g))), true);', replace: 'return score(groups);', tests: UNIT('term-index') },
  { id: 'lexical.common-words-in-small-collections', file: 'src/core/search/lexical.ts', find: 'if (total < COMMON_MIN_MEMORIES) return score(groups);', replace: 'if (total < 0) return score(groups);', tests: UNIT('term-index') },
  { id: 'lexical.joined-word-counts-as-typed', file: 'src/core/search/lexical.ts', find: '!groups.some((g) => !g.joined && !common.includes(g))', replace: '!groups.some((g) => !common.includes(g))', tests: UNIT('term-index') },
  // Related words: a general synonym (WordNet, listed without a similarity) is neither a neighbour nor shown as one.
  { id: 'query.general-synonym-as-neighbour', file: 'src/core/search/query.ts', find: 'if (colon < 0) general.push(entry);', replace: 'if (colon < 0) neighbours.push([entry, 0.5]);', tests: UNIT('related-words') },
  { id: 'explain.general-synonym-unlabelled', file: 'src/core/search/explain.ts', find: "const related = RELATED_NAMES[sourceOf(m) ?? 'developer'];", replace: "const related = 'related word';", tests: E2E('recall-explain'), only: 'general-English synonym' },
  // Everyday neighbours (GloVe): weaker than a word's own, and said to be what they are.
  { id: 'query.everyday-at-full-weight', file: 'src/core/search/query.ts', find: 'list.push([t, everyday.weight * cos]);', replace: 'list.push([t, cos]);', tests: UNIT('related-words') },
  { id: 'explain.everyday-unmarked', file: 'src/core/search/explain.ts', find: ": source === 'everyday' ? { everyday: true } : {}),", replace: ': {}),', tests: E2E('recall-explain'), only: 'everyday neighbour' },
  // Quoted phrases: a memory holding one ranks above those holding its words apart, and says so.
  { id: 'lexical.phrase-no-boost', file: 'src/core/search/lexical.ts', find: 'scores[d]! += best;', replace: '', tests: E2E('recall-explain'), only: 'quoted phrase' },
  { id: 'phrases.any-order', file: 'src/core/search/phrases.ts', find: 'while (k < n && terms[i + k] === phrase.terms[k]) k++;', replace: 'while (k < n && phrase.terms.includes(terms[i + k]!)) k++;', tests: UNIT('phrases') },
  { id: 'merge.tombstones-never-win', file: 'src/core/merge.ts', find: 'currentRevision(memories.map(rev), tombstones.map(rev))', replace: 'currentRevision(memories.map(rev), [])', tests: UNIT('merge-properties') },
  { id: 'merge.canonical-order-reversed', file: 'src/core/merge.ts', find: 'sortTime(x) - sortTime(y)', replace: 'sortTime(y) - sortTime(x)', tests: UNIT('merge-properties') },
  { id: 'merge.hand-written-text-dropped', file: 'src/core/merge.ts', find: 'if (d.leading) for (const p of d.raw.trim().split(/\\n[ \\t]*\\n/)) paragraphs.add(p.trim());', replace: 'if (d.leading) continue;', tests: UNIT('merge-properties') },
  { id: 'merge.binary-read-as-text', file: 'src/core/merge.ts', find: 'if (!bytes.includes(0)) return decoder.decode(bytes);', replace: 'return decoder.decode(bytes);', tests: E2E('hardening-data'), only: 'carries the binary bytes along' },
  { id: 'revisions.tombstone-must-be-newer', file: 'src/core/revisions.ts', find: 'revisionTime(t.updated) >= winner', replace: 'revisionTime(t.updated) > winner', tests: UNIT('merge-properties') },
  { id: 'revisions.older-wins', file: 'src/core/revisions.ts', find: 'compareRevisions(r, revisions[best]!) > 0', replace: 'compareRevisions(r, revisions[best]!) < 0', tests: UNIT('merge-properties') },
  { id: 'revisions.tiebreak-reversed', file: 'src/core/memory.ts', find: 'return a.tiebreak < b.tiebreak ? -1 : a.tiebreak > b.tiebreak ? 1 : 0;', replace: 'return a.tiebreak < b.tiebreak ? 1 : a.tiebreak > b.tiebreak ? -1 : 0;', tests: UNIT('merge-properties') },

  // Note format: documents split only at front matter after a blank line; unknown fields kept; binary notes never rewritten.
  { id: 'note-format.split-at-setext-rule', file: 'src/core/note-format.ts', find: "if (!FENCE.test(lines[i]!) || (i > 0 && lines[i - 1]!.trim() !== '')) continue;", replace: 'if (!FENCE.test(lines[i]!)) continue;', tests: UNIT('note-format') },
  { id: 'note-format.any-mapping-is-a-header', file: 'src/core/note-format.ts', find: "return 'type' in fm || 'id' in fm || 'summary' in fm;", replace: 'return true;', tests: UNIT('note-format') },
  { id: 'note-format.binary-not-flagged', file: 'src/core/note-format.ts', find: "if (text.includes('\\0')) {", replace: 'if (false) {', tests: UNIT('note-format') },
  { id: 'note-format.key-ignores-namespace', file: 'src/core/note-format.ts', find: 'return sha1Hex(`${namespace}\\0${raw.trim()}`).slice(0, KEY_LENGTH);', replace: 'return sha1Hex(raw.trim()).slice(0, KEY_LENGTH);', tests: UNIT('note-format') },
  { id: 'note-format.active-status-written', file: 'src/core/note-format.ts', find: "if (m.status !== 'active') fields.status = m.status;", replace: 'fields.status = m.status;', tests: UNIT('note-format') },
  { id: 'note-format.unknown-fields-not-read', file: 'src/core/note-format.ts', find: 'for (const [k, v] of Object.entries(fm)) if (!KNOWN_FIELDS.has(k)) extra[k] = v;', replace: '', tests: UNIT('note-format-extra') },
  { id: 'note-format.unknown-fields-not-written', file: 'src/core/note-format.ts', find: 'for (const [k, v] of Object.entries(m.extra ?? {})) if (!(k in fields)) fields[k] = v;', replace: '', tests: UNIT('note-format-extra') },
  { id: 'note-format.unreadable-timestamp-dropped', file: 'src/core/note-format.ts', find: 'if (!created && fm.timestamp !== undefined && fm.timestamp !== null) extra.timestamp = fm.timestamp;', replace: '', tests: UNIT('note-format-extra') },

  // Compare-and-swap: every notes-ref update is checked against the value read, and redone on conflict.
  { id: 'cas.update-without-old-value', file: 'src/stores/git/notes-store.ts', find: "`update ${u.ref} ${u.commit} ${u.previous ?? '0'.repeat(u.commit.length)}\\n`", replace: '`update ${u.ref} ${u.commit}\\n`', tests: ['test/contract/notes-store.test.ts'] },
  { id: 'cas.conflict-not-retried', file: 'src/stores/git/notes-store.ts', find: 'if (this.swap(prepared)) return prepared.map((p) => ({ commit: p.commit, previous: p.previous }));', replace: 'this.swap(prepared);\n      return prepared.map((p) => ({ commit: p.commit, previous: p.previous }));', tests: ['test/contract/notes-store.test.ts'] },
  { id: 'cas.merge-conflict-not-retried', file: 'src/stores/git/notes-store.ts', find: "if (this.swap([{ ref, commit, previous: ours, message: message.split('\\n')[0]! }])) return { kind, commit, incoming, merged };", replace: "this.swap([{ ref, commit, previous: ours, message: message.split('\\n')[0]! }]);\n      return { kind, commit, incoming, merged };", tests: ['test/contract/notes-store.test.ts'] },

  // Redaction: every text field of every memory, on every capture path, before anything is written.
  { id: 'redaction.body-skipped', file: 'src/core/redact/memory-redaction.ts', find: 'body: text(memory.body)', replace: 'body: memory.body', tests: UNIT('memory-redaction') },
  { id: 'redaction.unknown-fields-skipped', file: 'src/core/redact/memory-redaction.ts', find: 'if (memory.extra) out.extra = redactValue(memory.extra, redact, found) as Record<string, unknown>;', replace: '', tests: UNIT('memory-redaction') },
  { id: 'redaction.lists-in-unknown-fields-skipped', file: 'src/core/redact/memory-redaction.ts', find: 'if (Array.isArray(value)) return value.map((v) => redactValue(v, redact, found));', replace: '', tests: UNIT('memory-redaction') },
  { id: 'redaction.summary-cut-before-redaction', file: 'src/core/redact/memory-redaction.ts', find: 'summary: fitSummary(text(memory.summary))', replace: 'summary: text(fitSummary(memory.summary))', tests: UNIT('memory-redaction') },
  // The capture judge is asked from JUDGE_FLOOR (below the suggest tier), at most JUDGE_MAX_CANDIDATES, the strongest.
  { id: 'judge.floor-is-suggest-tier', file: 'src/hooks/handlers.ts', find: 'untakenSuggestions(signals, auto, JUDGE_FLOOR)', replace: 'untakenSuggestions(signals, auto)', tests: E2E('capture-judge') },
  { id: 'judge.strongest-of-one-message-only', file: 'src/hooks/handlers.ts', find: 'untakenSuggestions(signals, auto, JUDGE_FLOOR).sort((a, b) => b.confidence - a.confidence)', replace: 'untakenSuggestions(signals, auto, JUDGE_FLOOR)', tests: E2E('capture-judge'), only: 'at most 20' },
  { id: 'judge.no-cap', file: 'src/services/session/hook-capture.ts', find: 'if (out.length >= limit || searches >= 2 * limit) break;', replace: '', tests: E2E('capture-judge'), only: 'at most 20' },
  { id: 'redaction.copies-not-carried', file: 'src/core/redact/memory-redaction.ts', find: 'if (copies.length === 0) return first;', replace: 'return first;', tests: E2E('crud'), only: 'repeats it bare' },
  { id: 'redaction.capture-path-unredacted', file: 'src/services/capture.ts', find: 'return redactMemory(memory, cleaner(ctx));', replace: 'return { memory, found: [] };', tests: E2E('crud'), only: 'redacts secrets before writing' },
  { id: 'redaction.allowlist-ignored', file: 'src/core/redact/redact.ts', find: 'allowed: allowed(secret) });', replace: 'allowed: false });', tests: UNIT('redact-rules') },
  { id: 'redaction.high-entropy-rule-off', file: 'src/core/redact/secret-rules.ts', find: 'validate: highEntropy },', replace: 'validate: () => false },', tests: UNIT('redact') },
  { id: 'redaction.luhn-skipped', file: 'src/core/redact/secret-checks.ts', find: "if (!/^[2-6]/.test(d) || !luhn(d)) return false;", replace: "if (!/^[2-6]/.test(d)) return false;", tests: UNIT('redact') },

  // Input: a summary is at most 100 characters (exit 2 beyond, nothing written).
  { id: 'validate.summary-limit-off-by-one', file: 'src/core/validate.ts', find: 'if ([...s].length > SUMMARY_MAX && !forceTruncate) {', replace: 'if ([...s].length >= SUMMARY_MAX && !forceTruncate) {', tests: UNIT('validate') },

  // Signal tiers: capture at 0.95 or more, suggest from 0.70, else nothing.
  { id: 'signals.auto-tier-exclusive', file: 'src/core/signals.ts', find: "return confidence >= AUTO_THRESHOLD ? 'auto'", replace: "return confidence > AUTO_THRESHOLD ? 'auto'", tests: UNIT('signals', 'hooks-pure') },
  { id: 'signals.suggest-tier-exclusive', file: 'src/core/signals.ts', find: "confidence >= SUGGEST_THRESHOLD ? 'suggest' : 'skip'", replace: "confidence > SUGGEST_THRESHOLD ? 'suggest' : 'skip'", tests: UNIT('signals', 'hooks-pure') },
  // The capture model: nothing below the suggest tier, prose only, a lead-in with its list, checked weights.
  { id: 'signals.floor-ignored', file: 'src/core/signals.ts', find: 'const floor = options.floor ?? SUGGEST_THRESHOLD;', replace: 'const floor = SUGGEST_THRESHOLD;', tests: UNIT('signals') },
  { id: 'signals.model-floor-off', file: 'src/core/signals.ts', find: 'if (confidence < floor) continue;', replace: '', tests: UNIT('signals') },
  { id: 'statements.code-fences-read', file: 'src/core/statements.ts', find: 'inFence = !inFence;', replace: 'inFence = false;', tests: UNIT('capture-model', 'signals') },
  { id: 'statements.tables-read', file: 'src/core/statements.ts', find: 'if (TABLE.test(line) || QUOTE.test(line)', replace: 'if (QUOTE.test(line)', tests: UNIT('capture-model', 'signals') },
  { id: 'statements.lead-in-alone', file: 'src/core/statements.ts', find: "const leadIn = joined.trimEnd().endsWith(':');", replace: 'const leadIn = false;', tests: UNIT('capture-model') },
  { id: 'capture-model.digest-unchecked', file: 'src/core/capture-model.ts', find: 'if (weightsDigest(bytes, table) !== table.sha256) {', replace: 'if (false) {', tests: UNIT('capture-model') },

  // A body never opens a document; documents without an id (the Python system's) are read as they are.
  { id: 'note-format.body-not-escaped', file: 'src/core/note-format.ts', find: 'return withBody(frontMatterOf(m), escapeBody(m.body));', replace: 'return withBody(frontMatterOf(m), m.body);', tests: UNIT('note-bodies') },
  { id: 'note-format.unescaped-without-id', file: 'src/core/note-format.ts', find: "const body = 'id' in fm ? unescapeBody(stored) : stored;", replace: 'const body = unescapeBody(stored);', tests: UNIT('note-bodies') },
  { id: 'converge.copies-left-alone', file: 'src/services/history/converge.ts', find: 'if (docs.length < 2) continue;', replace: 'continue;', tests: E2E('integrity'), only: 'forget, change first' },

  // Anchors: HEAD, then a branch, then a remote-tracking branch, then the newest commit; ties to the smaller id.
  { id: 'anchor.branch-before-head', file: 'src/core/history/anchor.ts', find: "case 'head':\n      return 0;", replace: "case 'head':\n      return 1;", tests: UNIT('anchor') },
  { id: 'anchor.older-commit-wins', file: 'src/core/history/anchor.ts', find: 'p.time > best.time ||', replace: 'p.time < best.time ||', tests: UNIT('anchor') },
  { id: 'anchor.tie-to-larger-id', file: 'src/core/history/anchor.ts', find: 'p.object < best.object', replace: 'p.object > best.object', tests: UNIT('anchor') },
  { id: 'anchor.missing-commit-not-orphan', file: 'src/core/history/anchor.ts', find: "return reach === 'unreachable' || reach === 'missing';", replace: "return reach === 'unreachable';", tests: UNIT('anchor') },

  // Staleness: a memory's own files, changed since its commit.
  { id: 'staleness.any-file-counts', file: 'src/core/history/staleness.ts', find: 'if (!mine.has(c.path)) continue;', replace: '', tests: UNIT('staleness') },
  { id: 'staleness.deletion-missed', file: 'src/core/history/staleness.ts', find: "if (c.status === 'D') deleted.push(c.path);", replace: '', tests: UNIT('staleness') },
  { id: 'staleness.window-not-flagged', file: 'src/core/history/staleness.ts', find: 'const atLeast = window.size >= MAX_TOUCHING &&', replace: 'const atLeast = window.size > MAX_TOUCHING &&', tests: UNIT('staleness') },

  // Postings: the term index's lists, and documents removed from them by an edit or a forget.
  { id: 'postings.gap-off-by-one', file: 'src/stores/index/terms/codec.ts', find: 'writeVarint(doc - previous - 1, out);', replace: 'writeVarint(doc - previous, out);', tests: UNIT('postings-codec') },
  { id: 'postings.small-frequency-overflow', file: 'src/stores/index/terms/codec.ts', find: 'if (summary < 4 && tags < 4) writeVarint', replace: 'if (summary < 8 && tags < 4) writeVarint', tests: UNIT('postings-codec') },
  { id: 'postings.small-tags-overflow', file: 'src/stores/index/terms/codec.ts', find: 'if (summary < 4 && tags < 4) writeVarint', replace: 'if (summary < 4 && tags < 8) writeVarint', tests: UNIT('postings-codec') },
  { id: 'postings.update-append-ignores-list-end', file: 'src/stores/index/terms/build.ts', find: 'appendPostings(a.postings, previous, out);', replace: 'appendPostings(a.postings, -1, out);', tests: UNIT('term-index') },
  { id: 'postings.removed-document-kept', file: 'src/stores/index/terms/reader.ts', find: 'for (let i = 0; i < list.length; i += 2) if (!gone[list[i]!]) n += 2;', replace: 'for (let i = 0; i < list.length; i += 2) n += 2;', tests: UNIT('term-index') },

  // Hook output: only documented fields, the event named.
  { id: 'hook-output.context-at-top-level', file: 'src/agents/claude/hooks.ts', find: 'if (reply.additionalContext) out.hookSpecificOutput = { hookEventName: event, additionalContext: reply.additionalContext };', replace: 'if (reply.additionalContext) out.additionalContext = reply.additionalContext;', tests: UNIT('hooks-pure') },
  { id: 'hook-output.empty-reply-printed', file: 'src/agents/claude/hooks.ts', find: 'if (!reply || (!reply.additionalContext && !reply.systemMessage)) return null;', replace: 'if (!reply) return null;', tests: UNIT('hooks-pure') },

  // Hooks never hurt the session: a failure is one line on stderr, exit 0.
  { id: 'hooks.failure-escapes', file: 'src/hooks/index.ts', find: '  } catch (err) {\n    io.err(`git-mem hook ${event}: ', replace: '  } catch (err) {\n    if (err) throw err;\n    io.err(`git-mem hook ${event}: ', tests: E2E('hooks'), only: 'exits 0 with one line on stderr' },

  // Context budget: by memory count, never above 9,500 characters, memory text escaped.
  { id: 'context.budget-not-capped', file: 'src/core/memory-context.ts', find: 'Math.min(hard, tokenBudget(input.total) * CHARS_PER_TOKEN - GUIDANCE.length)', replace: 'tokenBudget(input.total) * CHARS_PER_TOKEN - GUIDANCE.length', tests: UNIT('hooks-pure') },
  { id: 'context.small-repo-budget', file: 'src/core/memory-context.ts', find: 'if (total < 10) return 500;', replace: 'if (total < 10) return 1000;', tests: UNIT('hooks-pure') },
  { id: 'context.entries-past-budget', file: 'src/core/memory-context.ts', find: 'if (used + size > budget) break;', replace: '', tests: UNIT('hooks-pure') },
  { id: 'context.angle-bracket-unescaped', file: 'src/core/memory-context.ts', find: '.replace(/[&<>"\']/g,', replace: '.replace(/[&>"\']/g,', tests: UNIT('hooks-pure') },
  { id: 'context.text-angle-bracket-unescaped', file: 'src/core/memory-context.ts', find: ".replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);", replace: ".replace(/[&>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);", tests: UNIT('hooks-pure') },

  // Sync: a rejected push pulls, merges and retries, never forces.
  { id: 'sync.rejected-push-not-retried', file: 'src/services/sync.ts', find: "if (!rejected) throw gitFailure('push to', remote, r.stderr);", replace: "throw gitFailure('push to', remote, r.stderr);", tests: E2E('sync'), only: 'two clones capture on the same commit' },
  // The sync property at its default size (24 histories) still finds it: first at seed 21.
  { id: 'sync.rejected-push-not-retried-property', file: 'src/services/sync.ts', find: "if (!rejected) throw gitFailure('push to', remote, r.stderr);", replace: "throw gitFailure('push to', remote, r.stderr);", tests: E2E('sync-property') },

  // Lifecycle: gc never ages protected namespaces, memories tagged keep, or one reprieved 3 times.
  { id: 'gc.protected-namespace-aged', file: 'src/core/lifecycle/aging.ts', find: "if (rules.protectedNamespaces.has(m.namespace)) return 'protected-namespace';", replace: '', tests: UNIT('lifecycle') },
  { id: 'gc.keep-tag-ignored', file: 'src/core/lifecycle/aging.ts', find: "if (m.tags.some((t) => t.toLowerCase() === KEEP_TAG)) return 'kept-tag';", replace: '', tests: UNIT('lifecycle') },
  { id: 'gc.reprieves-off-by-one', file: 'src/core/lifecycle/aging.ts', find: '(m.reprieves ?? 0) >= GC_REPRIEVES_MAX', replace: '(m.reprieves ?? 0) > GC_REPRIEVES_MAX', tests: UNIT('lifecycle') },

  // Reanchor: a live copy is kept; copies on commits this clone lacks are left alone; matching by files needs half of them.
  { id: 'reanchor.live-copy-ignored', file: 'src/services/history/reanchor.ts', find: 'if (to.length) {', replace: 'if (false && to.length) {', tests: E2E('rewrite'), only: 'live copy|plain amend' },
  { id: 'reanchor.missing-commit-taken-for-dead', file: 'src/services/history/reanchor.ts', find: "const from = [...g.objects].filter((o) => reachOf(o) === 'unreachable').sort();", replace: 'const from = [...g.objects].filter(orphaned).sort();', tests: E2E('rewrite'), only: "teammate's amended commit" },
  { id: 'reanchor.binary-target-rewritten', file: 'src/services/history/reanchor.ts', find: 'if (move.to.some((o) => binary.has(o))) {', replace: 'if (false) {', tests: E2E('rewrite'), only: 'match holds a binary note' },
  { id: 'reanchor.never-fetched-matched-on-recorded-facts', file: 'src/services/history/reanchor.ts', find: "if (reachOf(o) === 'missing' && (heldLog.has(o) || seen.has(o))) objects.add(o);", replace: "if (reachOf(o) === 'missing') objects.add(o);", tests: E2E('stranded'), only: 'never fetched here stays put' },
  { id: 'reanchor.move-by-hand-one-copy', file: 'src/services/history/reanchor.ts', find: 'const from = [...new Set(copies.length ? copies : [m.object])].filter((o) => o !== target).sort();', replace: 'const from = [m.object].filter((o) => o !== target);', tests: E2E('stranded'), only: 'moves every copy' },
  { id: 'placement.other-worktree-heads-ignored', file: 'src/stores/git/repo.ts', find: 'worktreeHeads.set(repo, (heads = [...found].sort()));', replace: 'worktreeHeads.set(repo, (heads = []));', tests: E2E('stranded'), only: 'another worktree' },
  { id: 'rewrite-match.any-file-overlap', file: 'src/core/history/rewrite-match.ts', find: 'const MIN_FILE_COVERAGE = 0.5;', replace: 'const MIN_FILE_COVERAGE = 0.01;', tests: UNIT('anchor') },
  { id: 'rewrite-match.exactly-half-refused', file: 'src/core/history/rewrite-match.ts', find: 'if (coverage >= MIN_FILE_COVERAGE)', replace: 'if (coverage > MIN_FILE_COVERAGE)', tests: UNIT('anchor') },
  { id: 'rewrite-match.older-candidate-taken', file: 'src/core/history/rewrite-match.ts', find: '(orphan.time !== undefined && c.placement.time < orphan.time)', replace: 'false', tests: UNIT('anchor') },
  { id: 'rewrite-match.short-subject-matched', file: 'src/core/history/rewrite-match.ts', find: 'const MIN_SUBJECT = 8;', replace: 'const MIN_SUBJECT = 1;', tests: UNIT('anchor') },

  // Terminal text: control characters shown, never sent, wherever memory text reaches a terminal.
  { id: 'terminal.c1-controls-sent', file: 'src/core/terminal-text.ts', find: '\\u007f-\\u009f]|\\r(?!\\n)/g', replace: '\\u007f]|\\r(?!\\n)/g', tests: UNIT('terminal-text') },
  { id: 'terminal.lone-cr-sent', file: 'src/core/terminal-text.ts', find: '\\u007f-\\u009f]|\\r(?!\\n)/g', replace: '\\u007f-\\u009f]/g', tests: UNIT('terminal-text') },
  { id: 'terminal.list-line-raw', file: 'src/render/render.ts', find: '${visible(m.summary)}${status}', replace: '${m.summary}${status}', tests: E2E('hardening-cli'), only: 'terminal escapes' },
  { id: 'terminal.log-summary-raw', file: 'src/cli/commands/log.ts', find: '${visible(m.summary)}${m.status', replace: '${m.summary}${m.status', tests: E2E('hardening-cli'), only: 'terminal escapes' },
  { id: 'terminal.log-subject-raw', file: 'src/cli/commands/log.ts', find: '${visible(e.subject)}', replace: '${e.subject}', tests: E2E('hardening-cli'), only: 'terminal escapes' },
  { id: 'terminal.import-line-raw', file: 'src/cli/commands/transfer.ts', find: '${visible(x.summary)}', replace: '${x.summary}', tests: E2E('hardening-cli'), only: 'terminal escapes' },
  { id: 'terminal.related-line-raw', file: 'src/render/lifecycle.ts', find: '${visible(m.summary)}${note}', replace: '${m.summary}${note}', tests: E2E('hardening-cli'), only: 'terminal escapes' },
  { id: 'terminal.consolidate-heading-raw', file: 'src/render/lifecycle.ts', find: '${visible(x.memory.summary)}', replace: '${x.memory.summary}', tests: E2E('hardening-cli'), only: 'terminal escapes' },

  // Import: every line checked, then every namespace written in one transaction or none; a second import adds nothing.
  { id: 'import.namespaces-one-by-one', file: 'src/services/capture.ts', find: 'ctx.notes.updateAll(', replace: '((requests) => requests.forEach((r) => ctx.notes.update(r.namespace, r.objects, r.modify)))(', tests: E2E('transfer'), only: 'binary note in the second' },
  { id: 'import.invalid-line-skipped', file: 'src/services/transfer.ts', find: 'throw new UsageError(`line ${line}: not valid JSON; nothing was imported`);', replace: 'return;', tests: E2E('transfer'), only: 'rejects a bad file whole' },
  { id: 'import.known-keys-imported-again', file: 'src/services/transfer.ts', find: 'if (present.has(id) || seen.has(id)) return false;', replace: 'if (seen.has(id)) return false;', tests: E2E('transfer'), only: 'already hold' },
];

// ---------------------------------------------------------------------------------------------

function usage(message) {
  if (message) console.error(`mutation-check: ${message}`);
  console.error('usage: node tools/mutation-check.mjs [--list] [--files a.ts,b.ts] [--id a,b] [--no-baseline] [--timeout seconds]');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { list: false, files: null, ids: null, baseline: true, timeoutMs: 300_000 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => argv[++i] ?? usage(`${a} needs a value`);
    if (a === '--list') opts.list = true;
    else if (a === '--files') opts.files = value().split(',').filter(Boolean).map((f) => path.relative(ROOT, path.resolve(f)));
    else if (a === '--id') opts.ids = value().split(',').filter(Boolean);
    else if (a === '--no-baseline') opts.baseline = false;
    else if (a === '--timeout') opts.timeoutMs = Number(value()) * 1000;
    else if (a === '--help' || a === '-h') usage();
    else usage(`unknown argument ${a}`);
  }
  return opts;
}

/** How often the snippet occurs in the file: it must be exactly once for the mutation to mean what it says. */
function occurrences(text, snippet) {
  let n = 0;
  for (let at = text.indexOf(snippet); at >= 0; at = text.indexOf(snippet, at + 1)) n++;
  return n;
}

function check(m, dir) {
  const file = path.join(dir, m.file);
  if (!fs.existsSync(file)) return `${m.file} does not exist`;
  const n = occurrences(fs.readFileSync(file, 'utf8'), m.find);
  if (n === 0) return 'snippet not found';
  if (n > 1) return `snippet found ${n} times`;
  if (m.find === m.replace) return 'replacement equals the snippet';
  for (const t of m.tests) if (!fs.existsSync(path.join(dir, t))) return `test ${t} does not exist`;
  return null;
}

const isE2e = (m) => m.tests.some((t) => t.startsWith('test/e2e/'));

/** The work tree as it is, uncommitted changes included, in a temporary directory; node_modules linked. */
function copyTree() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-mutation-'));
  const r = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`git ls-files failed: ${r.stderr}`);
  for (const f of r.stdout.split('\0')) {
    if (!f || f === 'node_modules' || f.startsWith('node_modules/')) continue;
    const from = path.join(ROOT, f);
    const st = fs.lstatSync(from, { throwIfNoEntry: false });
    if (!st || st.isDirectory()) continue; // deleted in the work tree, or a submodule
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.cpSync(from, path.join(dir, f), { verbatimSymlinks: true });
  }
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'));
  return dir;
}

/** Runs a command in its own process group, so a timeout ends vitest and every worker it started. */
function run(cmd, args, options) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, options.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out, timedOut });
    });
  });
}

async function build(dir) {
  const r = await run('npm', ['run', '--silent', 'build'], { cwd: dir, env: process.env, timeoutMs: 300_000 });
  return r.code === 0 ? null : r.out.trim().split('\n').slice(-5).join('\n');
}

async function vitest(dir, m, timeoutMs) {
  const args = [path.join(dir, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--bail', '1', ...m.tests, ...(m.only ? ['-t', m.only] : [])];
  const env = { ...process.env, GIT_MEM_BIN: path.join(dir, 'dist', 'git-mem'), NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' };
  const r = await run(process.execPath, args, { cwd: dir, env, timeoutMs });
  // eslint-disable-next-line no-control-regex
  const text = r.out.replace(/\u001b\[[0-9;]*m/g, '');
  const failed = text.split('\n').find((l) => /^\s*(×|FAIL)\s/.test(l))?.trim();
  // The summary line, e.g. "Tests  2 failed | 3 passed | 12 skipped (17)": none run means the selection is wrong.
  const noTests = !/\d+ (passed|failed)/.test(text.match(/^\s*Tests\s+(.*)$/m)?.[1] ?? '');
  return { ...r, failed, noTests, text };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let selected = MUTATIONS;
  if (opts.files) selected = selected.filter((m) => opts.files.includes(m.file));
  if (opts.ids) {
    const unknown = opts.ids.filter((id) => !MUTATIONS.some((m) => m.id === id));
    if (unknown.length) usage(`no mutation named ${unknown.join(', ')}`);
    selected = selected.filter((m) => opts.ids.includes(m.id));
  }
  const dupes = MUTATIONS.map((m) => m.id).filter((id, i, all) => all.indexOf(id) !== i);
  if (dupes.length) usage(`mutation ids used twice: ${dupes.join(', ')}`);

  const problems = selected.map((m) => [m, check(m, ROOT)]);
  if (opts.list) {
    for (const [m, problem] of problems) console.log(`${problem ? `REFUSED (${problem})` : 'ok'}\t${m.id}\t${m.file}\t${m.tests.join(' ')}${m.only ? ` -t '${m.only}'` : ''}`);
    console.log(`${selected.length} mutations${opts.files || opts.ids ? ` selected of ${MUTATIONS.length}` : ''}`);
    process.exit(problems.some(([, p]) => p) ? 2 : 0);
  }
  const refused = problems.filter(([, p]) => p);
  if (refused.length) {
    for (const [m, problem] of refused) console.error(`refused: ${m.id} (${m.file}): ${problem}`);
    console.error('mutation-check: fix these entries in tools/mutation-check.mjs (the code moved), then run again');
    process.exit(2);
  }
  if (selected.length === 0) {
    console.log(`no mutation on ${opts.files?.join(', ') ?? 'these ids'}: nothing to check`);
    return;
  }

  const started = Date.now();
  const dir = copyTree();
  let status = 0;
  try {
    console.log(`${selected.length} mutations, in ${dir}`);
    if (selected.some(isE2e)) {
      const err = await build(dir);
      if (err) throw new Error(`the unmutated build fails:\n${err}`);
    }
    if (opts.baseline) {
      // The same test runs unmutated must pass, or a "kill" would mean nothing.
      const runs = new Map(selected.map((m) => [`${m.tests.join(' ')}|${m.only ?? ''}`, m]));
      for (const m of runs.values()) {
        const r = await vitest(dir, m, opts.timeoutMs);
        if (r.code !== 0 || r.noTests) {
          console.error(`baseline fails (no mutation): ${m.tests.join(' ')}${m.only ? ` -t '${m.only}'` : ''}\n${r.failed ?? r.text.trim().split('\n').slice(-15).join('\n')}`);
          process.exitCode = 1;
          return;
        }
      }
      console.log(`baseline: ${runs.size} test runs pass unmutated (${seconds(Date.now() - started)})`);
    }
    const survivors = [];
    for (const m of selected) {
      const t0 = Date.now();
      const file = path.join(dir, m.file);
      const original = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(file, original.replace(m.find, () => m.replace));
      let verdict;
      let detail = '';
      try {
        const err = isE2e(m) ? await build(dir) : null;
        if (err) {
          verdict = 'killed';
          detail = 'the build fails';
        } else {
          const r = await vitest(dir, m, opts.timeoutMs);
          if (r.timedOut) [verdict, detail] = ['killed', `timed out after ${seconds(opts.timeoutMs)}`];
          else if (r.noTests) throw new Error(`${m.id}: the tests named ran no test (check 'only')`);
          else if (r.code !== 0) [verdict, detail] = ['killed', r.failed ?? `vitest exited ${r.code}`];
          else verdict = 'SURVIVED';
        }
      } finally {
        fs.writeFileSync(file, original);
      }
      if (verdict === 'SURVIVED') survivors.push(m.id);
      console.log(`${verdict.padEnd(8)} ${seconds(Date.now() - t0).padStart(7)}  ${m.id}  (${m.file})${detail ? `\n                   ${detail.slice(0, 160)}` : ''}`);
    }
    const killed = selected.length - survivors.length;
    const total = Date.now() - started;
    console.log(`score: ${killed}/${selected.length} killed (${Math.round((100 * killed) / selected.length)}%) in ${Math.floor(total / 60_000)} min ${Math.round((total % 60_000) / 1000)} s${survivors.length ? `; survived: ${survivors.join(', ')}` : ''}`);
    status = survivors.length ? 1 : 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exitCode = status;
}

main().catch((err) => {
  console.error(`mutation-check: ${err.message}`);
  process.exitCode = 2;
});
