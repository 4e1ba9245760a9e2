#!/usr/bin/env bash
# Builds the npm package in pkg/: the wasm module (release, wasm-opt'd) with its web and
# Node (CommonJS) glue, and the CommonJS copy of the JS entry helpers.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

cargo build --quiet --release --target wasm32-unknown-unknown --lib
wasm=target/wasm32-unknown-unknown/release/chromafs.wasm
rm -rf pkg/dist
wasm-bindgen --target web --out-dir pkg/dist/web --out-name chromafs_core "$wasm"
wasm-bindgen --target nodejs --out-dir pkg/dist/node --out-name chromafs_core "$wasm"
# The npm binaryen's wasm-opt (Debian's older one produces broken modules).
for f in pkg/dist/web/chromafs_core_bg.wasm pkg/dist/node/chromafs_core_bg.wasm; do
  node_modules/.bin/wasm-opt -Os --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-reference-types --enable-mutable-globals "$f" -o "$f"
done
# One source for the helpers, two module formats: the last line's `export { … }` becomes module.exports.
sed -e 's/^export { \(.*\) };$/module.exports = { \1 };/' pkg/src/api.js > pkg/dist/api.cjs
grep -q '^module.exports' pkg/dist/api.cjs
cp pkg/src/api.js pkg/dist/api.mjs
ls -l pkg/dist/web/chromafs_core_bg.wasm | awk '{print "chromafs_core_bg.wasm: " $5 " bytes"}'
echo '{ "type": "module" }' > pkg/dist/web/package.json
echo '{ "type": "commonjs" }' > pkg/dist/node/package.json
rm -f pkg/dist/*/.gitignore
