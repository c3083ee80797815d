/*===- CKernels.c - C baselines, -O3 -march=native ------------------------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *===----------------------------------------------------------------------===*/

#include "CKernels.h"
#ifdef __SSE2__
#include <immintrin.h>
#endif

#include <cblas.h>
#include <math.h>
#include <string.h>

void c_elementwise(const float *x, float *y, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    y[i] = expf(x[i]) * 2.0f + log1pf(x[i]);
}

void c_softmax_rows(const float *x, float *y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float *in = x + r * cols;
    float *out = y + r * cols;
    float max = in[0];
    for (int64_t c = 1; c < cols; ++c)
      max = in[c] > max ? in[c] : max;
    float sum = 0.0f;
    for (int64_t c = 0; c < cols; ++c) {
      out[c] = expf(in[c] - max);
      sum += out[c];
    }
    float inverse = 1.0f / sum;
    for (int64_t c = 0; c < cols; ++c)
      out[c] *= inverse;
  }
}

void c_dense_relu(const float *x, const float *w, const float *b, float *y,
                  int64_t rows, int64_t k, int64_t n) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)rows, (int)n,
              (int)k, 1.0f, x, (int)k, w, (int)n, 0.0f, y, (int)n);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < n; ++c) {
      float v = y[r * n + c] + b[c];
      y[r * n + c] = v > 0.0f ? v : 0.0f;
    }
}

float c_add_one_loop(float acc, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    acc += 1.0f;
    /* Keeps the compiler from folding the loop: one add per iteration,
     * as the compiled loop does. */
    __asm__ volatile("" : "+x"(acc));
  }
  return acc;
}

void c_transpose_blocked(const float *x, float *y, int64_t rows, int64_t cols) {
  enum { kBlock = 32 };
  for (int64_t i0 = 0; i0 < rows; i0 += kBlock)
    for (int64_t j0 = 0; j0 < cols; j0 += kBlock) {
      int64_t i1 = i0 + kBlock < rows ? i0 + kBlock : rows;
      int64_t j1 = j0 + kBlock < cols ? j0 + kBlock : cols;
      for (int64_t j = j0; j < j1; ++j)
        for (int64_t i = i0; i < i1; ++i)
          y[j * rows + i] = x[i * cols + j];
    }
}

void c_middle_max(const float *x, float *y, int64_t a, int64_t b, int64_t c) {
  for (int64_t i = 0; i < a; ++i) {
    float *out = y + i * c;
    const float *in = x + i * b * c;
    for (int64_t k = 0; k < c; ++k)
      out[k] = in[k];
    for (int64_t j = 1; j < b; ++j)
      for (int64_t k = 0; k < c; ++k)
        out[k] = in[j * c + k] > out[k] ? in[j * c + k] : out[k];
  }
}

/* Eight words: one 256-bit register. */
typedef uint32_t words8 __attribute__((vector_size(32)));

uint32_t c_read_all(const float *x, int64_t n) {
  /* 256-bit loads in two independent chains: two such loads a cycle outrun
     any cache's bandwidth, and AMD Zen 4 streams 512-bit loads more slowly
     (a compiler left to itself would merge the lanes into one 512-bit
     register). */
  words8 even = {0}, odd = {0};
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    words8 first, second;
    memcpy(&first, x + i, sizeof first);
    memcpy(&second, x + i + 8, sizeof second);
    even |= first;
    odd |= second;
  }
  uint32_t all = 0;
  for (; i < n; ++i) {
    uint32_t word;
    memcpy(&word, x + i, sizeof word);
    all |= word;
  }
  for (int k = 0; k < 8; ++k)
    all |= even[k] | odd[k];
  return all;
}

uint32_t c_read_all_streams(const float *x, int64_t n) {
  /* Whole lines in each quarter; c_read_all reads what is left after them. */
  int64_t quarter = n / 64 * 16;
  words8 lanes[4] = {{0}, {0}, {0}, {0}};
  for (int64_t i = 0; i < quarter; i += 16)
    for (int s = 0; s < 4; ++s) {
      words8 first, second;
      memcpy(&first, x + s * quarter + i, sizeof first);
      memcpy(&second, x + s * quarter + i + 8, sizeof second);
      lanes[s] |= first | second;
    }
  uint32_t all = c_read_all(x + 4 * quarter, n - 4 * quarter);
  for (int s = 0; s < 4; ++s)
    for (int k = 0; k < 8; ++k)
      all |= lanes[s][k];
  return all;
}

void c_copy_streamed(const float *x, float *y, int64_t n) {
  int64_t i = 0;
#ifdef __SSE2__
  /* A line's four 128-bit stores back to back (MOVNTPS), so that each
     write-combining buffer holds a whole line when it is written out. */
  for (; i + 16 <= n; i += 16)
    for (int part = 0; part < 16; part += 4)
      _mm_stream_ps(y + i + part, _mm_loadu_ps(x + i + part));
  _mm_sfence();
#endif
  memcpy(y + i, x + i, (size_t)(n - i) * sizeof *x);
}
