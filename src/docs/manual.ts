/**
 * The prose of the manual page: what the command definitions cannot say.
 * Commands, options, settings, namespaces and hook events come from the code
 * (src/docs/man.ts reads them); keep facts here that have no home in code,
 * and keep them in step with README.md.
 *
 * Markup: `code` is bold, <placeholder> italic; a block is a paragraph, a
 * list of items, a tagged list (term → text) or a literal block.
 */
export type Block = { p: string } | { list: string[] } | { tagged: Array<[string, string]> } | { code: string };

export interface Section {
  title: string;
  blocks: Block[];
}

export const DESCRIPTION: Block[] = [
  {
    p: `git-mem keeps decisions, learnings, blockers and progress in the repository itself, as git notes attached to the commits they are about (one notes ref per namespace, \`refs/notes/mem/<namespace>\`). They travel with the usual remote, and are read back through a local index that is only a cache: the notes are the truth.`,
  },
  {
    p: `git-mem is a git extension: the executable \`git-mem\` on PATH makes \`git mem\` work. \`git mem --help\` opens this page (git turns it into \`git help mem\`); \`git mem <command> --help\` prints a command's options. Commands that print data take \`--json\`; human output is coloured only on a terminal, and long listings go through git's pager.`,
  },
];

export const IDS: Block[] = [
  {
    p: `A memory's id looks like \`decisions:1a2b3c4:7f3a9c2e1b\`: \`<namespace>:<short commit>:<short key>\`. The key is stable for life: the same after edits, reindexing, push, pull and merge, and after the commit it annotates is rebased. Anywhere an id is expected, \`<namespace>:<key prefix>\` or a bare key prefix of 4 or more hex digits works, git-style; an ambiguous prefix lists the candidates.`,
  },
];

export const NOTE_FORMAT: Block[] = [
  { p: 'The note on a commit holds one or more documents, each YAML front matter and a markdown body, joined by a blank line:' },
  {
    code: `---
id: 112a1858642bd79c
type: decisions
timestamp: 2026-11-22T02:07:35Z
updated: 2026-11-22T02:07:35.730Z
summary: Use sql.js for the index
tags: [db, wasm]
author: Ada <ada@example.com>
---

No native modules to build.`,
  },
  {
    tagged: [
      ['`id`', 'A 16-hex key, stable for life. A document without one (written by an earlier tool) gets a key derived from its namespace and content.'],
      ['`type`', 'The namespace.'],
      ['`timestamp`', 'Creation time, UTC ISO-8601.'],
      ['`updated`', 'Revision time; the newer revision of a memory wins a merge (then a content-hash tie-break).'],
      ['`summary`', 'One line, at most 100 characters.'],
      ['`tags`, `spec`, `phase`, `relates_to`', 'Optional: tags, the spec or project, the phase of work, ids of related memories.'],
      ['`status`', '`resolved` or `archived`; written only when not `active`.'],
      ['`author`', 'From git config user.name and user.email.'],
      ['`source`, `confidence`', 'For automatic captures: the hook event and the detection confidence.'],
      ['`forgotten`', 'A tombstone: `git mem forget` replaces the document with its `id` and this time, so a merge with a clone that still holds the memory does not bring it back.'],
    ],
  },
  {
    p: 'Notes written by git-mem read correctly with `git notes --ref=refs/notes/mem/<namespace> show <commit>`. Notes that are not valid YAML, or hold binary data, are skipped with a warning and never rewritten. Secrets are redacted before any note is written (see `mem.secrets`).',
  },
];

export const SHARING: Block[] = [
  { p: "Memories travel through the team's remote (default: the current branch's upstream remote, else `origin`):" },
  { code: 'git mem init        # once per clone: fetch refspec and notes.rewriteRef\ngit mem sync        # pull (fetch and merge), then push' },
  {
    p: '`git mem init` adds, beside existing values, the fetch refspec `+refs/notes/mem/*:refs/notes/remotes/<remote>/mem/*` (plain `git fetch` then brings memories; `git mem pull --no-fetch` merges them) and `notes.rewriteRef refs/notes/mem/*` (memories follow their commits through `git commit --amend` and `git rebase`). Pulls merge memory by memory, never line by line: the merge is commutative and idempotent, and a push is never forced. Plain git works too: `git push origin "refs/notes/mem/*"`.',
  },
];

