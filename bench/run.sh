#!/usr/bin/env bash
# Builds the package, starts a fresh local Chroma and runs the benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh >/dev/null
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DATA=$(mktemp -d "${TMPDIR:-/tmp}/chromafs-bench-XXXXXX")
bash scripts/chroma.sh start "$PORT" "$DATA"
trap 'bash scripts/chroma.sh stop "$PORT"; rm -rf "$DATA"' EXIT
node bench/read-path.mjs --url "http://127.0.0.1:$PORT"
node bench/sessions.mjs --url "http://127.0.0.1:$PORT"
# Starts a Chroma of its own for each size.
node bench/scale.mjs
node bench/native.mjs
# Each starts a Chroma of its own per size. connect.mjs goes to 50,000 pages (cut to their
# first lines: a connect reads only the tree); agent-session.mjs to 10,000 (add 50000 to
# --sizes for the largest set, whose writing takes several minutes).
node bench/connect.mjs
node bench/agent-session.mjs --check
node bench/process-tier.mjs --url "http://127.0.0.1:$PORT"
node bench/other-tools.mjs --url "http://127.0.0.1:$PORT" --sizes 1142,10000
node bench/embed.mjs
# Starts its own Chroma on .chroma/bench-quality: the corpus embedded once (about 25 minutes
# on one core) is kept there for the next runs.
node bench/search-quality.mjs
bash bench/wasm-size.sh
