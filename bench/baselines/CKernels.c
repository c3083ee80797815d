/*===- CKernels.c - C baselines, -O3 -march=native ------------------------===*/

#include "CKernels.h"

#include <cblas.h>
#include <math.h>

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
