#!/usr/bin/env bash
# Builds llama.cpp for the browser with our sequence-state actions, from registry packages only:
#   - llama.cpp: the source PyPI's llama-cpp-python sdist vendors (pinned below by version and SHA-256);
#   - the C++ glue: wllama's npm package (its CMakeLists.txt and cpp/), patched by wasm/patch-glue.mjs;
#   - the toolchain: Debian's emscripten (apt-get install emscripten; 3.1.6 with clang 14 on Debian 12).
# Debian's emscripten has no JSPI and no 64-bit memory for threads, so this is wllama's "compat" kind of
# build: 32-bit memory, Asyncify for the file reads, JavaScript exceptions.
#
#   wasm/build.sh                 # output: $OUT/wllama.js and $OUT/wllama.wasm
#   EXTRA_FLAGS="-mrelaxed-simd" wasm/build.sh   # a variant (see wasm/README.md)
#
# Everything fetched or built stays outside the repository, under $CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/inpage-agent/wasm-build). A full build takes long: about an hour of one core.
set -euo pipefail

LLAMA_CPP_PYTHON=0.3.36
LLAMA_CPP_PYTHON_SHA256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e
WLLAMA=3.8.1
WLLAMA_SHA1=e0353359cbfa3d93c844bf5787914bfedc1190cb

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inpage-agent/wasm-build}"
VARIANT="${VARIANT:-default}"
WORK="${WORK:-$CACHE/work-$VARIANT}"
OUT="${OUT:-$CACHE/out-$VARIANT}"
EXTRA_FLAGS="${EXTRA_FLAGS:-}"
JOBS="${JOBS:-2}"
mkdir -p "$CACHE/downloads" "$WORK" "$OUT"

command -v emcc >/dev/null || { echo "emcc missing: apt-get install -y emscripten" >&2; exit 1; }
# Debian's emscripten runs its JavaScript optimizer with the system acorn (node-acorn), which a Node
# installed from elsewhere does not look for.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"

sdist="$CACHE/downloads/llama_cpp_python-$LLAMA_CPP_PYTHON.tar.gz"
if [ ! -f "$sdist" ]; then
  pip download --no-deps --no-binary :all: -d "$CACHE/downloads" "llama-cpp-python==$LLAMA_CPP_PYTHON"
fi
echo "$LLAMA_CPP_PYTHON_SHA256  $sdist" | sha256sum -c -

tarball="$CACHE/downloads/wllama-wllama-$WLLAMA.tgz"
if [ ! -f "$tarball" ]; then
  (cd "$CACHE/downloads" && npm pack "@wllama/wllama@$WLLAMA" >/dev/null)
fi
echo "$WLLAMA_SHA1  $tarball" | sha1sum -c -

src="$CACHE/llama-cpp-python-$LLAMA_CPP_PYTHON"
if [ ! -d "$src/vendor/llama.cpp" ]; then
  mkdir -p "$src"
  tar xzf "$sdist" -C "$src" --strip-components=1
  # The sdist keeps the submodule's .git pointer, which leads nowhere outside its repository.
  rm -f "$src/vendor/llama.cpp/.git"
fi

# The glue: wllama's files, copied only when they changed so that ninja rebuilds only what it must.
glue="$CACHE/wllama-$WLLAMA"
if [ ! -d "$glue/package" ]; then
  mkdir -p "$glue" && tar xzf "$tarball" -C "$glue"
fi
mkdir -p "$WORK/cpp"
cp -u "$glue/package/CMakeLists.txt" "$WORK/CMakeLists.txt"
cp -u "$glue/package/cpp/"*.h "$glue/package/cpp/"*.hpp "$glue/package/cpp/"*.cpp "$WORK/cpp/"
ln -sfn "$src/vendor/llama.cpp" "$WORK/llama.cpp"
node "$HERE/patch-glue.mjs" "$WORK"

mkdir -p "$WORK/build"
cd "$WORK/build"
emcmake cmake .. -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DWLLAMA_COMPAT=ON -DLLAMA_WASM_MEM64=OFF -DGGML_WEBGPU=OFF -DLLAMA_CURL=OFF -DLLAMA_BUILD_HTML=OFF \
  -DCMAKE_C_FLAGS="$EXTRA_FLAGS" -DCMAKE_CXX_FLAGS="$EXTRA_FLAGS" >cmake.log
ninja -j"$JOBS" wllama
cp wllama.js wllama.wasm "$OUT/"
ls -l "$OUT"
