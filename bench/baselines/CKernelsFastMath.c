/*===- CKernelsFastMath.c - C baselines, -O3 -march=native -ffast-math ----===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *===----------------------------------------------------------------------===*/

#include "CKernels.h"

float c_sum_fast_math(const float *x, int64_t n) {
  float sum = 0.0f;
  for (int64_t i = 0; i < n; ++i)
    sum += x[i];
  return sum;
}

void c_column_sums(const float *x, float *y, int64_t rows, int64_t cols) {
  for (int64_t j = 0; j < cols; ++j)
    y[j] = 0.0f;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      y[j] += x[i * cols + j];
}

void c_row_sums(const float *x, float *y, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; ++i)
    y[i] = c_sum_fast_math(x + i * cols, cols);
}
