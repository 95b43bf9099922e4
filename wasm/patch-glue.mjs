// Turns wllama's published C++ glue (its npm package's CMakeLists.txt and cpp/) into the glue this build
// compiles: llama.cpp from PyPI's llama-cpp-python sdist (which predates server-decision), C++17 for Debian's
// clang, and our sequence-state actions beside wllama's own. Each edit names the line it expects, and the script
// stops if that line is missing, so a different wllama version fails loudly instead of building something else.
//
//   node wasm/patch-glue.mjs <dir holding CMakeLists.txt, cpp/ and llama.cpp/>
import { readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { resolve } from 'node:path';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node wasm/patch-glue.mjs <glue dir>');
const ours = resolve(import.meta.dirname, 'glue');

function edit(file, edits) {
  const path = resolve(dir, file);
  let text = readFileSync(path, 'utf8');
  for (const [anchor, replace] of edits) {
    const replaced = replace(anchor);
    const applied = replaced === '' ? !text.includes(anchor) : text.includes(replaced);
    if (applied) continue;
    if (!text.includes(anchor)) throw new Error(`${file}: expected to find ${JSON.stringify(anchor)}`);
    text = text.replace(anchor, replaced);
  }
  writeFileSync(path, text);
}

edit('CMakeLists.txt', [
  ['project("wllama")', (a) => `${a}\nset(CMAKE_CXX_STANDARD 17)\nset(CMAKE_CXX_STANDARD_REQUIRED ON)`],
  ['    llama.cpp/tools/server/server-decision.cpp\n', () => ''],
]);
edit('cpp/wllama.cpp', [
  ['#include "wllama.h"\n', (a) => `${a}#include "wllama-state.h"\n`],
  [
    '    WLLAMA_ACTION(test_backend_ops)\n',
    (a) =>
      `${a}    else if (action == "state_save")\n      wllama_state::save(app, output_buffer);\n` +
      `    else if (action == "state_restore")\n      wllama_state::restore(app, req_raw, output_buffer);\n`,
  ],
]);
for (const file of ['server-decision.h', 'wllama-state.h'])
  copyFileSync(resolve(ours, file), resolve(dir, 'cpp', file));

// Our relaxed-SIMD dot products (glue/relaxed-dot.h), taken first by the functions they replace when the build
// has -mrelaxed-simd; without it the preprocessor leaves ggml's code as it was.
const quants = 'llama.cpp/ggml/src/ggml-cpu/arch/wasm/quants.c';
copyFileSync(resolve(ours, 'relaxed-dot.h'), resolve(dir, 'llama.cpp/ggml/src/ggml-cpu/arch/wasm/relaxed-dot.h'));
const first = (call) => (a) => `${a}#if defined(__wasm_relaxed_simd__)\n    ${call};\n    return;\n#endif\n`;
edit(quants, [
  ['#include "../../ggml-cpu-impl.h"\n', (a) => `${a}#include "relaxed-dot.h"\n`],
  [
    '    const block_q4_K * GGML_RESTRICT x = vx;\n    const block_q8_K * GGML_RESTRICT y = vy;\n',
    first('relaxed_vec_dot_q4_K_q8_K(n, s, x, y)'),
  ],
  [
    '    const block_q5_0 * GGML_RESTRICT x = vx;\n    const block_q8_0 * GGML_RESTRICT y = vy;\n',
    first('relaxed_vec_dot_q5_0_q8_0(n, s, x, y)'),
  ],
  [
    '    const block_q8_0 * GGML_RESTRICT x = vx;\n    const block_q8_0 * GGML_RESTRICT y = vy;\n',
    first('relaxed_vec_dot_q8_0_q8_0(n, s, x, y)'),
  ],
]);
console.log(`patched ${dir}`);
