/*===- runtime.c - the runtime, its bridge hook and replies ---------------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Every callback is bound BRIDGE. When compiled code calls one, the hook
 * below runs on the compute thread: it copies the arguments into binaries
 * of a process-independent env and enif_sends
 *
 *   {:nx_call, tag, name, args, static_args, location, templates}
 *
 * to the dispatcher process, then returns; the compute thread parks in
 * libnxrt until the dispatcher answers with reply/3 (nxrt_bridge_reply) or
 * the deadline passes. Nothing here calls into the BEAM beyond enif_send.
 *
 * With tracing on, each finished host call is sent to the dispatcher too:
 *
 *   {:nx_trace, name, location, kind, dispatch, duration_ns, status}
 *
 *===----------------------------------------------------------------------===*/

#include "nx_nif.h"

#include <string.h>

__thread ErlNifEnv *nx_current_env;

void nx_runtime_dtor(ErlNifEnv *env, void *obj) {
  (void)env;
  nx_runtime_res *rt = obj;
  if (!rt->runtime)
    return;
  /* Programs and streams hold references, so none is left; close the
   * bridge first as nxrt_runtime_destroy asks. */
  nxrt_bridge_close(rt->runtime);
  nxrt_runtime_destroy(rt->runtime);
}

/* Builds the call message; returns NULL or why it could not. */
static const char *call_message(ErlNifEnv *env, nxrt_request_t *request,
                                ERL_NIF_TERM *out) {
  size_t nargs = nxrt_request_num_args(request);
  ERL_NIF_TERM args = enif_make_list(env, 0);
  for (size_t i = nargs; i-- > 0;) {
    const nxrt_tensor_t *view = nxrt_request_arg(request, i);
    size_t size = nxrt_tensor_byte_size(view);
    ERL_NIF_TERM data;
    unsigned char *buf = enif_make_new_binary(env, size, &data);
    /* Copy while the request is pending: the compute thread frees its
     * buffers once it stops waiting. */
    nxrt_status_t *status = nxrt_request_copy_arg(request, i, buf, size);
    if (status) {
      nxrt_status_free(status);
      return "the call expired before its arguments were copied";
    }
    ERL_NIF_TERM tensor =
        enif_make_tuple3(env, data, nx_make_dtype(env, view->dtype),
                         nx_make_shape(env, view->rank, view->dims));
    args = enif_make_list_cell(env, tensor, args);
  }
  size_t nresults = nxrt_request_num_results(request);
  ERL_NIF_TERM templates = enif_make_list(env, 0);
  for (size_t i = nresults; i-- > 0;) {
    const nxrt_tensor_t *t = nxrt_request_result_template(request, i);
    templates = enif_make_list_cell(
        env,
        enif_make_tuple2(env, nx_make_dtype(env, t->dtype),
                         nx_make_shape(env, t->rank, t->dims)),
        templates);
  }
  const char *name = nxrt_request_name(request);
  const char *location = nxrt_request_location(request);
  ERL_NIF_TERM name_term, location_term;
  memcpy(enif_make_new_binary(env, strlen(name), &name_term), name,
         strlen(name));
  memcpy(enif_make_new_binary(env, strlen(location), &location_term), location,
         strlen(location));
  ERL_NIF_TERM items[] = {nx_atom(env, "nx_call"),
                          enif_make_uint64(env, nxrt_request_tag(request)),
                          name_term,
                          args,
                          nx_make_attrs(env, nxrt_request_attrs(request)),
                          location_term,
                          templates};
  *out = enif_make_tuple_from_array(env, items, 7);
  return NULL;
}

static void bridge_hook(void *user_data, nxrt_request_t *request) {
  nx_runtime_res *rt = user_data;
  ErlNifEnv *msg_env = enif_alloc_env();
  ERL_NIF_TERM message;
  const char *problem = call_message(msg_env, request, &message);
  if (!problem && !enif_send(nx_current_env, &rt->dispatcher, msg_env, message))
    problem = "the dispatcher process is not alive";
  if (problem) {
    /* Answer at once rather than leaving the program waiting for its
     * deadline (or forever, without one). */
    nxrt_status_free(nxrt_bridge_reply(
        rt->runtime, nxrt_request_tag(request),
        nxrt_status_create(NXRT_UNAVAILABLE, problem), NULL, 0));
  }
  enif_free_env(msg_env);
  nxrt_request_release(request);
}

/* runtime_create(dispatcher_pid) -> runtime */
ERL_NIF_TERM nx_runtime_create(ErlNifEnv *env, int argc,
                               const ERL_NIF_TERM argv[]) {
  (void)argc;
  ErlNifPid pid;
  if (!enif_get_local_pid(env, argv[0], &pid))
    return enif_make_badarg(env);
  nx_runtime_res *rt = enif_alloc_resource(nx_runtime_type, sizeof(*rt));
  rt->runtime = nxrt_runtime_create();
  rt->dispatcher = pid;
  nxrt_bridge_set_hook(rt->runtime, bridge_hook, rt);
  ERL_NIF_TERM term = enif_make_resource(env, rt);
  enif_release_resource(rt);
  return term;
}

