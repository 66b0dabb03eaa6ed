// The unlabelled text the capture model's word vectors are learned from (docs/capture.md, "Fifth
// round"): commit messages and Markdown/AsciiDoc prose of public repository snapshots, listed with
// their commits in tools/capture-model/w2v-sources.json. The text itself is never committed: it is
// read again from local git directories (bare clones are enough).
//
//   bun tools/capture-model/w2v-text.ts --git-dirs DIR --out FILE      write the text of the sources
//   bun tools/capture-model/w2v-text.ts --git-dirs DIR --list          list DIR's repositories as sources
//
// --list records every repository under DIR at its HEAD, except those with a passage in the
// checking half of the capture corpus (corpus.ts's split; a thread "owner/name#n" counts as its
// repository), so nothing the checking half says is in the vectors. Each source gives at most
// MESSAGES commit messages (the newest) and FILES documentation files, so that no one project's
// history dominates. FILE holds one document per \x1e: a commit message, or a paragraph of a file.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { git, gitDir, texts } from '../associations/public-text.ts';
import { loadCorpus, split } from './corpus.ts';

const MESSAGES = 20_000;
const FILES = 400;
const SOURCES = path.join(import.meta.dirname, 'w2v-sources.json');

const { values: opts } = parseArgs({ options: { 'git-dirs': { type: 'string' }, out: { type: 'string' }, list: { type: 'boolean', default: false } } });
const root = opts['git-dirs'];
if (!root || (!opts.out && !opts.list)) {
  console.error('w2v-text.ts: --git-dirs DIR and one of --out FILE or --list are required');
  process.exit(2);
}

if (opts.list) {
  const checking = new Set(split(loadCorpus()).checking.map((p) => p.group.split('#')[0]!.toLowerCase()));
  const repos = fs.readdirSync(root).filter((d) => d.includes('+')).map((d) => d.replace(/\.git$/, '').replace('+', '/')).sort();
  const excluded = repos.filter((r) => checking.has(r.toLowerCase()));
  const repositories = repos.filter((r) => !checking.has(r.toLowerCase())).map((repo) => ({ repo, commit: git(gitDir(root, repo), ['rev-parse', 'HEAD']).trim() }));
  const about = `Public text the capture model's word vectors are learned from by tools/capture-model/w2v-text.ts: each repository's commit messages (at most ${MESSAGES}, the newest; trailer lines and lines with an e-mail address left out) reachable from the commit named, and its Markdown, AsciiDoc and text files at that commit (at most ${FILES}, in path order). Left out: the repositories with a passage in the checking half of tools/capture-model/data.`;
  fs.writeFileSync(SOURCES, `${JSON.stringify({ about, excluded, repositories }, null, 2)}\n`);
  console.error(`${repositories.length} sources, ${excluded.length} left out (checking half): ${excluded.join(' ')}`);
} else {
  const { repositories } = JSON.parse(fs.readFileSync(SOURCES, 'utf8')) as { repositories: Array<{ repo: string; commit: string }> };
  const out = fs.openSync(opts.out!, 'w');
  for (const { repo, commit } of repositories) {
    let [messages, paragraphs, chars] = [0, 0, 0];
    const dir = gitDir(root, repo);
    // Messages come first, one document each (the log's split leaves one empty piece after them); a file is cut into paragraphs.
    const logPieces = Math.min(MESSAGES, Number(git(dir, ['rev-list', '--no-merges', '--count', commit]))) + 1;
    let n = 0;
    for (const text of texts(dir, commit, { messages: MESSAGES, files: FILES })) {
      const inFiles = n++ >= logPieces;
      const docs = inFiles ? text.split(/\n\s*\n/) : [text];
      if (!inFiles && text.trim()) messages++;
      for (const d of docs) {
        if (!d.trim()) continue;
        if (inFiles) paragraphs++;
        chars += d.length;
        fs.writeSync(out, `${d.replaceAll('\x1e', ' ')}\x1e`);
      }
    }
    console.error(`${repo}: ${messages} messages, ${paragraphs} paragraphs, ${(chars / 1e6).toFixed(1)} MB`);
  }
  fs.closeSync(out);
}
