#!/bin/sh
# Semantic and hybrid recall through the built binary with a generated test model,
# for CI's step that runs with node_modules moved away (the binary must carry
# onnxruntime itself). Needs node only to write the model (no packages).
# Usage: sh test/semantic-smoke.sh [binary]   (default: dist/git-mem)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "${1:-dist/git-mem}")" && pwd)/$(basename "${1:-dist/git-mem}")
[ -x "$bin" ] || { echo "no binary at $bin; run npm run build first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node "$here/helpers/tiny-model.mjs" "$work/model" tiny >/dev/null
mkdir "$work/bin" "$work/home" && ln -s "$bin" "$work/bin/git-mem"
PATH="$work/bin:$PATH"
export HOME="$work/home" GIT_MEM_MODEL_PATH="$work/model" GIT_MEM_MODEL_DOWNLOAD=false
export GIT_AUTHOR_NAME="Smoke" GIT_AUTHOR_EMAIL="smoke@example.com" GIT_COMMITTER_NAME="Smoke" GIT_COMMITTER_EMAIL="smoke@example.com"
cd "$work" && git init -q demo && cd demo && git commit -q --allow-empty -m init
git mem capture decisions "Use sql.js for the local index" -m "wasm runs everywhere" >/dev/null
git mem capture blockers "Flaky timeout in the sync tests" >/dev/null
for mode in semantic hybrid; do
  git mem recall --mode "$mode" "flaky sync tests" >"$work/out" 2>"$work/err"
  cat "$work/out"
  if [ -s "$work/err" ]; then echo "recall --mode $mode printed on stderr:" >&2; cat "$work/err" >&2; exit 1; fi
  grep -q "Flaky timeout" "$work/out" || { echo "recall --mode $mode did not find the memory" >&2; exit 1; }
done
echo "semantic smoke test: ok"
