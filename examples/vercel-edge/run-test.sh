#!/usr/bin/env bash
# Installs the pinned dependencies and runs the end-to-end test (test.mjs) under a hard
# time limit. Set CHROMAFS_TEST_URL to use a running Chroma instead of starting one.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
node ../../scripts/timeout.mjs 600 node --test --test-timeout=120000 --test-reporter=spec test.mjs
