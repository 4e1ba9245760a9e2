#!/usr/bin/env bash
# The demo: installs what is needed, starts a local Chroma on 127.0.0.1, ingests the
# project's own docs (or --docs DIR) and opens a chromafs shell on them.
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

bash scripts/setup.sh
bash scripts/build.sh >/dev/null

url="http://127.0.0.1:$port"
if curl -fsS "$url/api/v2/heartbeat" >/dev/null 2>&1; then
  echo "using the Chroma already running at $url" >&2
else
  bash scripts/chroma.sh start "$port" .chroma/demo-data
  trap 'bash scripts/chroma.sh stop "$port"' EXIT
  echo "Chroma 1.5.9 is serving $url (data in .chroma/demo-data)" >&2
fi

collection=chromafs-docs
[ "$docs" = docs ] || collection=demo-$(basename "$(cd "$docs" && pwd)" | tr -c 'a-zA-Z0-9._-\n' '-')
node pkg/bin/chromafs.mjs ingest "$docs" --url "$url" --collection "$collection" ${access:+--access "$access"}

cat >&2 <<MSG

Try: ls -R /   cat /index.md   grep -rn cache /concepts   tree /
The internal pages appear with:  npm run demo -- --groups admin   (or billing, oncall)
MSG
node pkg/bin/chromafs.mjs shell --url "$url" --collection "$collection" ${groups:+--groups "$groups"}
