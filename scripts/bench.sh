#!/usr/bin/env bash
# Builds the package, runs every benchmark and rebuilds BENCHMARKS.md from their results:
#   npm run bench                    1,142 and 10,000 pages (connects up to 50,000); about 90 min
#   npm run bench -- --large         and the 50,000-page runs (several hours)
#   npm run bench -- --only NAME     one benchmark (read-path, sessions, native, scale, connect,
#                                    agent-session, process-tier, other-tools, shapes, embed,
#                                    embed-service,
#                                    search-quality, mcp-limits, oauth, wasm-size), then the report
#   npm run bench -- --no-build      measure the package as it is built (no set-up, no build)
# Each benchmark writes bench/results/*/*.json; `node bench/report/report.mjs` alone rebuilds
# BENCHMARKS.md from those files and bench/report/BENCHMARKS.in.md.
set -euo pipefail
cd "$(dirname "$0")/.."
LARGE=0
ONLY=""
BUILD=1
while [ $# -gt 0 ]; do
  case "$1" in
    --large) LARGE=1 ;;
    --only) ONLY="$2"; shift ;;
    --no-build) BUILD=0 ;;
    *) echo "usage: npm run bench -- [--large] [--only NAME] [--no-build]" >&2; exit 2 ;;
  esac
  shift
done
want() { [ -z "$ONLY" ] || [ "$ONLY" = "$1" ]; }

if [ $BUILD = 1 ]; then
  bash scripts/setup.sh
  bash scripts/build.sh >/dev/null
fi
# One server for the benchmarks that share one; the others start a Chroma of their own per size.
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DATA=$(mktemp -d "${TMPDIR:-/tmp}/chromafs-bench-XXXXXX")
bash scripts/chroma.sh start "$PORT" "$DATA"
trap 'bash scripts/chroma.sh stop "$PORT"; rm -rf "$DATA"' EXIT
URL="http://127.0.0.1:$PORT"

if want read-path; then node bench/read-path.mjs --url "$URL"; fi
if want sessions; then node bench/sessions.mjs --url "$URL"; fi
if want native; then
  node bench/native.mjs --sizes 1142,10000 --runs 3
  # At 50,000 pages one run per cell.
  if [ $LARGE = 1 ]; then node bench/native.mjs --sizes 50000 --runs 1; fi
fi
if want scale; then
  node bench/scale.mjs --sizes 1142,10000 --runs 3
  if [ $LARGE = 1 ]; then node bench/scale.mjs --sizes 50000 --runs 1; fi
fi
if want connect; then node bench/connect.mjs --sizes 1142,10000,50000 --runs 7; fi
if want agent-session; then node bench/agent-session.mjs --sizes "1142,10000$([ $LARGE = 1 ] && echo ,50000)" --check; fi
if want process-tier; then node bench/process-tier.mjs --sizes 1142,10000; fi
if want other-tools; then node bench/other-tools.mjs --url "$URL" --sizes 1142,10000; fi
if want shapes; then node bench/shapes.mjs --sizes "10000$([ $LARGE = 1 ] && echo ,50000)"; fi
if want embed; then node bench/embed.mjs; fi
if want embed-service; then node bench/embed-service.mjs; fi
# Starts its own Chroma on .chroma/bench-quality: the corpus embedded once (about 25 minutes
# on one core) is kept there for the next runs.
if want search-quality; then node bench/search-quality.mjs; fi
if want mcp-limits; then node bench/mcp-limits.mjs; fi
if want oauth; then node bench/oauth.mjs; fi
if want wasm-size; then node bench/wasm-size.mjs; fi
node bench/report/report.mjs
