#!/usr/bin/env bash
# End-to-end test of the demo page in headless Chromium: installs Chromium (Debian's) when
# it is missing, installs the page's npm packages, bundles the page and runs test.mjs.
# Uses the Chroma at $CHROMAFS_TEST_URL when set, else starts one with ../scripts/chroma.sh.
# Needs the package built first (bash scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")"

if [ ! -x /usr/bin/chromium ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "installing Debian's chromium" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
if [ ! -f ../pkg/dist/web/chromafs_core_bg.wasm ]; then
  echo "run-test.sh: ../pkg/dist is missing; build the package first (bash scripts/build.sh)" >&2
  exit 1
fi

npm ci --no-audit --no-fund --loglevel=error
node build.mjs
# The outer timeout guards against a hung browser, server or Chroma.
node ../scripts/timeout.mjs 600 node --test --test-timeout=300000 test.mjs
