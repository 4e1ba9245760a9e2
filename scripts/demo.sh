#!/usr/bin/env bash
# The demo: installs what is needed, starts a local Chroma on 127.0.0.1, ingests the
# project's own docs (or --docs DIR), serves the demo page and opens a chromafs shell on them.
#   npm run demo [-- --docs DIR] [--access FILE] [--groups a,b] [--port N]
set -euo pipefail
cd "$(dirname "$0")/.."

docs=docs access=docs-access.json groups="" port=${CHROMAFS_DEMO_PORT:-8000}
while [ $# -gt 0 ]; do
  case "$1" in
    --docs) docs=$2; access=""; shift 2 ;;
    --access) access=$2; shift 2 ;;
    --groups) groups=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
    *) echo "demo: unknown option $1" >&2; exit 2 ;;
  esac
done

bash scripts/setup.sh demo
bash scripts/build.sh >/dev/null

url="http://127.0.0.1:$port"
page_pid="" chroma_started=""
cleanup() {
  [ -z "$page_pid" ] || kill "$page_pid" 2>/dev/null || true
  [ -z "$chroma_started" ] || bash scripts/chroma.sh stop "$port"
}
trap cleanup EXIT
if bash scripts/chroma.sh up "$port"; then
  echo "using the Chroma already running at $url" >&2
else
  bash scripts/chroma.sh start "$port" .chroma/demo-data
  chroma_started=1
  echo "Chroma 1.5.9 is serving $url (data in .chroma/demo-data)" >&2
fi

collection=chromafs-docs
[ "$docs" = docs ] || collection=demo-$(basename "$(cd "$docs" && pwd)" | tr -c 'a-zA-Z0-9._-\n' '-')
# --embed: the built-in model embeds the chunks, so `search` ranks by meaning too.
node pkg/bin/chromafs.mjs ingest "$docs" --url "$url" --collection "$collection" ${access:+--access "$access"} --embed

# The demo page: the same docs in a browser tab, served beside the shell.
page_port=${CHROMAFS_PAGE_PORT:-8080}
[ www/node_modules/.package-lock.json -nt www/package-lock.json ] || (cd www && npm ci --no-audit --no-fund --loglevel=error)
node www/build.mjs >/dev/null
node www/server.mjs --port "$page_port" --chroma "$url" --collection "$collection" >.chroma/page-server.log 2>&1 &
page_pid=$!
page_url=""
for _ in $(seq 1 50); do
  page_url=$(sed -n 's/^chromafs demo page: //p' .chroma/page-server.log)
  if [ -n "$page_url" ] || ! kill -0 "$page_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -n "$page_url" ]; then
  echo "The same docs in your browser (just-bash and chromafs running in the page): $page_url" >&2
else
  echo "the demo page did not start: $(tail -1 .chroma/page-server.log)" >&2
fi

cat >&2 <<MSG

Try: ls -R /   cat /index.md   grep -rn cache /concepts   tree /
     search how are hidden pages kept out of results
The internal pages appear with:  npm run demo -- --groups admin   (or billing, oncall)
MSG
node pkg/bin/chromafs.mjs shell --url "$url" --collection "$collection" ${groups:+--groups "$groups"}
