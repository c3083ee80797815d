/*===- host.c - A C host running XLA FFI handlers through libnxrt --------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Usage: nx-ffi-host HANDLERS.so. Loads the XLA FFI handler library with
 * nxrt_ffi_load_library, then calls rms_norm.mlir's functions, compiled
 * ahead of time, in runs of its own: the C API path of the FFI tests.
 *===----------------------------------------------------------------------===*/

#include "rms_norm.h"

#include "nxrt/nxrt_ffi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int fail(nxrt_status_t *status) {
  fprintf(stderr, "error: %s\n", nxrt_status_message(status));
  nxrt_status_free(status);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s HANDLERS.so\n", argv[0]);
    return 2;
  }
  size_t registered = 0;
  nxrt_status_t *status = nxrt_ffi_load_library(argv[1], 1, &registered);
  if (status)
    return fail(status);
  printf("handlers registered: %zu\n", registered);

  nxrt_runtime_t *runtime = nxrt_runtime_create();
  nxrt_program_t *program = nxrt_program_create(runtime, "rms_norm");
  if ((status = rms_norm_nx_init(program)))
    return fail(status);

  float x[8] = {1, 2, 3, 4, -1, 0, 1, 2};
  rms_norm_memref_f32_2d_t arg = {x, x, 0, {2, 4}, {4, 1}}, result;
  nxrt_run_t *run = nxrt_run_begin(runtime, NULL);
  rms_norm_rms_norm(&result, &arg);
  if ((status = nxrt_run_end(run)))
    return fail(status);
  printf("rms_norm:");
  for (int64_t i = 0; i < 8; ++i)
    printf(" %.4f", result.aligned[result.offset + i]);
  printf("\n");
  if ((uintptr_t)result.allocated != NXRT_AOT_CONSTANT_BUFFER &&
      result.allocated != x)
    free(result.allocated);

  /* A handler's error fails the run; the process goes on. */
  run = nxrt_run_begin(runtime, NULL);
  rms_norm_fails(&result, &arg);
  status = nxrt_run_end(run);
  printf("fails: %s\n", status ? nxrt_status_message(status) : "succeeded");
  nxrt_status_free(status);

  nxrt_program_destroy(program);
  nxrt_runtime_destroy(runtime);
  return 0;
}
