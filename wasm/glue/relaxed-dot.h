// Dot products of quantized weights with 8-bit activations on WebAssembly's relaxed SIMD: one
// i32x4.relaxed_dot_i8x16_i7x16_add takes 16 products and their sum where the 128-bit SIMD path widens both
// operands to 16 bits and multiplies twice (6 instructions). Its second operand must hold 0..127 for the
// result to be the same on every CPU, so the weights go in unsigned (a 4-bit nibble, or a 5-bit value with the
// offset subtracted afterwards) and the activations signed. Compiled only with -mrelaxed-simd; included into
// ggml's wasm quants.c by wasm/patch-glue.mjs, and called first by the functions it replaces.
#pragma once

#if defined(__wasm_relaxed_simd__)
#include <wasm_simd128.h>

static inline int32_t relaxed_hsum_i32x4(v128_t v)
{
  return wasm_i32x4_extract_lane(v, 0) + wasm_i32x4_extract_lane(v, 1) + wasm_i32x4_extract_lane(v, 2) +
         wasm_i32x4_extract_lane(v, 3);
}

// Q4_K: 256 weights a block in 8 groups of 32, each group a 6-bit scale and a 6-bit min (12 bytes packed).
static void relaxed_vec_dot_q4_K_q8_K(int n, float *s, const block_q4_K *x, const block_q8_K *y)
{
  const int nb = n / QK_K;
  const v128_t low = wasm_i8x16_splat(0x0F);
  float sumf = 0;
  for (int i = 0; i < nb; ++i)
  {
    const float d = y[i].d * GGML_CPU_FP16_TO_FP32(x[i].d);
    const float dmin = y[i].d * GGML_CPU_FP16_TO_FP32(x[i].dmin);
    // The 8 scales and 8 mins: groups 0-3 in the low 6 bits of bytes 0-3 (scales) and 4-7 (mins); groups 4-7
    // in the nibbles of bytes 8-11, their top 2 bits in the top 2 bits of bytes 0-7.
    const uint8_t *p = x[i].scales;
    uint8_t sc[8], mn[8];
    for (int j = 0; j < 4; ++j)
    {
      sc[j] = p[j] & 63;
      mn[j] = p[j + 4] & 63;
      sc[j + 4] = (p[j + 8] & 0x0F) | ((p[j] >> 6) << 4);
      mn[j + 4] = (p[j + 8] >> 4) | ((p[j + 4] >> 6) << 4);
    }
    int32_t mins = 0;
    for (int j = 0; j < 8; ++j)
      mins += (y[i].bsums[2 * j] + y[i].bsums[2 * j + 1]) * mn[j];

    const uint8_t *q4 = x[i].qs;
    const int8_t *q8 = y[i].qs;
    int32_t sumi = 0;
    for (int j = 0; j < QK_K / 64; ++j, q4 += 32, q8 += 64)
    {
      const v128_t a = wasm_v128_load(q4), b = wasm_v128_load(q4 + 16);
      v128_t lo = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(wasm_v128_load(q8), wasm_v128_and(a, low), wasm_i32x4_splat(0));
      lo = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(wasm_v128_load(q8 + 16), wasm_v128_and(b, low), lo);
      v128_t hi = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(wasm_v128_load(q8 + 32), wasm_u8x16_shr(a, 4), wasm_i32x4_splat(0));
      hi = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(wasm_v128_load(q8 + 48), wasm_u8x16_shr(b, 4), hi);
      sumi += relaxed_hsum_i32x4(lo) * sc[2 * j] + relaxed_hsum_i32x4(hi) * sc[2 * j + 1];
    }
    sumf += d * sumi - dmin * mins;
  }
  *s = sumf;
}

