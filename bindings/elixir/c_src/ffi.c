/*===- ffi.c - XLA FFI handler libraries ----------------------------------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Loading a library of XLA FFI handlers, which libnxrt registers
 * process-wide (nxrt_ffi.h). Both run on dirty I/O schedulers: loading a
 * library runs its static initializers.
 *
 *===----------------------------------------------------------------------===*/

#include "nx_nif.h"

#include "nxrt/nxrt_ffi.h"

/* ffi_load_library(path, require_handlers) -> {:ok, count} | {:error, reason}
 */
ERL_NIF_TERM nx_ffi_load_library(ErlNifEnv *env, int argc,
                                 const ERL_NIF_TERM argv[]) {
  (void)argc;
  char *path = nx_binary_to_cstr(env, argv[0]);
  int require = 0;
  if (!path || !enif_get_int(env, argv[1], &require)) {
    enif_free(path);
    return enif_make_badarg(env);
  }
  size_t registered = 0;
  nxrt_status_t *status = nxrt_ffi_load_library(path, require, &registered);
  enif_free(path);
  if (status)
    return nx_status_error(env, status);
  return nx_ok(env, enif_make_uint64(env, registered));
}

/* ffi_register_symbol(name, path, symbol) -> :ok | {:error, reason} */
ERL_NIF_TERM nx_ffi_register_symbol(ErlNifEnv *env, int argc,
                                    const ERL_NIF_TERM argv[]) {
  (void)argc;
  char *name = nx_binary_to_cstr(env, argv[0]);
  char *path = nx_binary_to_cstr(env, argv[1]);
  char *symbol = nx_binary_to_cstr(env, argv[2]);
  ERL_NIF_TERM result;
  if (!name || !path || !symbol) {
    result = enif_make_badarg(env);
  } else {
    nxrt_status_t *status = nxrt_ffi_register_symbol(path, name, symbol);
    result = status ? nx_status_error(env, status) : nx_atom(env, "ok");
  }
  enif_free(name);
  enif_free(path);
  enif_free(symbol);
  return result;
}
