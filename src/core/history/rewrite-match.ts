/**
 * Finding the commit that now holds an orphaned commit's change, after a
 * rewrite git did not report (a squash merge, a forge's squash button, a
 * rebase without notes.rewriteRef). Pure: the service gathers the facts.
 * In order of confidence: the same patch (patch-id), a squash message that
 * names the commit or lists its subject, then the files it touched.
 */
import { pickAnchor, type Placement } from './anchor.ts';

export interface Orphan {
  object: string;
  /** Known while the commit still exists. */
  patchId?: string;
  subject?: string;
  time?: number;
  /** The files it changed (from the commit, else as recorded with its memories). */
  paths: readonly string[];
}

export interface Candidate {
  placement: Placement;
  patchId?: string;
  message: string;
  paths?: readonly string[];
}

export type MatchVia = 'patch-id' | 'message' | 'files';

export interface Match {
  target: string;
  via: MatchVia;
}

/** Files: at least this share of the orphan's files must be among the candidate's. */
const MIN_FILE_COVERAGE = 0.5;
/** Subjects shorter than this ("wip", "fix") say too little to match on. */
const MIN_SUBJECT = 8;

function best(candidates: readonly Candidate[]): string | undefined {
  return pickAnchor(candidates.map((c) => c.placement))?.object;
}

function bulletText(line: string): string {
  return line.replace(/^\s*(?:[*-]\s+)?/, '').trim();
}

/** A squash message names a commit by its full id (`git merge --squash`) or lists its subject as a line (forges). */
export function namesCommit(message: string, orphan: Orphan): boolean {
  if (message.toLowerCase().includes(orphan.object)) return true;
  const subject = orphan.subject?.trim();
  if (!subject || subject.length < MIN_SUBJECT) return false;
  return message.split('\n').some((line) => bulletText(line) === subject);
}

export function matchOrphan(orphan: Orphan, candidates: readonly Candidate[], step: MatchVia): string | undefined {
  switch (step) {
    case 'patch-id':
      return orphan.patchId ? best(candidates.filter((c) => c.patchId === orphan.patchId)) : undefined;
    case 'message':
      return best(candidates.filter((c) => namesCommit(c.message, orphan)));
    case 'files': {
      if (orphan.paths.length === 0) return undefined;
      const mine = new Set(orphan.paths);
      let found: { c: Candidate; coverage: number; size: number }[] = [];
      for (const c of candidates) {
        if (!c.paths?.length || (orphan.time !== undefined && c.placement.time < orphan.time)) continue;
        const shared = c.paths.filter((p) => mine.has(p)).length;
        const coverage = shared / mine.size;
        if (coverage >= MIN_FILE_COVERAGE) found.push({ c, coverage, size: c.paths.length });
      }
      if (found.length === 0) return undefined;
      // The most of its files, then the fewest others (the most specific commit), then as anchors rank.
      const top = Math.max(...found.map((f) => f.coverage));
      found = found.filter((f) => f.coverage === top);
      const fewest = Math.min(...found.map((f) => f.size));
      return best(found.filter((f) => f.size === fewest).map((f) => f.c));
    }
  }
}
