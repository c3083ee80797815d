/*===- AotFixture.c - a hand-written object with nx-compile's ABI ---------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Stands in for nx-compile's output (nxrt/nxrt_aot.h) in the tests of
 * nxrt-run and AotProgram. Built several times
 *(runtime/unittests/nxhost/CMakeLists): FIXTURE_PREFIX names the symbols,
 *FIXTURE_ABI_VERSION and FIXTURE_API_VERSION what P_program claims.
 *
 *   add_one(tensor<4xf32>) -> tensor<4xf32>            x + 1
 *   split(tensor<2xi64>) -> (tensor<i64>, tensor<i64>) both elements
 *   shout(tensor<2xf32>) -> tensor<2xf32>              calls the io_callback
 *                                                      @nx.debug.print, then
 *                                                      returns x
 *   bump(tensor<4xf32>) -> tensor<4xf32>               x + 1, also written
 *                                                      over x (a program
 *                                                      that, unlike
 *                                                      nx-compile's, writes
 *                                                      its arguments)
 *
 *===----------------------------------------------------------------------===*/

#include "nxrt/nxrt_aot.h"

#include <stdlib.h>
#include <string.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define SYM(name) CAT(FIXTURE_PREFIX, CAT(_, name))

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} desc1_t;

typedef struct {
  void *allocated, *aligned;
  int64_t offset;
} desc0_t;

static nxrt_site_t *print_site;

static void *alloc_result(size_t bytes) {
  return _mlir_memref_to_llvm_aligned_alloc(64, (bytes + 63) / 64 * 64);
}

static void set1(desc1_t *d, void *data, int64_t n) {
  d->allocated = d->aligned = data;
  d->offset = 0;
  d->sizes[0] = n;
  d->strides[0] = 1;
}

/* add_one: reads through offset and stride, like compiled code. */
void SYM(add_one)(desc1_t *result, desc1_t *x) {
  float *out = alloc_result(4 * sizeof(float));
  const float *in = (const float *)x->aligned + x->offset;
  for (int64_t i = 0; i < 4; ++i)
    out[i] = in[i * x->strides[0]] + 1.0f;
  set1(result, out, 4);
}
static void add_one_packed(void **args) {
  SYM(add_one)(*(desc1_t **)args[0], *(desc1_t **)args[1]);
}

/* bump: add_one, and the sums written over the argument too. */
void SYM(bump)(desc1_t *result, desc1_t *x) {
  SYM(add_one)(result, x);
  float *in = (float *)x->aligned + x->offset;
  for (int64_t i = 0; i < 4; ++i)
    in[i * x->strides[0]] = ((const float *)result->aligned)[i];
}
static void bump_packed(void **args) {
  SYM(bump)(*(desc1_t **)args[0], *(desc1_t **)args[1]);
}

/* split: two rank-0 results; the second is a constant-buffer view when the
 * element is 0 (a result the host must not free). */
typedef struct {
  desc0_t first, second;
} split_results_t;
static int64_t zero = 0;
void SYM(split)(split_results_t *results, desc1_t *x) {
  const int64_t *in = (const int64_t *)x->aligned + x->offset;
  int64_t *a = alloc_result(sizeof(int64_t));
  *a = in[0];
  results->first.allocated = results->first.aligned = a;
  results->first.offset = 0;
  if (in[x->strides[0]] == 0) {
    results->second.allocated = (void *)NXRT_AOT_CONSTANT_BUFFER;
    results->second.aligned = &zero;
  } else {
    int64_t *b = alloc_result(sizeof(int64_t));
    *b = in[x->strides[0]];
    results->second.allocated = results->second.aligned = b;
  }
  results->second.offset = 0;
}
static void split_packed(void **args) {
  SYM(split)(*(split_results_t **)args[0], *(desc1_t **)args[1]);
}

/* shout: an io_callback through the site SYM(nx_init) registered; stops at a
 * failure as compiled code does (a zeroed result). */
void SYM(shout)(desc1_t *result, desc1_t *x) {
  nxrt_run_t *run = nxrt_run_current();
  int64_t dims[1] = {2};
  nxrt_tensor_t arg = {NXRT_F32, 1, dims, (float *)x->aligned + x->offset};
  nxrt_status_t *status = nxrt_invoke(run, print_site, &arg, 1, NULL, 0);
  if (status) {
    nxrt_invoke_failed(run, status);
    memset(result, 0, sizeof(*result));
    return;
  }
  float *out = alloc_result(2 * sizeof(float));
  memcpy(out, arg.data, 2 * sizeof(float));
  set1(result, out, 2);
}
static void shout_packed(void **args) {
  SYM(shout)(*(desc1_t **)args[0], *(desc1_t **)args[1]);
}

nxrt_status_t *SYM(nx_init)(nxrt_program_t *program) {
  nxrt_status_t *error = NULL;
  print_site =
      nxrt_program_add_site(program, NXRT_SITE_IO_CALLBACK, "nx.debug.print",
                            "fixture.mlir:3:5", NULL, 0, &error);
  return error;
}

static const int64_t dims4[1] = {4};
static const int64_t dims2[1] = {2};
static const nxrt_aot_tensor_type_t f32x4 = {NXRT_F32, 1, dims4,
                                             "tensor<4xf32>"};
static const nxrt_aot_tensor_type_t f32x2 = {NXRT_F32, 1, dims2,
                                             "tensor<2xf32>"};
static const nxrt_aot_tensor_type_t i64x2 = {NXRT_I64, 1, dims2,
                                             "tensor<2xi64>"};
static const nxrt_aot_tensor_type_t i64s[2] = {
    {NXRT_I64, 0, NULL, "tensor<i64>"}, {NXRT_I64, 0, NULL, "tensor<i64>"}};

static const nxrt_aot_entry_t entries[4] = {
    {"add_one", (void *)SYM(add_one), add_one_packed, 1, 1, &f32x4, &f32x4},
    {"split", (void *)SYM(split), split_packed, 1, 2, &i64x2, i64s},
    {"shout", (void *)SYM(shout), shout_packed, 1, 1, &f32x2, &f32x2},
    {"bump", (void *)SYM(bump), bump_packed, 1, 1, &f32x4, &f32x4},
};
static const char *const callbacks[1] = {"nx.debug.print"};

const nxrt_aot_program_t SYM(program) = {FIXTURE_ABI_VERSION,
                                         FIXTURE_API_VERSION,
                                         "fixture.mlir",
                                         SYM(nx_init),
                                         4,
                                         entries,
                                         1,
                                         callbacks};