export const CLAUDE_CODE: Block[] = [
  {
    p: '`git mem init --claude` adds one `git mem hook <Event>` entry per event to `.claude/settings.json` (`--scope local`: `.claude/settings.local.json`; `--scope user`: `~/.claude/settings.json`), beside other tools\' hooks; `--remove` takes out exactly its own. Hooks inject relevant memories into the session and capture high-confidence statements; every hook exits 0 and prints only documented fields.',
  },
];

/** Environment variables that are not settings (those come from the SETTINGS table). */
export const ENVIRONMENT: Array<[string, string]> = [
  ['NO_COLOR', 'When set and not empty, no colour (unless `--color`).'],
  ['FORCE_COLOR', 'When set and not 0, colour even when stdout is not a terminal (unless `--no-color` or NO_COLOR).'],
  ['GIT_PAGER, PAGER', "The pager for long listings, in git's order: GIT_PAGER, then git config `core.pager`, then PAGER, then `less`; empty or `cat` turns paging off, as does `git config pager.mem false`. Paging happens only when stdout is a terminal."],
  ['LESS, LV', 'Passed to the pager; when unset, `LESS=FRX` and `LV=-c`, as git sets them.'],
  ['GIT_MEM_TRACE', 'When set, every git command git-mem runs is printed on stderr with its time, and the hooks print a line per recalled memory: injected, or held back by the trust policy or dropped by the relevance floor, with the words that matched (as recall --explain says them).'],
  ['GIT_MEM_NOW', 'Pins the clock to this ISO time (tests, reproducible imports).'],
  ['GIT_DIR, GIT_WORK_TREE, GIT_OBJECT_DIRECTORY, GIT_CONFIG_GLOBAL, ...', "git's own variables apply: git-mem works through git."],
  ['HOME', 'Where `--scope user` finds `~/.claude/settings.json`.'],
];

export const FILES: Array<[string, string]> = [
  ['`refs/notes/mem/<namespace>`', 'The memories: one notes ref per namespace. `refs/notes/remotes/<remote>/mem/<namespace>` hold what was fetched from a remote.'],
  ['`<git common dir>/mem/index.sqlite`', 'The search index, shared by linked worktrees. A cache: deleting it loses nothing; it is rebuilt from the notes.'],
  ['`<git common dir>/mem/terms.idx`', 'The term index lexical recall reads (an inverted index of the current memories), kept up to date with index.sqlite. Also a cache.'],
  ['`<git common dir>/mem/index.sqlite.lock`', 'Held while the index is written. One older than 15 seconds is stale (`git mem doctor` reports it).'],
  ['`<git common dir>/mem/sessions/`', 'Per-session state of the Claude Code hooks (what was injected and captured), with its lock files.'],
  ['`.claude/settings.json`, `.claude/settings.local.json`, `~/.claude/settings.json`', 'Where `git mem init --claude` installs the hooks (project, local and user scope).'],
];

export const EXIT_STATUS: Array<[string, string]> = [
  ['0', 'Success, including searches with no results.'],
  ['1', 'An error: not a repository, unknown id, a git failure, or (doctor) a problem found. One line on stderr, with a hint where one helps.'],
  ['2', 'Bad usage or input: unknown command or option, unknown namespace, empty or over-long summary, body over 100 KiB, malformed or ambiguous id. Nothing is written.'],
];

export const EXAMPLES: Array<[string, string]> = [
  ['Record a decision on HEAD, with a body:', 'git mem capture decisions "Use sql.js for the index" -m "No native modules to build."'],
  ['Record a review from a pipe:', 'git diff | git mem capture reviews "Review of the parser change" --file - --tags parser'],
  ['Search, then read a result in depth:', 'git mem recall "why wasm sqlite"\ngit mem hydrate 7f3a9c2e --level files'],
  ['Blockers still open this month:', 'git mem list --namespace blockers --status active --since 30d'],
  ['Share with the team:', 'git mem init && git mem sync'],
  ['Use with Claude Code, and check the setup:', 'git mem init --claude\ngit mem doctor'],
  ['Settings and where they come from:', 'git config mem.autoCapture false\ngit mem config'],
];

export const SEE_ALSO = ['git(1)', 'git-notes(1)', 'git-config(1)', 'git-fetch(1)', 'git-push(1)', 'gitrevisions(7)'];
