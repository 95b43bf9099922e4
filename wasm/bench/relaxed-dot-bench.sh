#!/usr/bin/env bash
# Builds relaxed-dot-bench.c with ggml's arch/wasm/quants.c from the sdist wasm/build.sh fetched (relaxed SIMD
# off for ggml's file, on for ours) with Debian's clang 19 (apt-get install clang-19 lld-19), links them with
# wasm-ld alone (no emscripten link step: Debian's binaryen 108 breaks the relaxed dot, wasm/README.md), and
# runs them in Node.
#   wasm/bench/relaxed-dot-bench.sh [llama.cpp dir]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inpage-agent/wasm-build}"
LLAMA="${1:-$CACHE/llama-cpp-python-0.3.36/vendor/llama.cpp}"
OUT="$CACHE/relaxed-dot-bench"
SYSROOT=/usr/share/emscripten/cache/sysroot
mkdir -p "$OUT"
CC=(clang-19 --target=wasm32-unknown-emscripten --sysroot="$SYSROOT" -O3 -DNDEBUG -msimd128 -mbulk-memory
  -I"$LLAMA/ggml/include" -I"$LLAMA/ggml/src" -I"$LLAMA/ggml/src/ggml-cpu" -I"$HERE/../glue")
"${CC[@]}" -c "$LLAMA/ggml/src/ggml-cpu/arch/wasm/quants.c" -o "$OUT/quants.o"
"${CC[@]}" -mrelaxed-simd -c "$HERE/relaxed-dot-bench.c" -o "$OUT/bench.o"
wasm-ld-19 --no-entry --allow-undefined --export=bench -z stack-size=1048576 "$OUT/quants.o" "$OUT/bench.o" \
  -o "$OUT/bench.wasm"
node "$HERE/run-relaxed-dot-bench.mjs" "$OUT/bench.wasm"
