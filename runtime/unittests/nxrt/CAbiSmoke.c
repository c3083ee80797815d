/*===- CAbiSmoke.c - The ABI used from plain C ----------------------------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Compiled as C99 so the header stays valid C: a C host registers a callback,
 * loads a site and invokes it, as a NIF or the LLVM lowering would.
 *
 *===----------------------------------------------------------------------===*/

#include <string.h>

#include "nxrt/nxrt.h"
#include "nxrt/nxrt_stream_handle.h"

static nxrt_status_t *negate(void *user_data, const nxrt_call_t *call) {
  const double *x = (const double *)call->args[0].data;
  double *y = (double *)call->results[0].data;
  int64_t i;
  (void)user_data;
  if (call->args[0].dtype != NXRT_F64)
    return nxrt_status_create(NXRT_INVALID_ARGUMENT, "expected f64");
  for (i = 0; i < call->args[0].dims[0]; ++i)
    y[i] = -x[i];
  return NULL;
}

/* Returns 0 on success, or the step that failed. */
int nxrt_c_smoke(void) {
  nxrt_runtime_t *rt = nxrt_runtime_create();
  nxrt_callback_desc_t desc;
  nxrt_program_t *program;
  nxrt_site_t *site;
  nxrt_run_t *run;
  nxrt_status_t *status;
  int64_t dims[1] = {3};
  double x[3] = {1, 2, 3}, y[3] = {0, 0, 0};
  nxrt_tensor_t arg, res;
  int failed = 0;

  memset(&desc, 0, sizeof desc);
  desc.mode = NXRT_DISPATCH_INLINE;
  desc.fn = negate;
  if ((status = nxrt_register_callback(rt, "negate", &desc)) != NULL) {
    nxrt_status_free(status);
    nxrt_runtime_destroy(rt);
    return 1;
  }
  program = nxrt_program_create(rt, "c");
  site = nxrt_program_add_site(program, NXRT_SITE_ELIXIR_CALL, "negate",
                               "c.mlir:1:1", NULL, 0, NULL);
  arg.dtype = NXRT_F64;
  arg.rank = 1;
  arg.dims = dims;
  arg.data = x;
  res = arg;
  res.data = y;
  run = nxrt_run_begin(rt, NULL);
  status = nxrt_invoke(run, site, &arg, 1, &res, 1);
  if (status) {
    failed = 2;
    nxrt_status_free(status);
  }
  status = nxrt_run_end(run);
  if (status) {
    failed = 3;
    nxrt_status_free(status);
  }
  if (!failed && (y[0] != -1 || y[1] != -2 || y[2] != -3))
    failed = 4;
  nxrt_program_destroy(program);
  nxrt_runtime_destroy(rt);
  return failed;
}

/* The inline stream handle functions compile as C99 and agree with the
 * library's encoder. Returns 0 on success, or the step that failed. */
int nxrt_c_stream_handle_smoke(void) {
  uint8_t inline_bytes[14], library_bytes[14];
  if (nxrt_stream_handle_write("s1", 2, inline_bytes, sizeof inline_bytes) !=
      14)
    return 1;
  if (nxrt_stream_handle_encode("s1", library_bytes, sizeof library_bytes) !=
          14 ||
      memcmp(inline_bytes, library_bytes, 14) != 0)
    return 2;
  if (nxrt_stream_handle_check(inline_bytes, 14) != NXRT_STREAM_HANDLE_OK)
    return 3;
  inline_bytes[12] = 0xff; /* not UTF-8 */
  if (nxrt_stream_handle_check(inline_bytes, 14) != NXRT_STREAM_HANDLE_BAD_NAME)
    return 4;
  if (nxrt_stream_handle_check(inline_bytes, 13) !=
      NXRT_STREAM_HANDLE_LENGTH_MISMATCH)
    return 5;
  return 0;
}
