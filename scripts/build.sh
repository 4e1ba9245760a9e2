#!/usr/bin/env bash
# Builds the npm package in pkg/: the wasm modules (release, wasm-opt'd) with their web and
# Node (CommonJS) glue, and the JS API (pkg/src/) bundled as an ES and a CommonJS module.
# Installs the toolchain it needs first (scripts/setup.sh build), so it works as the first
# command on a fresh clone.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
bash scripts/setup.sh build

# Four modules from one crate (Cargo.toml's features): the filesystem, which every host
# loads; the writer (ingest, annotate), which the package loads only when it is called; the
# tools (head, sort, sed, awk, diff…), loaded the first time one of them runs; and grep -P's
# backtracking engine, loaded the first time a pattern needs lookaround, backreferences or \K.
out=pkg/dist.new
rm -rf "$out"
for side in core:read write:write tools:tools perl:perl; do
  name=chromafs_${side%%:*}
  cargo build --quiet --release --target wasm32-unknown-unknown --lib --no-default-features --features "${side#*:}"
  wasm=target/wasm32-unknown-unknown/release/$name.wasm
  cp target/wasm32-unknown-unknown/release/chromafs.wasm "$wasm"
  wasm-bindgen --target web --out-dir $out/web --out-name $name "$wasm"
  wasm-bindgen --target nodejs --out-dir $out/node --out-name $name "$wasm"
  # The npm binaryen's wasm-opt (Debian's older one produces broken modules).
  # -Oz: about 8 KB smaller than -Os on the core module.
  node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-reference-types --enable-mutable-globals --enable-simd $out/web/${name}_bg.wasm -o $out/web/${name}_bg.wasm
  # One copy of each module in the package: the CommonJS glue reads the web build's, which
  # is the same module before wasm-opt.
  node -e '
    const [file, name] = process.argv.slice(1);
    const fs = require("fs");
    const from = "`${__dirname}/" + name + "_bg.wasm`";
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes(from)) throw new Error(file + ": the glue no longer names " + from);
    fs.writeFileSync(file, text.replace(from, "`${__dirname}/../web/" + name + "_bg.wasm`"));
  ' "$out/node/$name.js" "$name"
  rm $out/node/${name}_bg.wasm
done
# The sentence-embedding model's module (chromafs/embed, Node only): its own crate, kept
# out of the filesystem's module.
cargo build --quiet --release --target wasm32-unknown-unknown --manifest-path embed/Cargo.toml
wasm-bindgen --target nodejs --out-dir $out/embed --out-name chromafs_embed embed/target/wasm32-unknown-unknown/release/chromafs_embed.wasm
# One source for the helpers (pkg/src/, one module per job), two module formats: api.mjs and api.cjs.
node scripts/bundle-api.mjs $out
echo '{ "type": "module" }' > $out/web/package.json
echo '{ "type": "commonjs" }' > $out/node/package.json
echo '{ "type": "commonjs" }' > $out/embed/package.json
rm -f $out/*/.gitignore
rm -rf pkg/dist && mv $out pkg/dist
ls -l pkg/dist/web/*_bg.wasm | awk '{sub(".*/", "", $9); print $9 ": " $5 " bytes"}'
