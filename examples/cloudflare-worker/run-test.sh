#!/usr/bin/env bash
# The Cloudflare Worker example end to end: install, bundle with wrangler, run the bundle in
# workerd (Miniflare) against a real Chroma. Uses $CHROMAFS_TEST_URL when set, else starts
# a local Chroma 1.5.9 itself.
set -euo pipefail
cd "$(dirname "$0")"
export WRANGLER_SEND_METRICS=false

# chromafs is installed from ../../pkg, which exists only once the package is built.
if [ ! -f ../../pkg/dist/api.mjs ]; then
  (cd ../.. && bash scripts/setup.sh && bash scripts/build.sh)
fi

if [ ! -f package-lock.json ]; then
  npm install --no-audit --no-fund
elif [ ! -d node_modules/wrangler ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

# The outer timeout: a Miniflare that failed to start can otherwise hang the runner.
node ../../scripts/timeout.mjs 600 node --test --test-timeout=300000 test.mjs
