/**
 * How many bytes a tensor's data takes, from its type and shape: the size a
 * header promises, checked against the file's.
 */
import { Problem } from './gguf-header-problem';

/** (elements per block, bytes per block) of each ggml type, from gguf-py's GGML_QUANT_SIZES. */
const TYPE_SIZES: Readonly<Record<number, readonly [number, number]>> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  9: [32, 40], // Q8_1
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  15: [256, 292], // Q8_K
  16: [256, 66], // IQ2_XXS
  17: [256, 74], // IQ2_XS
  18: [256, 98], // IQ3_XXS
  19: [256, 50], // IQ1_S
  20: [32, 18], // IQ4_NL
  21: [256, 110], // IQ3_S
  22: [256, 82], // IQ2_S
  23: [256, 136], // IQ4_XS
  24: [1, 1], // I8
  25: [1, 2], // I16
  26: [1, 4], // I32
  27: [1, 8], // I64
  28: [1, 8], // F64
  29: [256, 56], // IQ1_M
  30: [1, 2], // BF16
  34: [256, 54], // TQ1_0
  35: [256, 66], // TQ2_0
  39: [32, 17], // MXFP4
};

/** Bytes of a tensor's data, or 0 for a type not in the table (llama.cpp judges it). */
export function tensorBytes(name: string, type: number, shape: readonly bigint[]): bigint {
  const sizes = TYPE_SIZES[type];
  if (!sizes) return 0n;
  const [block, blockBytes] = sizes;
  const [first = 1n, ...rest] = shape;
  if (first % BigInt(block))
    throw new Problem(`its tensor "${name}" has rows of ${first} elements, not a whole number of its type's blocks`);
  return rest.reduce((bytes, dim) => bytes * dim, (first / BigInt(block)) * BigInt(blockBytes));
}
