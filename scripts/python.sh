#!/usr/bin/env bash
# Sourced by the scripts that install Python packages: `pip_install ARGS…` and
# `pip_download ARGS…` with the first pip that works, none needing root: Chroma's virtual
# environment's, the system Python's, or pip itself fetched from PyPI as a wheel (which
# Python runs from the zip), for a Python without pip or venv (Debian without python3-pip
# or python3-venv).

# A command that runs pip, installing nothing system-wide.
pip_command() {
  if [ -x .chroma/venv/bin/python ]; then
    echo ".chroma/venv/bin/python -m pip"
  elif python3 -m pip --version >/dev/null 2>&1; then
    echo "python3 -m pip"
  else
    local wheel=.tools/pip/pip.whl
    if [ ! -f "$wheel" ]; then
      mkdir -p .tools/pip
      python3 - "$wheel" <<'PY'
import json, sys, urllib.parse, urllib.request
api = "https://pypi.org/pypi/pip/json"
meta = json.load(urllib.request.urlopen(api, timeout=60))
wheel = next(f for f in meta["urls"] if f["filename"].endswith("-py3-none-any.whl"))
# A mirror may answer with addresses relative to the API's.
urllib.request.urlretrieve(urllib.parse.urljoin(api, wheel["url"]), sys.argv[1])
PY
    fi
    echo "python3 $wheel/pip"
  fi
}

pip_install() {
  # shellcheck disable=SC2046
  $(pip_command) install --quiet --disable-pip-version-check --root-user-action=ignore "$@"
}

pip_download() {
  # shellcheck disable=SC2046
  $(pip_command) download --quiet --disable-pip-version-check "$@"
}
