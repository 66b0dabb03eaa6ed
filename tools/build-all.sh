#!/bin/sh
# Builds git-mem for every release target with Bun's cross-compiler:
#   npm run build:all                          -> dist/<target>/git-mem[.exe]
#   TARGETS="linux-x64 darwin-arm64" npm run build:all
# Bun fetches each target's runtime on first use (from the npm registry, then cached);
# offline, only the host's target builds.
set -eu
cd "$(dirname "$0")/.."
bun=node_modules/.bin/bun
targets=${TARGETS:-linux-x64 linux-arm64 darwin-x64 darwin-arm64 windows-x64}
failed=
for target in $targets; do
  ext=
  case $target in windows-*) ext=.exe ;; esac
  out=dist/$target/git-mem$ext
  if "$bun" build src/main.ts --compile --bytecode --format=esm --minify --splitting --target="bun-$target" --outfile "$out" >/dev/null; then
    echo "built $out ($(wc -c <"$out" | awk '{printf "%.0f MB", $1 / 1048576}'))"
  else
    echo "FAILED $target" >&2
    failed="$failed $target"
  fi
done
[ -z "$failed" ] || { echo "targets that did not build:$failed" >&2; exit 1; }
