/*===- callbacks.c - a sample nx callback library -------------------------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * The host side of examples/callbacks.mlir, in plain C against libnxrt's
 * C ABI. Build it (the project's CMake does: target NxExampleCallbacks) and
 * load it into nx-runner, from the repository root:
 *
 * Run:
 *   nx-runner examples/callbacks.mlir \
 *     --callbacks=build/lib/libNxExampleCallbacks.so --outfeed=results \
 *     --input='[1, 2, 2, 4]:tensor<4xf32>'
 *
 * A callback library exports one function,
 *
 *   nxrt_status_t *nx_register_callbacks(nxrt_runtime_t *runtime);
 *
 * that binds its callbacks by name and returns NULL (or an owned error).
 * Handlers read their arguments in place and write their results straight
 * into the preallocated output buffers; an error status fails the run, and
 * the runtime names the callback and the op's source location.
 *
 *===----------------------------------------------------------------------===*/

#include "nxrt/nxrt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static size_t num_elements(const nxrt_tensor_t *t) {
  size_t n = 1;
  for (int32_t i = 0; i < t->rank; ++i)
    n *= (size_t)t->dims[i];
  return n;
}

/* normalize: (f32[N]) -> f32[N], x / ||x||; static_args norm = "l2" | "max"
 * (default "l2"). */
static nxrt_status_t *normalize(void *user_data, const nxrt_call_t *call) {
  (void)user_data;
  const char *norm = "l2";
  if (nxrt_attrs_find(call->attrs, "norm")) {
    nxrt_status_t *st = nxrt_attrs_get_string(call->attrs, "norm", &norm, NULL);
    if (st)
      return st;
  }
  if (call->nargs != 1 || call->nresults != 1 ||
      call->args[0].dtype != NXRT_F32)
    return nxrt_status_create(NXRT_INVALID_ARGUMENT,
                              "normalize expects one f32 tensor");
  const float *x = (const float *)call->args[0].data;
  float *y = (float *)call->results[0].data;
  size_t n = num_elements(&call->args[0]);
  double scale = 0;
  if (strcmp(norm, "l2") == 0) {
    for (size_t i = 0; i < n; ++i)
      scale += (double)x[i] * x[i];
    scale = sqrt(scale);
  } else if (strcmp(norm, "max") == 0) {
    for (size_t i = 0; i < n; ++i)
      scale = fabs(x[i]) > scale ? fabs(x[i]) : scale;
  } else {
    char message[128];
    snprintf(message, sizeof message, "unknown norm '%s' (use l2 or max)",
             norm);
    return nxrt_status_create(NXRT_INVALID_ARGUMENT, message);
  }
  if (scale == 0)
    return nxrt_status_create(NXRT_OUT_OF_RANGE, "cannot normalize zero");
  for (size_t i = 0; i < n; ++i)
    y[i] = (float)(x[i] / scale);
  return NULL;
}

/* log_vector / log_matrix: io_callbacks printing their f32 argument. */
static nxrt_status_t *log_tensor(void *user_data, const nxrt_call_t *call) {
  const char *what = (const char *)user_data;
  for (size_t a = 0; a < call->nargs; ++a) {
    const nxrt_tensor_t *t = &call->args[a];
    const float *x = (const float *)t->data;
    size_t n = num_elements(t);
    printf("[%s at %s]", what, call->location);
    for (size_t i = 0; i < n; ++i)
      printf(" %g", x[i]);
    printf("\n");
  }
  fflush(stdout);
  return NULL;
}

static char vector_label[] = "vector";
static char matrix_label[] = "matrix";

__attribute__((visibility("default"))) nxrt_status_t *
nx_register_callbacks(nxrt_runtime_t *runtime) {
  nxrt_callback_desc_t desc;
  memset(&desc, 0, sizeof desc);
  desc.mode = NXRT_DISPATCH_INLINE;

  desc.fn = normalize;
  nxrt_status_t *st = nxrt_register_callback(runtime, "normalize", &desc);
  if (st)
    return st;
  desc.fn = log_tensor;
  desc.user_data = vector_label;
  if ((st = nxrt_register_callback(runtime, "log_vector", &desc)))
    return st;
  desc.user_data = matrix_label;
  return nxrt_register_callback(runtime, "log_matrix", &desc);
}
