/** What hooks inject: the session-start memory context, and memories related to a file or a prompt. */
import path from 'node:path';
import { type FileCandidate, pathWords, rankForFile } from '../../core/history/file-relevance.ts';
import { buildMemoryContext, relatedMemories } from '../../core/memory-context.ts';
import { normalizeForNovelty } from '../../core/signals.ts';
import type { Memory } from '../../core/memory.ts';
import { aboveFloor } from '../../core/search/floor.ts';
import { canonicalTime } from '../../core/time.ts';
import type { Deps } from '../deps.ts';
import type { RecallDeps } from '../search/recall.ts';
import { recall, traceInjection } from '../search/recall.ts';
import { traceEnabled, tracePhase } from '../../io/trace.ts';
import { asShown, forAgent, stalenessMap } from '../shown.ts';
import { injectable } from '../trust/trust.ts';
import { readSession, updateSession } from '../../stores/cache/sessions.ts';
import { memoryCommitsChanging } from '../history/file-history.ts';
import { blameLines, recentSubjects } from '../../stores/git/history.ts';
import { currentBranch } from '../../stores/git/remotes.ts';
import { worktreeTopOfGitDir } from '../../stores/git/repo.ts';
import type { MemoryReader } from '../../stores/index/index.ts';

/** What this file's services use. */
export type SessionContextDeps = Pick<Deps, 'cwd' | 'now' | 'repo' | 'index' | 'settings' | 'notes'> & RecallDeps;

/** Memories matching `query`, best first; with a floor, only those near the best match (see aboveFloor). */
async function related(ctx: SessionContextDeps, query: string, namespaces: string[], limit: number, floor: () => number = () => 0, label = 'related recall'): Promise<Memory[]> {
  if (!query.trim()) return [];
  try {
    const { hits } = await recall(ctx, { query, namespaces, limit, mode: 'lexical', explain: traceEnabled(), time: false });
    if (traceEnabled()) traceInjection(label, query, hits, floor());
    return aboveFloor(hits, floor).map((h) => h.memory);
  } catch {
    return [];
  }
}

/** Branch name and recent commit subjects: what the session is probably about. */
function workTopic(ctx: SessionContextDeps): string {
  const branch = currentBranch(ctx.repo.git);
  const subjects = recentSubjects(ctx.repo, 5).join('\n');
  return `${branch.replace(/[/_-]+/g, ' ')} ${subjects}`.replace(/\b(?:main|master|feature|fix|wip)\b/gi, ' ');
}

/**
 * The working memory: active blockers, active decisions (newest first, so those of the last week
 * lead), pending progress; each part at most its limit. Older decisions are not left out by date:
 * an active decision still holds, whenever it was taken; the budget decides how many are shown.
 * Hence the section's title, Active Decisions, not Recent ones (README, SessionStart).
 */
function workingMemory(index: MemoryReader, limits: { blockers: number; decisions: number; pending: number }) {
  // Active only: a superseded or consolidated decision is archived, and never offered as current.
  return {
    blockers: index.list({ namespaces: ['blockers'], statuses: ['active'], limit: limits.blockers }),
    decisions: index.list({ namespaces: ['decisions'], statuses: ['active'], limit: limits.decisions }),
    pending: index.list({ namespaces: ['progress'], statuses: ['active'], limit: limits.pending }),
  };
}

/**
 * The context a session starts with. `held` is text the session already holds (after a
 * compaction, its summary): a memory whose summary is in it is not injected again.
 */
/** The session-start context, and how many of the memories it would have offered wait for review (held back by mem.trust). */
export interface SessionStart {
  context: string;
  unreviewed: number;
}

export async function sessionStartContext(ctx: SessionContextDeps, held = ''): Promise<SessionStart> {
  const index = await ctx.index.current();
  const now = ctx.now();
  const total = [...index.counts().values()].reduce((a, b) => a + b, 0);
  const working = workingMemory(index, { blockers: 20, decisions: 20, pending: 10 });
  const topic = workTopic(ctx);
  // One search for both namespaces: each search scores every memory that matches a word.
  const hits = await related(ctx, topic, ['learnings', 'patterns'], 20, undefined, 'session-start recall');
  const semantic = (ns: string) => {
    const mine = hits.filter((m) => m.namespace === ns);
    return mine.length ? mine : index.list({ namespaces: [ns], statuses: ['active'], limit: 10 });
  };
  const heldText = normalizeForNovelty(held);
  const fresh = (ms: Memory[]) =>
    heldText
      ? ms.filter((m) => {
          const words = normalizeForNovelty(m.summary);
          return !words || !heldText.includes(words);
        })
      : ms;
  const offered = {
    blockers: fresh(working.blockers),
    decisions: fresh(working.decisions),
    pending: fresh(working.pending),
    learnings: fresh(semantic('learnings')),
    patterns: fresh(semantic('patterns')),
  };
  // Only what the trust policy lets an agent see (services/trust/trust.ts), asked once for all sections.
  const given = new Map(injectable(ctx, Object.values(offered).flat()).map((m) => [`${m.namespace}:${m.key}`, m]));
  const keep = (ms: Memory[]) => ms.flatMap((m) => given.get(`${m.namespace}:${m.key}`) ?? []);
  const sections = {
    blockers: keep(offered.blockers),
    decisions: keep(offered.decisions),
    pending: keep(offered.pending),
    learnings: keep(offered.learnings),
    patterns: keep(offered.patterns),
  };
  const context = buildMemoryContext({
    project: path.basename(path.dirname(ctx.repo.commonDir)),
    timestamp: canonicalTime(now),
    total,
    ...sections,
    staleness: stalenessMap(asShown(ctx, Object.values(sections).flat(), { staleness: true })),
  });
  const offeredKeys = new Set(Object.values(offered).flat().map((m) => `${m.namespace}:${m.key}`));
  return { context, unreviewed: [...offeredKeys].filter((k) => !given.has(k)).length };
}