// Q5_0: 32 weights a block, value = (nibble | fifth bit << 4) - 16. The dot is taken with the unsigned 0..31
// values and 16 times the activations' sum taken off.
static void relaxed_vec_dot_q5_0_q8_0(int n, float *s, const block_q5_0 *x, const block_q8_0 *y)
{
  const int nb = n / QK8_0;
  const v128_t low = wasm_i8x16_splat(0x0F);
  const v128_t ones = wasm_i8x16_splat(1);
  // Lane j of a 16-lane half tests bit j of that half's 16 fifth bits.
  const v128_t bit = wasm_u8x16_make(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128);
  v128_t sumv = wasm_f32x4_splat(0.0f);
  for (int i = 0; i < nb; ++i)
  {
    uint32_t qh;
    memcpy(&qh, x[i].qh, sizeof(qh));
    const v128_t bytes = wasm_u32x4_splat(qh);
    const v128_t fifth_lo = wasm_v128_and(
        wasm_i8x16_ne(wasm_v128_and(wasm_i8x16_swizzle(bytes, wasm_u8x16_make(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1)), bit), wasm_i8x16_splat(0)),
        wasm_i8x16_splat(0x10));
    const v128_t fifth_hi = wasm_v128_and(
        wasm_i8x16_ne(wasm_v128_and(wasm_i8x16_swizzle(bytes, wasm_u8x16_make(2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3)), bit), wasm_i8x16_splat(0)),
        wasm_i8x16_splat(0x10));
    const v128_t q = wasm_v128_load(x[i].qs);
    const v128_t u_lo = wasm_v128_or(wasm_v128_and(q, low), fifth_lo);
    const v128_t u_hi = wasm_v128_or(wasm_u8x16_shr(q, 4), fifth_hi);
    const v128_t y_lo = wasm_v128_load(y[i].qs), y_hi = wasm_v128_load(y[i].qs + 16);
    v128_t dot = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(y_lo, u_lo, wasm_i32x4_splat(0));
    dot = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(y_hi, u_hi, dot);
    v128_t sum = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(y_lo, ones, wasm_i32x4_splat(0));
    sum = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(y_hi, ones, sum);
    const v128_t exact = wasm_i32x4_sub(dot, wasm_i32x4_shl(sum, 4));
    sumv = wasm_f32x4_add(sumv, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(exact),
                                               wasm_f32x4_splat(GGML_CPU_FP16_TO_FP32(x[i].d) * GGML_CPU_FP16_TO_FP32(y[i].d))));
  }
  *s = wasm_f32x4_extract_lane(sumv, 0) + wasm_f32x4_extract_lane(sumv, 1) + wasm_f32x4_extract_lane(sumv, 2) +
       wasm_f32x4_extract_lane(sumv, 3);
}

// Q8_0: 32 signed weights a block. A weight w is (w & 127) - 128 when negative, so the dot is taken with the
// low 7 bits and 128 times the activations over the negative weights taken off.
static void relaxed_vec_dot_q8_0_q8_0(int n, float *s, const block_q8_0 *x, const block_q8_0 *y)
{
  const int nb = n / QK8_0;
  const v128_t seven = wasm_i8x16_splat(0x7F);
  v128_t sumv = wasm_f32x4_splat(0.0f);
  for (int i = 0; i < nb; ++i)
  {
    const v128_t w0 = wasm_v128_load(x[i].qs), w1 = wasm_v128_load(x[i].qs + 16);
    const v128_t a0 = wasm_v128_load(y[i].qs), a1 = wasm_v128_load(y[i].qs + 16);
    v128_t dot = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(a0, wasm_v128_and(w0, seven), wasm_i32x4_splat(0));
    dot = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(a1, wasm_v128_and(w1, seven), dot);
    v128_t neg = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(a0, wasm_u8x16_shr(w0, 7), wasm_i32x4_splat(0));
    neg = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(a1, wasm_u8x16_shr(w1, 7), neg);
    const v128_t exact = wasm_i32x4_sub(dot, wasm_i32x4_shl(neg, 7));
    sumv = wasm_f32x4_add(sumv, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(exact),
                                               wasm_f32x4_splat(GGML_CPU_FP16_TO_FP32(x[i].d) * GGML_CPU_FP16_TO_FP32(y[i].d))));
  }
  *s = wasm_f32x4_extract_lane(sumv, 0) + wasm_f32x4_extract_lane(sumv, 1) + wasm_f32x4_extract_lane(sumv, 2) +
       wasm_f32x4_extract_lane(sumv, 3);
}
#endif
