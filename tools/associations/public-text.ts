// Public text of a repository snapshot, read from a local git directory (a bare clone is enough):
// its commit messages without trailers or addresses, then its Markdown, AsciiDoc and text files at
// the commit named. Shared by tools/associations/build.ts (the related-words table) and
// tools/capture-model/w2v-text.ts (the capture model's word vectors).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export function git(dir: string, args: string[]): string {
  const r = spawnSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** The git directory of `repo` ("owner/name") under `root`: root/<owner>+<name>/repo, root/<owner>+<name>.git or root/<owner>+<name>. */
export function gitDir(root: string, repo: string): string {
  const base = path.join(root, repo.replace('/', '+'));
  for (const d of [path.join(base, 'repo'), `${base}.git`, base]) if (fs.existsSync(path.join(d, 'HEAD'))) return d;
  throw new Error(`no git directory for ${repo} under ${root}`);
}

export interface TextLimits {
  /** At most this many commit messages, the newest first (all when absent). */
  messages?: number;
  /** At most this many documentation files, in path order (all when absent). */
  files?: number;
}

/** A source's text: commit messages without trailers or addresses, then its documentation files (fenced code left out). */
export function* texts(dir: string, commit: string, limits: TextLimits = {}): Generator<string> {
  const log = git(dir, ['log', '--no-merges', ...(limits.messages === undefined ? [] : [`-n${limits.messages}`]), '--format=%B%x00', commit]);
  for (const message of log.split('\0')) {
    yield message
      .split('\n')
      .filter((l) => !/^\s*[A-Za-z-]+-by:/i.test(l) && !l.includes('@') && !/^\s*(Change-Id|Cc|Link|Fixes|Closes|Refs?):/i.test(l))
      .join('\n');
  }
  const files = git(dir, ['ls-tree', '-r', '--name-only', commit]).split('\n').filter((f) => /\.(md|adoc|txt)$/.test(f) && !/(^|\/)(CHANGELOG|RelNotes|LICENSE|COPYING)/i.test(f) && !/RelNotes|release-notes/i.test(f)).sort();
  for (const f of files.slice(0, limits.files ?? files.length)) yield git(dir, ['show', `${commit}:${f}`]).replace(/```[\s\S]*?```/g, ' ');
}
