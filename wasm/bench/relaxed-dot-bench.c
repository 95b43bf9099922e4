// Times ggml's WebAssembly dot products (arch/wasm/quants.c, built without relaxed SIMD) against ours
// (glue/relaxed-dot.h) on the same random blocks, and checks that both give the same sums.
// Built and run by wasm/bench/relaxed-dot-bench.sh. Freestanding (no emscripten runtime): Debian's binaryen 108,
// which every emscripten link runs, rewrites the relaxed dot into an invalid instruction, so this is linked
// with wasm-ld alone and run by a few lines of JavaScript.
#define GGML_COMMON_DECL_C
#include "ggml-common.h"
#include "ggml-impl.h"
#include "simd-mappings.h"
#include "quants.h"

__attribute__((import_module("env"), import_name("now"))) double now(void);
__attribute__((import_module("env"), import_name("report"))) void report(int kernel, double ggml_ns, double ours_ns, double ggml_diff, double ours_diff);

float ggml_table_f32_f16[1 << 16];

void *memcpy(void *dst, const void *src, size_t n)
{
  unsigned char *d = dst;
  const unsigned char *s = src;
  while (n--) *d++ = *s++;
  return dst;
}

static double dabs(double x) { return x < 0 ? -x : x; }
static double dmin(double a, double b) { return a < b ? a : b; }
static double dmax(double a, double b) { return a > b ? a : b; }

// The largest case: the Q5_0 matrix (4864 rows of 28 blocks).
static block_q5_0 q5[4864 * 28];
static block_q8_0 q8[28];
static block_q8_0 q8w[4864 * 28];
static block_q4_K q4k[896 * 19];
static block_q8_K q8k[19];
static float sums_a[4864], sums_b[4864];

#include "relaxed-dot.h"

static uint32_t seed = 12345;
static uint32_t next(void)
{
  seed = seed * 1664525u + 1013904223u;
  return seed >> 8;
}

static ggml_fp16_t half(float x) { return GGML_COMPUTE_FP32_TO_FP16(x); }

// Plain C references, from the formats' definitions.
static void scalar_q5_0(int n, float *s, const void *vx, const void *vy)
{
  const block_q5_0 *x = vx;
  const block_q8_0 *y = vy;
  float sum = 0;
  for (int i = 0; i < n / QK8_0; ++i)
  {
    uint32_t qh;
    memcpy(&qh, x[i].qh, 4);
    int dot = 0;
    for (int j = 0; j < 16; ++j)
    {
      const int lo = ((x[i].qs[j] & 15) | (((qh >> j) & 1) << 4)) - 16;
      const int hi = ((x[i].qs[j] >> 4) | (((qh >> (j + 16)) & 1) << 4)) - 16;
      dot += lo * y[i].qs[j] + hi * y[i].qs[j + 16];
    }
    sum += dot * GGML_CPU_FP16_TO_FP32(x[i].d) * GGML_CPU_FP16_TO_FP32(y[i].d);
  }
  *s = sum;
}

static void scalar_q4_K(int n, float *s, const void *vx, const void *vy)
{
  const block_q4_K *x = vx;
  const block_q8_K *y = vy;
  float sum = 0;
  for (int i = 0; i < n / QK_K; ++i)
  {
    const uint8_t *p = x[i].scales;
    int sumi = 0, mins = 0;
    for (int g = 0; g < 8; ++g)
    {
      const int sc = g < 4 ? p[g] & 63 : (p[g + 4] & 15) | ((p[g - 4] >> 6) << 4);
      const int mn = g < 4 ? p[g + 4] & 63 : (p[g + 4] >> 4) | ((p[g] >> 6) << 4);
      int dot = 0;
      for (int k = 0; k < 32; ++k)
      {
        const uint8_t byte = x[i].qs[(g / 2) * 32 + k];
        dot += ((g % 2) ? byte >> 4 : byte & 15) * y[i].qs[g * 32 + k];
        mins += y[i].qs[g * 32 + k] * mn;
      }
      sumi += dot * sc;
    }
    sum += y[i].d * (GGML_CPU_FP16_TO_FP32(x[i].d) * sumi - GGML_CPU_FP16_TO_FP32(x[i].dmin) * mins);
  }
  *s = sum;
}

static void scalar_q8_0(int n, float *s, const void *vx, const void *vy)
{
  const block_q8_0 *x = vx;
  const block_q8_0 *y = vy;
  float sum = 0;
  for (int i = 0; i < n / QK8_0; ++i)
  {
    int dot = 0;
    for (int j = 0; j < QK8_0; ++j) dot += x[i].qs[j] * y[i].qs[j];
    sum += dot * GGML_CPU_FP16_TO_FP32(x[i].d) * GGML_CPU_FP16_TO_FP32(y[i].d);
  }
  *s = sum;
}

typedef void (*dot_fn)(int, float *, const void *, const void *);
static void ggml_q5_0(int n, float *s, const void *x, const void *y) { ggml_vec_dot_q5_0_q8_0(n, s, 0, x, 0, y, 0, 1); }
static void ours_q5_0(int n, float *s, const void *x, const void *y) { relaxed_vec_dot_q5_0_q8_0(n, s, x, y); }
static void ggml_q8_0(int n, float *s, const void *x, const void *y) { ggml_vec_dot_q8_0_q8_0(n, s, 0, x, 0, y, 0, 1); }
static void ours_q8_0(int n, float *s, const void *x, const void *y) { relaxed_vec_dot_q8_0_q8_0(n, s, x, y); }
static void ggml_q4_K(int n, float *s, const void *x, const void *y) { ggml_vec_dot_q4_K_q8_K(n, s, 0, x, 0, y, 0, 1); }
static void ours_q4_K(int n, float *s, const void *x, const void *y) { relaxed_vec_dot_q4_K_q8_K(n, s, x, y); }

