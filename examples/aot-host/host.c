/*===- host.c - a C program embedding an ahead-of-time compiled nx model --===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * examples/callbacks.mlir, compiled ahead of time into callbacks.o with
 *
 * Run:
 *   nx-compile examples/callbacks.mlir -o callbacks.o --emit-header=callbacks.h
 *
 * and linked into this program together with libnxrt and the callbacks of
 * examples/callbacks/callbacks.c. The embedding API, end to end:
 *
 *   1. a runtime, with the host's callbacks bound by name;
 *   2. the streams the program uses, opened by name;
 *   3. a program, whose call sites callbacks_nx_init registers (once);
 *   4. a run around each call of the compiled entry point, callbacks_main,
 *      whose arguments and results are memref descriptors (callbacks.h);
 *   5. the run's status (a failure names the callback and the op's source
 *      location), the results (owned by the caller) and the outfeed.
 *
 *===----------------------------------------------------------------------===*/

#include "callbacks.h"

#include <stdio.h>
#include <stdlib.h>

/* From examples/callbacks/callbacks.c, linked in. */
nxrt_status_t *nx_register_callbacks(nxrt_runtime_t *runtime);

static int fail(nxrt_status_t *status) {
  fprintf(stderr, "error: %s\n", nxrt_status_message(status));
  nxrt_status_free(status);
  return 1;
}

int main(void) {
  nxrt_runtime_t *runtime = nxrt_runtime_create();
  nxrt_status_t *status = nx_register_callbacks(runtime);
  if (status)
    return fail(status);
  nxrt_stream_t *results = NULL;
  if ((status = nxrt_stream_open(runtime, "results", &results)))
    return fail(status);
  nxrt_program_t *program = nxrt_program_create(runtime, "callbacks");
  if ((status = callbacks_nx_init(program)))
    return fail(status);

  float x[4] = {1, 2, 2, 4};
  callbacks_memref_f32_1d_t arg = {x, x, 0, {4}, {1}}, result;
  nxrt_run_options_t options = {/*timeout_ms=*/1000};
  nxrt_run_t *run = nxrt_run_begin(runtime, &options);
  callbacks_main(&result, &arg);
  if ((status = nxrt_run_end(run)))
    return fail(status);

  printf("result:");
  for (int64_t i = 0; i < result.sizes[0]; ++i)
    printf(" %g", result.aligned[result.offset + i * result.strides[0]]);
  printf("\n");
  if ((uintptr_t)result.allocated != NXRT_AOT_CONSTANT_BUFFER &&
      result.allocated != x)
    free(result.allocated);

  nxrt_value_t *value = NULL;
  if ((status = nxrt_stream_pop_outfeed(results, 1000, &value)))
    return fail(status);
  const nxrt_tensor_t *streamed = nxrt_value_tensor(value, 0);
  printf("outfeed \"results\": %zu tensor(s), first element %g\n",
         nxrt_value_size(value), ((const float *)streamed->data)[0]);
  nxrt_value_free(value);

  nxrt_stream_destroy(results);
  nxrt_program_destroy(program);
  nxrt_runtime_destroy(runtime);
  return 0;
}
