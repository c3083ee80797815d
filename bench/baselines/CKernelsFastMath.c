/*===- CKernelsFastMath.c - C baselines, -O3 -march=native -ffast-math ----===*/

#include "CKernels.h"

float c_sum_fast_math(const float *x, int64_t n) {
  float sum = 0.0f;
  for (int64_t i = 0; i < n; ++i)
    sum += x[i];
  return sum;
}
