#!/usr/bin/env bash
# Builds the npm package in pkg/: the wasm module (release, wasm-opt'd) with its web and
# Node (CommonJS) glue, and the JS API (pkg/src/) bundled as an ES and a CommonJS module.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

cargo build --quiet --release --target wasm32-unknown-unknown --lib
wasm=target/wasm32-unknown-unknown/release/chromafs.wasm
# Built aside and swapped in at the end, so a running process never sees half a package.
out=pkg/dist.new
rm -rf "$out"
wasm-bindgen --target web --out-dir $out/web --out-name chromafs_core "$wasm"
wasm-bindgen --target nodejs --out-dir $out/node --out-name chromafs_core "$wasm"
# The npm binaryen's wasm-opt (Debian's older one produces broken modules).
for f in $out/web/chromafs_core_bg.wasm $out/node/chromafs_core_bg.wasm; do
  node_modules/.bin/wasm-opt -Os --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-reference-types --enable-mutable-globals --enable-simd "$f" -o "$f"
done
# The sentence-embedding model's module (chromafs/embed, Node only): its own crate, kept
# out of the filesystem's module.
cargo build --quiet --release --target wasm32-unknown-unknown --manifest-path embed/Cargo.toml
wasm-bindgen --target nodejs --out-dir $out/embed --out-name chromafs_embed embed/target/wasm32-unknown-unknown/release/chromafs_embed.wasm
# One source for the helpers (pkg/src/, one module per job), two module formats: api.mjs and api.cjs.
node scripts/bundle-api.mjs $out
echo '{ "type": "module" }' > $out/web/package.json
echo '{ "type": "commonjs" }' > $out/node/package.json
# One copy of the module in the package: the CommonJS glue reads the web build's, which is
# the same bytes.
cmp -s $out/web/chromafs_core_bg.wasm $out/node/chromafs_core_bg.wasm
sed -i 's|`${__dirname}/chromafs_core_bg.wasm`|`${__dirname}/../web/chromafs_core_bg.wasm`|' $out/node/chromafs_core.js
grep -q '/../web/chromafs_core_bg.wasm' $out/node/chromafs_core.js
rm $out/node/chromafs_core_bg.wasm
echo '{ "type": "commonjs" }' > $out/embed/package.json
rm -f $out/*/.gitignore
rm -rf pkg/dist && mv $out pkg/dist
ls -l pkg/dist/web/chromafs_core_bg.wasm | awk '{print "chromafs_core_bg.wasm: " $5 " bytes"}'
