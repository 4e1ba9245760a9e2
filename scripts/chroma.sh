#!/usr/bin/env bash
# A local Chroma 1.5.9 on 127.0.0.1 for the demo and the tests.
#   scripts/chroma.sh install          install the server into .chroma/venv (once)
#   scripts/chroma.sh start PORT DIR   start it in the background with data in DIR; waits until ready
#   scripts/chroma.sh stop PORT        stop the server started on PORT
#   scripts/chroma.sh up PORT          exit 0 when a Chroma answers on 127.0.0.1:PORT
# Needs python3 only: Chroma goes into a virtual environment, or, where Python cannot make
# one (Debian without python3-venv), into a directory of its own; no root either way.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.chroma/venv
SITE=.chroma/site
VERSION=1.5.9
# shellcheck source=scripts/python.sh
. scripts/python.sh

# The Python that runs the server, with Chroma importable.
python_with_chroma() {
  if [ -x "$VENV/bin/python" ]; then
    echo "$VENV/bin/python"
  else
    echo "env PYTHONPATH=$SITE python3"
  fi
}

installed() {
  # shellcheck disable=SC2046
  $(python_with_chroma) -c "import sys, chromadb_rust_bindings, importlib.metadata as m; sys.exit(m.version('chromadb') != sys.argv[1])" "$VERSION" 2>/dev/null
}

install() {
  installed && return
  # The server is the Rust binary inside the wheel; the Python client's dependencies are not needed.
  if [ -x "$VENV/bin/python" ] || python3 -c "import ensurepip, venv" 2>/dev/null; then
    echo "installing Chroma $VERSION into $VENV" >&2
    [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps "chromadb==$VERSION"
  else
    echo "installing Chroma $VERSION into $SITE (python3 cannot make a virtual environment)" >&2
    pip_install --no-deps --target "$SITE" "chromadb==$VERSION"
  fi
}

# Whether Chroma answers its heartbeat on 127.0.0.1:PORT (no proxy, two seconds at most).
up() {
  python3 -c "import sys, urllib.request as u; u.build_opener(u.ProxyHandler({})).open(sys.argv[1], timeout=2).read()" \
    "http://127.0.0.1:$1/api/v2/heartbeat" >/dev/null 2>&1
}

start() {
  local port=$1 dir=$2
  install
  mkdir -p "$dir" .chroma
  if up "$port"; then
    echo "port $port is already serving; stop it first (scripts/chroma.sh stop $port)" >&2
    return 1
  fi
  # shellcheck disable=SC2046
  $(python_with_chroma) -c "import sys, chromadb_rust_bindings as b; b.cli(['chroma','run','--path',sys.argv[1],'--host','127.0.0.1','--port',sys.argv[2]])" \
    "$dir" "$port" > ".chroma/server-$port.log" 2>&1 &
  echo $! > ".chroma/server-$port.pid"
  for _ in $(seq 1 300); do
    up "$port" && return 0
    kill -0 "$(cat ".chroma/server-$port.pid")" 2>/dev/null || { tail -20 ".chroma/server-$port.log" >&2; return 1; }
    sleep 0.1
  done
  echo "Chroma did not become ready on port $port" >&2
  return 1
}

stop() {
  local pidfile=".chroma/server-$1.pid"
  [ -f "$pidfile" ] || return 0
  local pid; pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$pidfile"
}

case "${1:-}" in
  install) install ;;
  start) start "$2" "$3" ;;
  stop) stop "$2" ;;
  up) up "$2" ;;
  *) echo "usage: $0 install | start PORT DIR | stop PORT | up PORT" >&2; exit 2 ;;
esac
