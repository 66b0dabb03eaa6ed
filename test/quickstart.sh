#!/bin/sh
# The Quick start's main job: use the built binary, as `git mem`, on a real repository.
# Usage: sh test/quickstart.sh [binary]   (default: dist/git-mem)
set -eu
bin=$(cd "$(dirname "${1:-dist/git-mem}")" && pwd)/$(basename "${1:-dist/git-mem}")
[ -x "$bin" ] || { echo "no binary at $bin; run npm run build first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" && ln -s "$bin" "$work/bin/git-mem"
PATH="$work/bin:$PATH"
export GIT_AUTHOR_NAME="Quick Start" GIT_AUTHOR_EMAIL="quick@example.com" GIT_COMMITTER_NAME="Quick Start" GIT_COMMITTER_EMAIL="quick@example.com"
cd "$work" && git init -q demo && cd demo
echo "print('hello')" > app.py && git add app.py && git commit -qm "Add app"
set -x
git mem --version
git mem capture decisions "Store agent memory in git notes" -m "Notes travel with the repository; the index is a rebuildable cache." --tags storage,git
git mem capture learnings "sql.js ships FTS4 but not FTS5" --tags sqlite
git mem capture blockers "Model download needs network" --status resolved
git mem list
git mem namespaces
git notes --ref=refs/notes/mem/decisions show HEAD
{ set +x; } 2>/dev/null
