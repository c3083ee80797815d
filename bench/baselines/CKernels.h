/*===- CKernels.h - C baselines for the compiled-kernel benchmarks -*- C -*-===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * What a C programmer writes for each kernel nx-bench-kernels times, built
 * with -O3 -march=native (the sum also with -ffast-math, which lets the
 * compiler reassociate it into vector lanes). Outputs are caller-allocated.
 *
 *===----------------------------------------------------------------------===*/

#ifndef NX_BENCH_BASELINES_CKERNELS_H
#define NX_BENCH_BASELINES_CKERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = expf(x[i]) * 2 + log1pf(x[i]), with libm. */
void c_elementwise(const float *x, float *y, int64_t n);

/* The sum of x[0..n), -ffast-math. */
float c_sum_fast_math(const float *x, int64_t n);

/* Row-wise softmax of a rows x cols matrix. */
void c_softmax_rows(const float *x, float *y, int64_t rows, int64_t cols);

/* y = max(x * w + b, 0) for x rows x k, w k x n, b n, with one sgemm call. */
void c_dense_relu(const float *x, const float *w, const float *b, float *y,
                  int64_t rows, int64_t k, int64_t n);

/* acc + 1, n times, in one serial chain (what an scf.for carrying a scalar
 * computes). */
float c_add_one_loop(float acc, int64_t n);
/* y = x^T for x rows x cols, in 32x32 blocks so that both sides' cache
 * lines are used whole while in the cache. */
void c_transpose_blocked(const float *x, float *y, int64_t rows, int64_t cols);
/* The sums of x's columns (y[j] = sum_i x[i][j]) for x rows x cols,
 * -ffast-math. */
void c_column_sums(const float *x, float *y, int64_t rows, int64_t cols);
/* The sums of x's rows, -ffast-math. */
void c_row_sums(const float *x, float *y, int64_t rows, int64_t cols);
/* y[a][c] = max_b x[a][b][c] for x a x b x c. */
void c_middle_max(const float *x, float *y, int64_t a, int64_t b, int64_t c);
/* Reads x[0..n) once, as words, and returns their bitwise or: the least work
 * any pass over the input does, so the bound for a reduction of it. */
uint32_t c_read_all(const float *x, int64_t n);
/* c_read_all's result, read as four streams: the four quarters of x, a
 * cache line of each in turn. A reduction that reads several rows at once
 * (column sums, four rows a pass) keeps as many streams in flight, and on
 * AMD's Zen 3 four streams read from the L3 cache up to 1.5x as fast as
 * one. */
uint32_t c_read_all_streams(const float *x, int64_t n);
/* Copies x[0..n) to y, 64-byte aligned, with non-temporal stores of whole
 * cache lines: it reads what a transpose of x reads and writes what the
 * transpose writes without reading the lines it replaces, so it bounds a
 * transpose whose output nx streams. */
void c_copy_streamed(const float *x, float *y, int64_t n);

#ifdef __cplusplus
}
#endif

#endif /* NX_BENCH_BASELINES_CKERNELS_H */
