#!/bin/sh
# `npm install -g` of the packed package gives a working git-mem, also where
# github.com is out of reach (sharp, a dependency of the optional
# @xenova/transformers, then fails to download libvips and npm leaves both out).
# Installs into a temporary prefix; uses the npm registry only.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npm pack --silent --pack-destination "$tmp" "$root" >/dev/null
npm install -g --silent --no-audit --no-fund --prefix "$tmp/prefix" "$tmp"/git-mem-*.tgz >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
PATH="$tmp/prefix/bin:$PATH"
export PATH
command -v git-mem | grep -q "^$tmp/prefix/bin/git-mem$"
git-mem --version | grep -q '^git-mem '
git init -q "$tmp/repo"
cd "$tmp/repo"
git -c user.name=t -c user.email=t@example.com commit -q --allow-empty -m init
git mem capture decisions "Installed with npm, the package works" >/dev/null
git mem recall --mode lexical installed npm | grep -q 'Installed with npm, the package works'
git mem list | grep -q 'Installed with npm'
echo "npm install -g: git-mem $(git-mem --version | cut -d' ' -f2) works from $tmp/prefix"