/** The working memory alone (active blockers, the newest active decisions, pending progress), short: for a subagent starting its task. */
export async function workingMemoryContext(ctx: SessionContextDeps, maxChars = 2000): Promise<string> {
  const working = workingMemory(await ctx.index.current(), { blockers: 5, decisions: 5, pending: 3 });
  const { shown } = forAgent(ctx, [...working.blockers, ...working.decisions, ...working.pending]);
  return relatedMemories('working_memory', shown.map((s) => s.memory), { project: path.basename(path.dirname(ctx.repo.commonDir)) }, maxChars, stalenessMap(shown));
}

/** The session-state entry saying PreToolUse answered this tool call. */
export const preToolUseMark = (toolUseId: string) => `pre:${toolUseId}`;

/** Search words from a file path: directories and name parts, without the generic ones. */
export function pathQuery(file: string): string {
  return pathWords(file).join(' ');
}

/**
 * The file as `paths` records it, relative to the top of the working tree (found without running
 * git: stores/git/repo.ts worktreeTopOfGitDir). Null when the file is outside the working tree
 * (or the top cannot be told).
 */
function repoRelative(ctx: SessionContextDeps, file: string): string | null {
  const top = worktreeTopOfGitDir(ctx.repo);
  if (!top) return null;
  const rel = path.relative(top, path.resolve(ctx.cwd, file));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : null;
}

/**
 * How many memories on the file's commits are ranked, the newest (index.list orders by creation):
 * 40, and one more for each the session was given, so later calls reach further back; never above
 * 64, where index.list reads every memory at once (terms/reader.ts best(): 3,000 of them, 15 ms more).
 * Reading and ranking all 180 memories of a file changed 500 times cost 30 ms.
 */
const FILE_HISTORY_MEMORIES = 40;
const FILE_HISTORY_MAX = 64;

/**
 * Memories about a file, best first (core/history/file-relevance.ts): found on the commits that wrote
 * `lines` (when an edit's lines are known), on every commit that changed the file, and by its path
 * words; ranked by their scope and words; each at most once per session. Those the session
 * was already given are left out before ranking, so a later call offers the next best about the
 * file, not what is left of a ranking cut against memories it no longer shows.
 */
export async function fileMemories(
  ctx: SessionContextDeps,
  file: string,
  sessionId: string,
  limit = 3,
  lines: ReadonlyArray<readonly [number, number]> = [],
  /** PreToolUse's tool call: marked in the session, so its PostToolUse does not search again. */
  toolUseId = '',
): Promise<Memory[]> {
  const index = await ctx.index.current();
  const given = new Set(readSession(ctx.repo.mem, sessionId).injected);
  const candidates: FileCandidate[] = [];
  if (lines.length) {
    try {
      const commits = [...new Set(blameLines(ctx.repo, file, lines).map((l) => l.commit))];
      if (commits.length) candidates.push(...index.list({ objects: commits, statuses: ['active'], limit: 20 }).map((memory) => ({ memory, onEditedLines: true })));
    } catch {
      // Not blameable (not tracked, outside the repository): the file's other memories still apply.
    }
  }
  // Words from the path inside the project only: the directories above it (home, tmp, the repo's
  // own name) would match unrelated memories.
  const rel = repoRelative(ctx, file);
  // The memories of every commit that changed the file, however long ago (services/history/file-history.ts).
  const history = new Map((rel ? memoryCommitsChanging(ctx.repo, index, rel) : []).map((c) => [c.commit, c.files]));
  tracePhase(`file history: ${history.size} commits`);
  const reach = Math.min(FILE_HISTORY_MAX, FILE_HISTORY_MEMORIES + given.size);
  if (history.size) candidates.push(...index.list({ objects: [...history.keys()], statuses: ['active'], limit: reach }).map((memory) => ({ memory, onFileCommit: true })));
  tracePhase('memories on them listed');
  const byPath = await related(ctx, pathQuery(rel ?? path.basename(file)), [], 10, () => ctx.settings.relevanceFloor, 'file recall');
  candidates.push(...byPath.map((memory) => ({ memory, searchHit: true })));
  const fresh = candidates.filter((c) => !given.has(c.memory.key));
  // A memory without recorded paths is about its commit's files when they are few: known for the file's commits.
  const withFiles = fresh.map((c) => (c.memory.paths?.length || !history.has(c.memory.object) ? c : { ...c, commitFiles: history.get(c.memory.object)! }));
  const ranked = rankForFile(withFiles, rel ? { path: rel, lines } : { path: path.basename(file), outside: true });
  tracePhase('ranked for the file');
  return updateSession(ctx.repo.mem, sessionId, (s) => {
    const unseen = ranked.filter((m) => !s.injected.includes(m.key)).slice(0, limit);
    s.injected.push(...unseen.map((m) => m.key), ...(toolUseId ? [preToolUseMark(toolUseId)] : []));
    return unseen;
  });
}
