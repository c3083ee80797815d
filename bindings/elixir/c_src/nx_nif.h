/*===- nx_nif.h - shared declarations of the nx_runtime NIF --------------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * The NIF is split by job: nx_nif.c (module entry, resource types),
 * terms.c (tensors, dtypes, attributes and errors as Erlang terms),
 * runtime.c (runtime, bridge hook, replies), program.c (loading nx-compile
 * objects, runs), stream.c (infeed / outfeed).
 *
 *===----------------------------------------------------------------------===*/

#ifndef NX_NIF_H
#define NX_NIF_H

#include "nxrt/nxrt.h"
#include "nxrt/nxrt_aot.h"

#include <erl_nif.h>

/* One nxrt runtime, bound to the dispatcher process that receives its
 * bridge requests. Programs and streams keep it alive (enif_keep_resource),
 * so it is destroyed only after them, as nxrt_runtime_destroy requires. */
typedef struct nx_runtime_res {
  nxrt_runtime_t *runtime;
  ErlNifPid dispatcher;
} nx_runtime_res;

/* A loaded nx-compile object and the nxrt program holding its call sites. */
typedef struct nx_program_res {
  nx_runtime_res *rt;
  void *handle;
  int fd; /* the memfd the object was loaded from (program.c) */
  const nxrt_aot_program_t *aot;
  nxrt_program_t *program;
} nx_program_res;

/* An open stream; closed and freed when the last reference goes away. */
typedef struct nx_stream_res {
  nx_runtime_res *rt;
  nxrt_stream_t *stream;
} nx_stream_res;

extern ErlNifResourceType *nx_runtime_type;
extern ErlNifResourceType *nx_program_type;
extern ErlNifResourceType *nx_stream_type;

/* The environment of the NIF call running on this thread, if any: the bridge
 * hook runs inside compiled code on a (dirty) scheduler thread, and
 * enif_send wants the caller's env there (NULL only on foreign threads). */
extern __thread ErlNifEnv *nx_current_env;

/*--- terms.c ------------------------------------------------------------*/

ERL_NIF_TERM nx_atom(ErlNifEnv *env, const char *name);
ERL_NIF_TERM nx_ok(ErlNifEnv *env, ERL_NIF_TERM value);
/* {:error, {code, message}}; consumes `status` (which must be non-NULL). */
ERL_NIF_TERM nx_status_error(ErlNifEnv *env, nxrt_status_t *status);
/* A binary without NUL bytes as a C string (free with enif_free); NULL
 * for anything else. */
char *nx_binary_to_cstr(ErlNifEnv *env, ERL_NIF_TERM term);
/* The lowercase name of `code`, as the atoms in error tuples spell it. */
const char *nx_code_name(nxrt_status_code_t code);
/* {:error, {code, message}} from a code and a printf-style message. */
ERL_NIF_TERM nx_error(ErlNifEnv *env, nxrt_status_code_t code,
                      const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* {kind, bits} as Nx spells element types, e.g. {:f, 32}, {:u, 8};
 * predicates (i1, one byte each) are {:pred, 8}. */
ERL_NIF_TERM nx_make_dtype(ErlNifEnv *env, nxrt_dtype_t dtype);
int nx_get_dtype(ErlNifEnv *env, ERL_NIF_TERM term, nxrt_dtype_t *out);
/* A tuple of dimensions. */
ERL_NIF_TERM nx_make_shape(ErlNifEnv *env, int32_t rank, const int64_t *dims);
/* `tensor<2x3xf32>`, written into buf. */
void nx_type_string(char *buf, size_t len, nxrt_dtype_t dtype, int32_t rank,
                    const int64_t *dims);

/* A tensor term {data :: binary, type, shape} read into a view whose data
 * and dims point into the term (dims into `dims_storage`, enif_alloc'ed and
 * freed by the caller with enif_free). Returns NULL, or a message naming
 * what is wrong. */
const char *nx_get_tensor(ErlNifEnv *env, ERL_NIF_TERM term, nxrt_tensor_t *out,
                          int64_t **dims_storage);
/* A list of tensor terms read into views (arrays enif_alloc'ed; release
 * with nx_free_tensors). Returns NULL or a message. */
const char *nx_get_tensors(ErlNifEnv *env, ERL_NIF_TERM list,
                           nxrt_tensor_t **out, size_t *n);
void nx_free_tensors(nxrt_tensor_t *tensors, size_t n);
/* {binary, type, shape}, the data copied from a dense view. */
ERL_NIF_TERM nx_make_tensor(ErlNifEnv *env, const nxrt_tensor_t *tensor);

/* Static args / attributes as a map with string keys. */
ERL_NIF_TERM nx_make_attrs(ErlNifEnv *env, const nxrt_attrs_t *attrs);

/*--- runtime.c ----------------------------------------------------------*/

void nx_runtime_dtor(ErlNifEnv *env, void *obj);
ERL_NIF_TERM nx_runtime_create(ErlNifEnv *env, int argc,
                               const ERL_NIF_TERM argv[]);
ERL_NIF_TERM nx_register_callback(ErlNifEnv *env, int argc,
                                  const ERL_NIF_TERM argv[]);
ERL_NIF_TERM nx_reply(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]);
ERL_NIF_TERM nx_bridge_close(ErlNifEnv *env, int argc,
                             const ERL_NIF_TERM argv[]);
ERL_NIF_TERM nx_set_trace(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]);

/*--- program.c ----------------------------------------------------------*/

void nx_program_dtor(ErlNifEnv *env, void *obj);
ERL_NIF_TERM nx_program_load(ErlNifEnv *env, int argc,
                             const ERL_NIF_TERM argv[]);
ERL_NIF_TERM nx_program_entries(ErlNifEnv *env, int argc,
                                const ERL_NIF_TERM argv[]);
ERL_NIF_TERM nx_run(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]);
ERL_NIF_TERM nx_run_async(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]);

/*--- ffi.c --------------------------------------------------------------*/

ERL_NIF_TERM nx_ffi_load_library(ErlNifEnv *env, int argc,
                                 const ERL_NIF_TERM argv[]);
ERL_NIF_TERM nx_ffi_register_symbol(ErlNifEnv *env, int argc,
                                    const ERL_NIF_TERM argv[]);

/*--- stream.c -----------------------------------------------------------*/

void nx_stream_dtor(ErlNifEnv *env, void *obj);
ERL_NIF_TERM nx_stream_open(ErlNifEnv *env, int argc,
                            const ERL_NIF_TERM argv[]);
ERL_NIF_TERM nx_stream_close(ErlNifEnv *env, int argc,
                             const ERL_NIF_TERM argv[]);
ERL_NIF_TERM nx_push_infeed(ErlNifEnv *env, int argc,
                            const ERL_NIF_TERM argv[]);
ERL_NIF_TERM nx_pop_outfeed(ErlNifEnv *env, int argc,
                            const ERL_NIF_TERM argv[]);

#endif /* NX_NIF_H */
