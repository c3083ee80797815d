/*===- stream.c - named infeed / outfeed streams --------------------------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * push_infeed queues one value (a list of tensors) that one nx.infeed
 * consumes; pop_outfeed waits for the next value an nx.outfeed sent. Both
 * copy, so binaries never alias the runtime's queues.
 *
 *===----------------------------------------------------------------------===*/

#include "nx_nif.h"

#include <string.h>

void nx_stream_dtor(ErlNifEnv *env, void *obj) {
  (void)env;
  nx_stream_res *s = obj;
  nxrt_stream_destroy(s->stream);
  if (s->rt)
    enif_release_resource(s->rt);
}

/* stream_open(runtime, name) -> {:ok, stream} | {:error, reason} */
ERL_NIF_TERM nx_stream_open(ErlNifEnv *env, int argc,
                            const ERL_NIF_TERM argv[]) {
  (void)argc;
  nx_runtime_res *rt;
  ErlNifBinary name;
  if (!enif_get_resource(env, argv[0], nx_runtime_type, (void **)&rt) ||
      !enif_inspect_binary(env, argv[1], &name))
    return enif_make_badarg(env);
  if (name.size == 0 || name.size > NXRT_STREAM_NAME_MAX ||
      memchr(name.data, 0, name.size))
    return nx_error(env, NXRT_INVALID_ARGUMENT,
                    "a stream name must have 1 to %d bytes and no NUL",
                    NXRT_STREAM_NAME_MAX);
  char *cname = enif_alloc(name.size + 1);
  memcpy(cname, name.data, name.size);
  cname[name.size] = 0;
  nxrt_stream_t *stream = NULL;
  nxrt_status_t *status = nxrt_stream_open(rt->runtime, cname, &stream);
  enif_free(cname);
  if (status)
    return nx_status_error(env, status);
  nx_stream_res *s = enif_alloc_resource(nx_stream_type, sizeof(*s));
  enif_keep_resource(rt);
  s->rt = rt;
  s->stream = stream;
  ERL_NIF_TERM term = enif_make_resource(env, s);
  enif_release_resource(s);
  return nx_ok(env, term);
}

/* stream_close(stream) -> :ok. Wakes infeeds waiting on it with an error;
 * the name becomes free for another stream. */
ERL_NIF_TERM nx_stream_close(ErlNifEnv *env, int argc,
                             const ERL_NIF_TERM argv[]) {
  (void)argc;
  nx_stream_res *s;
  if (!enif_get_resource(env, argv[0], nx_stream_type, (void **)&s))
    return enif_make_badarg(env);
  nxrt_stream_close(s->stream);
  return nx_atom(env, "ok");
}

/* push_infeed(stream, [tensor]) -> :ok | {:error, reason} */
ERL_NIF_TERM nx_push_infeed(ErlNifEnv *env, int argc,
                            const ERL_NIF_TERM argv[]) {
  (void)argc;
  nx_stream_res *s;
  if (!enif_get_resource(env, argv[0], nx_stream_type, (void **)&s))
    return enif_make_badarg(env);
  nxrt_tensor_t *values;
  size_t n;
  const char *problem = nx_get_tensors(env, argv[1], &values, &n);
  if (problem)
    return nx_error(env, NXRT_INVALID_ARGUMENT, "%s", problem);
  nxrt_status_t *status = nxrt_stream_push_infeed(s->stream, values, n);
  nx_free_tensors(values, n);
  return status ? nx_status_error(env, status) : nx_atom(env, "ok");
}

/* pop_outfeed(stream, timeout_ms) -> {:ok, [tensor]} | {:error, reason}.
 * Dirty IO: it may wait. */
ERL_NIF_TERM nx_pop_outfeed(ErlNifEnv *env, int argc,
                            const ERL_NIF_TERM argv[]) {
  (void)argc;
  nx_stream_res *s;
  ErlNifSInt64 timeout_ms;
  if (!enif_get_resource(env, argv[0], nx_stream_type, (void **)&s) ||
      !enif_get_int64(env, argv[1], &timeout_ms))
    return enif_make_badarg(env);
  nxrt_value_t *value = NULL;
  nxrt_status_t *status =
      nxrt_stream_pop_outfeed(s->stream, timeout_ms, &value);
  if (status)
    return nx_status_error(env, status);
  ERL_NIF_TERM list = enif_make_list(env, 0);
  for (size_t i = nxrt_value_size(value); i-- > 0;)
    list = enif_make_list_cell(
        env, nx_make_tensor(env, nxrt_value_tensor(value, i)), list);
  nxrt_value_free(value);
  return nx_ok(env, list);
}
