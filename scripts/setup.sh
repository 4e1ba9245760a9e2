#!/usr/bin/env bash
# Installs what building and testing need; every step is skipped when already in place.
# Needs: rustup/cargo, Node >= 20.18 with npm, python3 (for the local Chroma server).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n== %s\n' "$*" >&2; }

for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    step "rustup component add $component"
    rustup component add "$component"
  fi
done

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen's CLI must match the crate version in Cargo.lock exactly.
want=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ] || ! command -v wasm-bindgen-test-runner >/dev/null; then
  step "cargo install wasm-bindgen-cli $want (a few minutes, once)"
  # Not --locked: the CLI's own lock file pins a webpki-roots release the registry may not serve.
  cargo install wasm-bindgen-cli --version "$want" --force
fi

if [ ! -d node_modules/just-bash ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "npm ci"
  npm ci --no-audit --no-fund
fi

if ! command -v redis-server >/dev/null; then
  step "apt-get install redis-server (the shared-cache tests run a real one)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
fi

# Debian's python3 creates virtual environments only with python3-venv installed.
if [ ! -x .chroma/venv/bin/python ] && ! python3 -c "import ensurepip, venv" 2>/dev/null && command -v apt-get >/dev/null; then
  step "apt-get install python3-venv (for Chroma's virtual environment)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
fi

bash scripts/chroma.sh install

# Deno and Bun, from the npm registry, for the runtime smoke tests. Installed beside the
# workspace rather than in its lock file: the registry may not serve every platform's
# binary package, which a lock file would have to list.
if [ ! -x .tools/runtimes/node_modules/.bin/deno ] || [ ! -x .tools/runtimes/node_modules/.bin/bun ]; then
  step "npm install deno bun (for their smoke tests)"
  mkdir -p .tools/runtimes
  npm install --prefix .tools/runtimes --no-save --no-package-lock --no-audit --no-fund deno@2.9.6 bun@1.4.5
fi

# The sentence-embedding model that ranked search and `ingest --embed` run (83 MB, once).
bash scripts/model.sh
