// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/* Binds a callback on an installed libnxrt and serves a call of it through a
 * run, the way compiled code would: checks the headers, the library and its
 * API version agree. Prints what it did; exits non-zero on any mismatch. */
#include "nxrt/nxrt.h"
#include "nxrt/nxrt_version.h"

#include <stdio.h>
#include <string.h>

static nxrt_status_t *twice(void *user_data, const nxrt_call_t *call) {
  (void)user_data;
  const float *x = (const float *)call->args[0].data;
  float *y = (float *)call->results[0].data;
  for (int i = 0; i < 4; ++i)
    y[i] = 2 * x[i];
  return NULL;
}

int main(void) {
  if (nxrt_api_version() != NXRT_API_VERSION) {
    fprintf(stderr, "header API %d, library API %u\n", NXRT_API_VERSION,
            nxrt_api_version());
    return 1;
  }
  printf("nxrt %s, API %u\n", NXRT_VERSION, nxrt_api_version());
  nxrt_runtime_t *runtime = nxrt_runtime_create();
  nxrt_callback_desc_t desc = {NXRT_DISPATCH_INLINE, twice, NULL, 0};
  nxrt_status_t *status = nxrt_register_callback(runtime, "twice", &desc);
  nxrt_program_t *program = nxrt_program_create(runtime, "consumer");
  nxrt_site_t *site = NULL;
  if (!status)
    site = nxrt_program_add_site(program, NXRT_SITE_ELIXIR_CALL, "twice",
                                 "main.c:1:1", NULL, 0, &status);
  float input[4] = {1, 2, 3, 4}, output[4] = {0};
  int64_t dims[1] = {4};
  nxrt_tensor_t arg = {NXRT_F32, 1, dims, input};
  nxrt_tensor_t result = {NXRT_F32, 1, dims, output};
  if (!status) {
    nxrt_run_t *run = nxrt_run_begin(runtime, NULL);
    nxrt_status_t *invoked = nxrt_invoke(run, site, &arg, 1, &result, 1);
    nxrt_status_free(invoked);
    status = nxrt_run_end(run);
  }
  if (status) {
    fprintf(stderr, "error: %s\n", nxrt_status_message(status));
    nxrt_status_free(status);
    return 1;
  }
  printf("twice([1, 2, 3, 4]) = [%g, %g, %g, %g]\n", output[0], output[1],
         output[2], output[3]);
  nxrt_program_destroy(program);
  nxrt_runtime_destroy(runtime);
  return output[3] == 8 ? 0 : 1;
}