/* register_callback(runtime, name, timeout_ms) -> :ok | {:error, reason} */
ERL_NIF_TERM nx_register_callback(ErlNifEnv *env, int argc,
                                  const ERL_NIF_TERM argv[]) {
  (void)argc;
  nx_runtime_res *rt;
  ErlNifBinary name;
  ErlNifSInt64 timeout_ms;
  if (!enif_get_resource(env, argv[0], nx_runtime_type, (void **)&rt) ||
      !enif_inspect_binary(env, argv[1], &name) ||
      !enif_get_int64(env, argv[2], &timeout_ms))
    return enif_make_badarg(env);
  if (name.size == 0 || memchr(name.data, 0, name.size))
    return nx_error(env, NXRT_INVALID_ARGUMENT,
                    "a callback name must be non-empty and contain no NUL");
  char *cname = enif_alloc(name.size + 1);
  memcpy(cname, name.data, name.size);
  cname[name.size] = 0;
  nxrt_callback_desc_t desc = {NXRT_DISPATCH_BRIDGE, NULL, NULL, timeout_ms};
  nxrt_status_t *status = nxrt_register_callback(rt->runtime, cname, &desc);
  enif_free(cname);
  return status ? nx_status_error(env, status) : nx_atom(env, "ok");
}

/* reply(runtime, tag, {:ok, [tensor]} | {:error, message}) -> :ok |
 * {:error, reason}. Runs on a normal scheduler on purpose: every dirty CPU
 * scheduler may be busy with a run waiting for this very reply. */
ERL_NIF_TERM nx_reply(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
  (void)argc;
  nx_runtime_res *rt;
  ErlNifUInt64 tag;
  int arity;
  const ERL_NIF_TERM *answer;
  char kind[8];
  if (!enif_get_resource(env, argv[0], nx_runtime_type, (void **)&rt) ||
      !enif_get_uint64(env, argv[1], &tag) ||
      !enif_get_tuple(env, argv[2], &arity, &answer) || arity != 2 ||
      !enif_get_atom(env, answer[0], kind, sizeof(kind), ERL_NIF_LATIN1))
    return enif_make_badarg(env);

  if (strcmp(kind, "error") == 0) {
    ErlNifBinary message;
    if (!enif_inspect_binary(env, answer[1], &message))
      return enif_make_badarg(env);
    char *text = enif_alloc(message.size + 1);
    memcpy(text, message.data, message.size);
    text[message.size] = 0;
    nxrt_status_t *status = nxrt_bridge_reply(
        rt->runtime, tag, nxrt_status_create(NXRT_UNKNOWN, text), NULL, 0);
    enif_free(text);
    return status ? nx_status_error(env, status) : nx_atom(env, "ok");
  }
  if (strcmp(kind, "ok") != 0)
    return enif_make_badarg(env);
  nxrt_tensor_t *results;
  size_t n;
  const char *problem = nx_get_tensors(env, answer[1], &results, &n);
  if (problem) {
    /* Fail the call too, so the program does not wait for its deadline. */
    nxrt_status_free(nxrt_bridge_reply(
        rt->runtime, tag, nxrt_status_create(NXRT_INVALID_ARGUMENT, problem),
        NULL, 0));
    return nx_error(env, NXRT_INVALID_ARGUMENT, "%s", problem);
  }
  nxrt_status_t *status = nxrt_bridge_reply(rt->runtime, tag, NULL, results, n);
  nx_free_tensors(results, n);
  return status ? nx_status_error(env, status) : nx_atom(env, "ok");
}

/* bridge_close(runtime) -> :ok. Pending and later calls fail at once. */
ERL_NIF_TERM nx_bridge_close(ErlNifEnv *env, int argc,
                             const ERL_NIF_TERM argv[]) {
  (void)argc;
  nx_runtime_res *rt;
  if (!enif_get_resource(env, argv[0], nx_runtime_type, (void **)&rt))
    return enif_make_badarg(env);
  nxrt_bridge_close(rt->runtime);
  return nx_atom(env, "ok");
}

static ERL_NIF_TERM make_binary(ErlNifEnv *env, const char *s) {
  ERL_NIF_TERM term;
  size_t len = strlen(s);
  memcpy(enif_make_new_binary(env, len, &term), s, len);
  return term;
}

/* The runtime's tracer: runs on the compute thread after each host call. */
static void trace_hook(void *user_data, const nxrt_trace_event_t *event) {
  nx_runtime_res *rt = user_data;
  ErlNifEnv *msg_env = enif_alloc_env();
  ERL_NIF_TERM items[] = {nx_atom(msg_env, "nx_trace"),
                          make_binary(msg_env, event->name),
                          make_binary(msg_env, event->location),
                          nx_atom(msg_env, nxrt_site_kind_name(event->kind)),
                          nx_atom(msg_env, event->dispatch),
                          enif_make_int64(msg_env, event->duration_ns),
                          nx_atom(msg_env, nx_code_name(event->code))};
  /* A dispatcher that is gone has nobody to tell. */
  (void)enif_send(nx_current_env, &rt->dispatcher, msg_env,
                  enif_make_tuple_from_array(msg_env, items, 7));
  enif_free_env(msg_env);
}

/* set_trace(runtime, enabled) -> :ok. For runs begun afterwards. */
ERL_NIF_TERM nx_set_trace(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
  (void)argc;
  nx_runtime_res *rt;
  char enabled[8];
  if (!enif_get_resource(env, argv[0], nx_runtime_type, (void **)&rt) ||
      !enif_get_atom(env, argv[1], enabled, sizeof(enabled), ERL_NIF_LATIN1))
    return enif_make_badarg(env);
  int on = strcmp(enabled, "true") == 0;
  if (!on && strcmp(enabled, "false") != 0)
    return enif_make_badarg(env);
  nxrt_runtime_set_tracer(rt->runtime, on ? trace_hook : NULL, rt);
  return nx_atom(env, "ok");
}
