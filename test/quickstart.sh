#!/bin/sh
# The Quick start's main job: use the built binary, as `git mem`, on a real repository, and show
# what it is for: an agent's memory captured, found again, expanded, and injected into a session.
# Usage: sh test/quickstart.sh [binary]   (default: dist/git-mem)
set -eu
bin=$(cd "$(dirname "${1:-dist/git-mem}")" && pwd)/$(basename "${1:-dist/git-mem}")
[ -x "$bin" ] || { echo "no binary at $bin; run npm run build first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" && ln -s "$bin" "$work/bin/git-mem"
PATH="$work/bin:$PATH"
export GIT_AUTHOR_NAME="Quick Start" GIT_AUTHOR_EMAIL="quick@example.com" GIT_COMMITTER_NAME="Quick Start" GIT_COMMITTER_EMAIL="quick@example.com"
# Lexical recall: the quick start needs no embedding model and no network.
export GIT_MEM_RECALL_MODE=lexical
step() { printf '\n\033[1m== %s\033[0m\n' "$1"; }
cd "$work" && git init -q demo && cd demo
printf 'import sqlite3\n\ndef save(note):\n    pass\n' > store.py && git add store.py && git commit -qm "Add the note store"

step "1. Capture what the agent decided and learned (attached to HEAD, as git notes)"
set -x
git mem --version
git mem init --no-git-hooks
id=$(git mem capture decisions "Store agent memory in git notes" -m "Notes travel with the repository; the index is a rebuildable cache." --tags storage,git)
git mem capture learnings "sql.js ships FTS4 but not FTS5" --tags sqlite
git mem capture blockers "Model download needs network" --status resolved
git mem list
{ set +x; } 2>/dev/null

step "2. Find it again, in your own words (summaries first: cheap in tokens)"
set -x
git mem recall "where do we keep the agent's memory"
{ set +x; } 2>/dev/null

step "3. Expand one memory: its body and the commit it is about"
set -x
git mem hydrate "$id"
{ set +x; } 2>/dev/null

step "4. What Claude Code receives at session start (the SessionStart hook)"
set -x
printf '{"session_id":"quickstart","hook_event_name":"SessionStart","source":"startup","cwd":"%s","transcript_path":""}' "$PWD" | git mem hook SessionStart > hook.json
{ set +x; } 2>/dev/null
# The hook answers JSON; this is the context it carries, as the model reads it.
node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).hookSpecificOutput.additionalContext)' hook.json

step "5. It is all plain git"
set -x
git notes --ref=refs/notes/mem/decisions show HEAD
{ set +x; } 2>/dev/null
