#!/usr/bin/env bash
# Runs every test: native unit tests, the wasm boundary in Node, the TypeScript types,
# and the Node suites against a real Chroma 1.5.9 started here on 127.0.0.1.
# Ends with one line: how many tests ran, passed, failed and were skipped, and why.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
step() { printf '\n== %s\n' "$*" >&2; }

LOG=$(mktemp "${TMPDIR:-/tmp}/chromafs-test-log-XXXXXX")
exec > >(tee "$LOG") 2> >(tee -a "$LOG" >&2)
PORT="" DATA=""
finish() {
  local status=$?
  [ -z "$PORT" ] || bash scripts/chroma.sh stop "$PORT"
  [ -z "$DATA" ] || rm -rf "$DATA"
  node scripts/tally.mjs "$LOG" >&2 || true
  rm -f "$LOG"
  exit $status
}
trap finish EXIT

bash scripts/setup.sh test
step "build the package"
bash scripts/build.sh

step "format and lints (rustfmt, clippy for the native and wasm32 targets)"
cargo fmt --check
cargo clippy --quiet --all-targets -- -D warnings
cargo clippy --quiet --all-targets --target wasm32-unknown-unknown -- -D warnings
cargo fmt --check --manifest-path embed/Cargo.toml
cargo clippy --quiet --target wasm32-unknown-unknown --manifest-path embed/Cargo.toml -- -D warnings
step "rustdoc: every intra-doc link resolves"
RUSTDOCFLAGS="-D warnings -A rustdoc::private_intra_doc_links" cargo doc --quiet --no-deps --document-private-items

step "native unit tests"
cargo test --quiet --lib

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DATA=$(mktemp -d "${TMPDIR:-/tmp}/chromafs-test-XXXXXX")
step "start Chroma on 127.0.0.1:$PORT"
bash scripts/chroma.sh start "$PORT" "$DATA"
export CHROMAFS_TEST_URL="http://127.0.0.1:$PORT"
# The shared-cache tests' Redis (scripts/redis.sh); without one they are skipped, and said so.
CHROMAFS_REDIS_SERVER=$(bash scripts/redis.sh path || true)
export CHROMAFS_REDIS_SERVER

step "wasm boundary tests (Node)"
cargo test --target wasm32-unknown-unknown --test node

step "TypeScript declarations"
tsc -p tests/types
tsc -p tests/types/tsconfig.mcp.json

step "Node tests (just-bash host, real Chroma)"
# The outer timeout guards against a hung server or runner.
node scripts/timeout.mjs 2400 node --test --test-timeout=1200000 tests/js/*/*.test.mjs bench/*/*.test.mjs

step "Deno and Bun (from npm) run the package against the same Chroma"
node tests/runtimes/seed.mjs "$CHROMAFS_TEST_URL"
.tools/runtimes/node_modules/.bin/deno run -A tests/runtimes/smoke.mjs "$CHROMAFS_TEST_URL" smoke
.tools/runtimes/node_modules/.bin/bun tests/runtimes/smoke.mjs "$CHROMAFS_TEST_URL" smoke

step "wasm-pack build: the crate built the standard Rust way runs the package's smoke test"
if [ "$(.tools/wasm-pack/bin/wasm-pack --version 2>/dev/null)" != "wasm-pack 0.15.1" ]; then
  cargo install --quiet wasm-pack --version 0.15.1 --locked --root .tools/wasm-pack
fi
.tools/wasm-pack/bin/wasm-pack --quiet build --release --target web --out-dir target/wasm-pack
node tests/runtimes/wasm-pack.mjs target/wasm-pack "$CHROMAFS_TEST_URL" smoke

step "Cloudflare Worker example (wrangler bundle in workerd)"
bash examples/cloudflare-worker/run-test.sh

step "Vercel Edge example (edge-runtime)"
bash examples/vercel-edge/run-test.sh

step "demo page in headless Chromium"
bash www/run-test.sh