// rows × n weights against one row of activations, `reps` times: nanoseconds per weight, and the largest
// relative difference between the two functions' sums.
static float sums_ref[4864];

static double worst_diff(const float *a, const float *b, int rows)
{
  double worst = 0;
  for (int i = 0; i < rows; ++i)
  {
    double d = dabs(a[i] - b[i]) / dmax(1e-3, dabs(b[i]));
    if (d > worst) worst = d;
  }
  return worst;
}

static void run(int kernel, int n, int rows, size_t row_bytes, const void *x, const void *y, dot_fn a, dot_fn b, dot_fn ref)
{
  for (int i = 0; i < rows; ++i) ref(n, &sums_ref[i], (const char *)x + i * row_bytes, y);
  // The page's clock is coarse (0.1 ms or worse outside an isolated page): each timing spans `reps` passes,
  // and the fastest of `rounds` timings counts.
  const int reps = 40, rounds = 5;
  float *sa = sums_a, *sb = sums_b;
  double ta = 1e30, tb = 1e30;
  for (int r = 0; r < rounds; ++r)
  {
    double t0 = now();
    for (int k = 0; k < reps; ++k)
      for (int i = 0; i < rows; ++i) a(n, &sa[i], (const char *)x + i * row_bytes, y);
    double t1 = now();
    for (int k = 0; k < reps; ++k)
      for (int i = 0; i < rows; ++i) b(n, &sb[i], (const char *)x + i * row_bytes, y);
    double t2 = now();
    ta = dmin(ta, (t1 - t0) / reps);
    tb = dmin(tb, (t2 - t1) / reps);
  }
  report(kernel, ta * 1e6 / ((double)rows * n), tb * 1e6 / ((double)rows * n), worst_diff(sa, sums_ref, rows),
         worst_diff(sb, sums_ref, rows));
}

__attribute__((export_name("bench"))) void bench(void)
{
  for (int i = 0; i < (1 << 16); ++i) ggml_table_f32_f16[i] = GGML_COMPUTE_FP16_TO_FP32((ggml_fp16_t)i);

  // Q5_0 × Q8_0: a 4864 × 896 matrix, as the 0.5B's feed-forward.
  {
    const int n = 896, rows = 4864, nb = n / QK8_0;
    block_q5_0 *x = q5;
    block_q8_0 *y = q8;
    for (int i = 0; i < nb * rows; ++i)
    {
      x[i].d = half(0.001f + (next() % 1000) * 1e-5f);
      for (int j = 0; j < 4; ++j) x[i].qh[j] = next();
      for (int j = 0; j < QK5_0 / 2; ++j) x[i].qs[j] = next();
    }
    for (int i = 0; i < nb; ++i)
    {
      y[i].d = half(0.01f + (next() % 100) * 1e-4f);
      for (int j = 0; j < QK8_0; ++j) y[i].qs[j] = (int8_t)(next() % 255 - 127);
    }
    run(0, n, rows, sizeof(block_q5_0) * nb, x, y, ggml_q5_0, ours_q5_0, scalar_q5_0);
  }
  // Q8_0 × Q8_0: the same shape, as the 0.5B re-quantized to Q8_0 (wasm/requantize.py).
  {
    const int n = 896, rows = 4864, nb = n / QK8_0;
    for (int i = 0; i < nb * rows; ++i)
    {
      q8w[i].d = half(0.001f + (next() % 1000) * 1e-5f);
      for (int j = 0; j < QK8_0; ++j) q8w[i].qs[j] = (int8_t)(next() % 255 - 127);
    }
    run(2, n, rows, sizeof(block_q8_0) * nb, q8w, q8, ggml_q8_0, ours_q8_0, scalar_q8_0);
  }
  // Q4_K × Q8_K: a 896 × 4864 matrix.
  {
    const int n = 4864 / QK_K * QK_K, rows = 896, nb = n / QK_K;
    block_q4_K *x = q4k;
    block_q8_K *y = q8k;
    for (int i = 0; i < nb * rows; ++i)
    {
      x[i].d = half(0.001f + (next() % 1000) * 1e-5f);
      x[i].dmin = half(0.0005f + (next() % 1000) * 1e-5f);
      for (int j = 0; j < K_SCALE_SIZE; ++j) x[i].scales[j] = next();
      for (int j = 0; j < QK_K / 2; ++j) x[i].qs[j] = next();
    }
    for (int i = 0; i < nb; ++i)
    {
      y[i].d = 0.01f + (next() % 100) * 1e-4f;
      for (int j = 0; j < QK_K; ++j) y[i].qs[j] = (int8_t)(next() % 255 - 127);
      for (int j = 0; j < QK_K / 16; ++j)
      {
        int s = 0;
        for (int k = 0; k < 16; ++k) s += y[i].qs[j * 16 + k];
        y[i].bsums[j] = s;
      }
    }
    run(1, n, rows, sizeof(block_q4_K) * nb, x, y, ggml_q4_K, ours_q4_K, scalar_q4_K);
  }
}
