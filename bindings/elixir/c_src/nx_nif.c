/*===- nx_nif.c - NIF module entry of Elixir.NxRuntime.Nif ----------------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Resource types and the function table. Functions that run compiled code
 * or wait use dirty schedulers; those that answer callbacks never do (see
 * runtime.c).
 *
 *===----------------------------------------------------------------------===*/

#include "nx_nif.h"

ErlNifResourceType *nx_runtime_type;
ErlNifResourceType *nx_program_type;
ErlNifResourceType *nx_stream_type;

static int open_types(ErlNifEnv *env) {
  ErlNifResourceFlags flags = ERL_NIF_RT_CREATE | ERL_NIF_RT_TAKEOVER;
  nx_runtime_type = enif_open_resource_type(env, NULL, "nx_runtime",
                                            nx_runtime_dtor, flags, NULL);
  nx_program_type = enif_open_resource_type(env, NULL, "nx_program",
                                            nx_program_dtor, flags, NULL);
  nx_stream_type = enif_open_resource_type(env, NULL, "nx_stream",
                                           nx_stream_dtor, flags, NULL);
  return nx_runtime_type && nx_program_type && nx_stream_type ? 0 : 1;
}

static int load(ErlNifEnv *env, void **priv, ERL_NIF_TERM info) {
  (void)priv;
  (void)info;
  /* A libnxrt other than the one this NIF was compiled against would
   * misread every struct: refuse to load. */
  if (nxrt_api_version() != NXRT_API_VERSION)
    return 1;
  return open_types(env);
}

static int upgrade(ErlNifEnv *env, void **priv, void **old_priv,
                   ERL_NIF_TERM info) {
  (void)old_priv;
  return load(env, priv, info);
}

static ERL_NIF_TERM api_version(ErlNifEnv *env, int argc,
                                const ERL_NIF_TERM argv[]) {
  (void)argc;
  (void)argv;
  return enif_make_uint(env, nxrt_api_version());
}

static ErlNifFunc functions[] = {
    {"api_version", 0, api_version, 0},
    {"runtime_create", 1, nx_runtime_create, 0},
    {"register_callback", 3, nx_register_callback, 0},
    {"reply", 3, nx_reply, 0},
    {"bridge_close", 1, nx_bridge_close, 0},
    {"set_trace", 2, nx_set_trace, 0},
    {"program_load", 3, nx_program_load, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"program_entries", 1, nx_program_entries, 0},
    {"ffi_load_library", 2, nx_ffi_load_library, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"ffi_register_symbol", 3, nx_ffi_register_symbol,
     ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"run", 4, nx_run, ERL_NIF_DIRTY_JOB_CPU_BOUND},
    {"run_async", 5, nx_run_async, ERL_NIF_DIRTY_JOB_CPU_BOUND},
    {"stream_open", 2, nx_stream_open, 0},
    {"stream_close", 1, nx_stream_close, 0},
    {"push_infeed", 2, nx_push_infeed, 0},
    {"pop_outfeed", 2, nx_pop_outfeed, ERL_NIF_DIRTY_JOB_IO_BOUND},
};

ERL_NIF_INIT(Elixir.NxRuntime.Nif, functions, load, NULL, upgrade, NULL)
