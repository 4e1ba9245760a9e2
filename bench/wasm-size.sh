#!/usr/bin/env bash
# The wasm module's size three ways: as wasm-bindgen writes it, after wasm-opt (what the
# package ships), and that gzipped (what an edge bundle pays). Run after scripts/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wasm-bindgen --target web --out-dir "$tmp" --out-name raw target/wasm32-unknown-unknown/release/chromafs.wasm
opt=pkg/dist/web/chromafs_core_bg.wasm
echo "raw (wasm-bindgen): $(stat -c %s "$tmp/raw_bg.wasm") B"
echo "after wasm-opt:     $(stat -c %s "$opt") B"
echo "gzipped (-9):       $(gzip -9c "$opt" | wc -c) B"
