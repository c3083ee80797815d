/*===- program.c - load nx-compile objects and run their entry points -----===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * An object written by `nx-compile model.mlir -o model.so` exports
 * P_program (nxrt_aot.h): its entry points with packed wrappers, and
 * P_nx_init, which registers the call sites. A run calls one packed wrapper
 * between nxrt_run_begin and nxrt_run_end on a dirty CPU scheduler (a run
 * nested in a callback on a thread of its own), on private copies of the
 * inputs, and copies the results into binaries.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include "nx_nif.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void nx_program_dtor(ErlNifEnv *env, void *obj) {
  (void)env;
  nx_program_res *p = obj;
  /* The object's code refers to the program's sites: destroy the program
   * while the code is still mapped. */
  nxrt_program_destroy(p->program);
  if (p->handle)
    dlclose(p->handle);
  close(p->fd);
  if (p->rt)
    enif_release_resource(p->rt);
}

/* dlopens a private copy of `path` (an anonymous memfd). P_nx_init stores
 * each site in a record inside the object's data, so two programs sharing
 * one mapping would overwrite each other's sites; a copy per load gives
 * every program its own. libnxrt is found by its SONAME, already loaded.
 * The memfd stays open (*fd) while the object is loaded: the loader knows
 * it as "/proc/self/fd/N" and would hand the same object back to a later
 * dlopen of that name, were N reused. */
static void *open_private_copy(const char *path, int *out_fd, char *error,
                               size_t len) {
  int in = open(path, O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    snprintf(error, len, "cannot open '%s': %m", path);
    return NULL;
  }
  int fd = memfd_create("nx-program", MFD_CLOEXEC);
  if (fd < 0) {
    snprintf(error, len, "cannot create a private copy of '%s': %m", path);
    close(in);
    return NULL;
  }
  char buf[1 << 16];
  ssize_t got;
  while ((got = read(in, buf, sizeof(buf))) > 0)
    if (write(fd, buf, (size_t)got) != got) {
      got = -1;
      break;
    }
  close(in);
  if (got < 0) {
    snprintf(error, len, "cannot copy '%s': %m", path);
    close(fd);
    return NULL;
  }
  char fd_path[64];
  snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", fd);
  void *handle = dlopen(fd_path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    snprintf(error, len, "cannot load '%s': %s", path, dlerror());
    close(fd);
    return NULL;
  }
  *out_fd = fd;
  return handle;
}

/* program_load(runtime, path, prefix) -> {:ok, program} | {:error, reason} */
ERL_NIF_TERM nx_program_load(ErlNifEnv *env, int argc,
                             const ERL_NIF_TERM argv[]) {
  (void)argc;
  nx_runtime_res *rt;
  if (!enif_get_resource(env, argv[0], nx_runtime_type, (void **)&rt))
    return enif_make_badarg(env);
  char *path = nx_binary_to_cstr(env, argv[1]);
  char *prefix = nx_binary_to_cstr(env, argv[2]);
  if (!path || !prefix) {
    enif_free(path);
    enif_free(prefix);
    return enif_make_badarg(env);
  }
  char error[1024];
  ERL_NIF_TERM result;
  int fd = -1;
  void *handle = open_private_copy(path, &fd, error, sizeof(error));
  if (!handle) {
    result = nx_error(env, NXRT_INVALID_ARGUMENT, "%s", error);
    goto done;
  }
  char symbol[512];
  snprintf(symbol, sizeof(symbol), "%s_program", prefix);
  const nxrt_aot_program_t *aot = dlsym(handle, symbol);
  if (!aot) {
    dlclose(handle);
    close(fd);
    result = nx_error(env, NXRT_INVALID_ARGUMENT,
                      "'%s' does not export %s: not an nx-compile object, or "
                      "compiled with another --prefix (pass it as :prefix)",
                      path, symbol);
    goto done;
  }
  if (aot->abi_version != NXRT_AOT_ABI_VERSION ||
      aot->api_version != nxrt_api_version()) {
    unsigned abi = aot->abi_version, api = aot->api_version;
    dlclose(handle);
    close(fd);
    result = nx_error(env, NXRT_FAILED_PRECONDITION,
                      "'%s' has AOT ABI version %u and libnxrt API version "
                      "%u, this NIF reads %u with libnxrt %u: recompile it "
                      "with nx-compile",
                      path, abi, api, NXRT_AOT_ABI_VERSION, nxrt_api_version());
    goto done;
  }
  nx_program_res *p = enif_alloc_resource(nx_program_type, sizeof(*p));
  enif_keep_resource(rt);
  p->rt = rt;
  p->handle = handle;
  p->fd = fd;
  p->aot = aot;
  p->program = nxrt_program_create(rt->runtime, aot->name ? aot->name : path);
  nxrt_status_t *status = aot->init ? aot->init(p->program) : NULL;
  if (status) {
    char message[1024];
    snprintf(message, sizeof(message), "loading '%s' failed (%s_nx_init): %s",
             path, prefix, nxrt_status_message(status));
    result = nx_error(env, nxrt_status_code(status), "%s", message);
    nxrt_status_free(status);
  } else {
    result = nx_ok(env, enif_make_resource(env, p));
  }
  enif_release_resource(p);
done:
  enif_free(path);
  enif_free(prefix);
  return result;
}

static ERL_NIF_TERM make_types(ErlNifEnv *env, const nxrt_aot_tensor_type_t *t,
                               int32_t n) {
  ERL_NIF_TERM list = enif_make_list(env, 0);
  for (int32_t i = n; i-- > 0;)
    list = enif_make_list_cell(
        env,
        enif_make_tuple2(env, nx_make_dtype(env, t[i].dtype),
                         nx_make_shape(env, t[i].rank, t[i].dims)),
        list);
  return list;
}

/* program_entries(program) -> [{name, arg_types, result_types}]; a dynamic
 * dimension is -1. */
ERL_NIF_TERM nx_program_entries(ErlNifEnv *env, int argc,
                                const ERL_NIF_TERM argv[]) {
  (void)argc;
  nx_program_res *p;
  if (!enif_get_resource(env, argv[0], nx_program_type, (void **)&p))
    return enif_make_badarg(env);
  ERL_NIF_TERM list = enif_make_list(env, 0);
  for (int32_t i = p->aot->num_entries; i-- > 0;) {
    const nxrt_aot_entry_t *e = &p->aot->entries[i];
    ERL_NIF_TERM name;
    size_t len = strlen(e->name);
    memcpy(enif_make_new_binary(env, len, &name), e->name, len);
    list = enif_make_list_cell(
        env,
        enif_make_tuple3(env, name, make_types(env, e->args, e->num_args),
                         make_types(env, e->results, e->num_results)),
        list);
  }
  return list;
}

/* MLIR's memref descriptor: {allocated, aligned, offset, sizes[rank],
 * strides[rank]}, every field 8 bytes. */
static size_t descriptor_words(int32_t rank) { return 3 + 2 * (size_t)rank; }

static const nxrt_aot_entry_t *find_entry(const nxrt_aot_program_t *aot,
                                          const ErlNifBinary *name) {
  for (int32_t i = 0; i < aot->num_entries; ++i)
    if (strlen(aot->entries[i].name) == name->size &&
        memcmp(aot->entries[i].name, name->data, name->size) == 0)
      return &aot->entries[i];
  return NULL;
}

static ERL_NIF_TERM no_such_entry(ErlNifEnv *env, const nxrt_aot_program_t *aot,
                                  const ErlNifBinary *name) {
  char available[512] = "";
  size_t used = 0;
  for (int32_t i = 0; i < aot->num_entries && used < sizeof(available); ++i)
    used += (size_t)snprintf(available + used, sizeof(available) - used,
                             "%s@%s", i ? ", " : "", aot->entries[i].name);
  return nx_error(env, NXRT_NOT_FOUND,
                  "no public function @%.*s in the program (available: %s)",
                  (int)name->size, (const char *)name->data,
                  aot->num_entries ? available : "none");
}

/* Checks the inputs against the entry's argument types. */
static ERL_NIF_TERM check_inputs(ErlNifEnv *env, const nxrt_aot_entry_t *entry,
                                 const nxrt_tensor_t *inputs, size_t n,
                                 int *ok) {
  *ok = 0;
  if (n != (size_t)entry->num_args)
    return nx_error(env, NXRT_INVALID_ARGUMENT,
                    "@%s takes %d argument(s), got %zu", entry->name,
                    entry->num_args, n);
  for (size_t i = 0; i < n; ++i) {
    const nxrt_aot_tensor_type_t *want = &entry->args[i];
    int match = inputs[i].dtype == want->dtype && inputs[i].rank == want->rank;
    for (int32_t d = 0; match && d < want->rank; ++d)
      match = want->dims[d] < 0 || want->dims[d] == inputs[i].dims[d];
    if (!match) {
      char want_s[256], got_s[256];
      nx_type_string(want_s, sizeof(want_s), want->dtype, want->rank,
                     want->dims);
      nx_type_string(got_s, sizeof(got_s), inputs[i].dtype, inputs[i].rank,
                     inputs[i].dims);
      return nx_error(env, NXRT_INVALID_ARGUMENT,
                      "argument #%zu of @%s has type %s, got %s", i,
                      entry->name, want_s, got_s);
    }
  }
  *ok = 1;
  return 0;
}

/* Copies a strided memref into a fresh binary, as a dense tensor term. */
static ERL_NIF_TERM result_term(ErlNifEnv *env, nxrt_dtype_t dtype,
                                int32_t rank, const int64_t *word) {
  const int64_t *sizes = word + 3, *strides = word + 3 + rank;
  const uint8_t *aligned;
  memcpy(&aligned, &word[1], sizeof(void *));
  size_t elem = nxrt_dtype_size(dtype);
  size_t count = 1;
  for (int32_t d = 0; d < rank; ++d)
    count *= (size_t)sizes[d];
  ERL_NIF_TERM data;
  uint8_t *out = enif_make_new_binary(env, count * elem, &data);
  if (count && aligned) {
    const uint8_t *base = aligned + word[2] * (int64_t)elem;
    int64_t index[rank ? rank : 1];
    memset(index, 0, sizeof(index));
    for (size_t i = 0; i < count; ++i) {
      int64_t offset = 0;
      for (int32_t d = 0; d < rank; ++d)
        offset += index[d] * strides[d];
      memcpy(out + i * elem, base + offset * (int64_t)elem, elem);
      for (int32_t d = rank - 1; d >= 0; --d) {
        if (++index[d] < sizes[d])
          break;
        index[d] = 0;
      }
    }
  }
  return enif_make_tuple3(env, data, nx_make_dtype(env, dtype),
                          nx_make_shape(env, rank, sizes));
}

static int contains(void *const *ptrs, size_t n, const void *p) {
  for (size_t i = 0; i < n; ++i)
    if (ptrs[i] == p)
      return 1;
  return 0;
}

/* One run: the entry point, private copies of its inputs (compiled code
 * may update its arguments in place, and binaries are immutable) and their
 * descriptors, and room for its results' descriptors. Owns a reference to
 * the program. */
typedef struct {
  nx_program_res *program;
  const nxrt_aot_entry_t *entry;
  size_t n;
  void **copies;
  int64_t **descs;
  void **packed;
  int64_t *result_desc;
  void *result_ptr;
  int64_t timeout_ms;
} run_job;

static void free_job(run_job *job) {
  for (size_t i = 0; i < job->n; ++i) {
    free(job->copies[i]);
    enif_free(job->descs[i]);
  }
  enif_free(job->result_desc);
  enif_free(job->packed);
  enif_free(job->descs);
  enif_free(job->copies);
  enif_release_resource(job->program);
  enif_free(job);
}

/* Reads run's arguments (program, entry, inputs, timeout_ms) into a job;
 * returns 0 and sets *out, or the error term. */
static ERL_NIF_TERM prepare_run(ErlNifEnv *env, const ERL_NIF_TERM argv[],
                                run_job **out) {
  nx_program_res *p;
  ErlNifBinary name;
  ErlNifSInt64 timeout_ms;
  if (!enif_get_resource(env, argv[0], nx_program_type, (void **)&p) ||
      !enif_inspect_binary(env, argv[1], &name) ||
      !enif_get_int64(env, argv[3], &timeout_ms))
    return enif_make_badarg(env);
  const nxrt_aot_entry_t *entry = find_entry(p->aot, &name);
  if (!entry)
    return no_such_entry(env, p->aot, &name);
  if (!entry->packed)
    return nx_error(env, NXRT_UNIMPLEMENTED,
                    "@%s cannot be run: the object has no packed interface "
                    "for it",
                    entry->name);
  nxrt_tensor_t *inputs;
  size_t n;
  const char *problem = nx_get_tensors(env, argv[2], &inputs, &n);
  if (problem)
    return nx_error(env, NXRT_INVALID_ARGUMENT, "%s", problem);
  int ok;
  ERL_NIF_TERM error = check_inputs(env, entry, inputs, n, &ok);
  if (!ok) {
    nx_free_tensors(inputs, n);
    return error;
  }

  run_job *job = enif_alloc(sizeof(run_job));
  enif_keep_resource(p);
  job->program = p;
  job->entry = entry;
  job->n = n;
  job->timeout_ms = timeout_ms;
  size_t nres = (size_t)entry->num_results;
  size_t result_words = 0;
  for (size_t r = 0; r < nres; ++r)
    result_words += descriptor_words(entry->results[r].rank);
  job->copies = enif_alloc(sizeof(void *) * (n + 1));
  job->descs = enif_alloc(sizeof(int64_t *) * (n + 1));
  job->packed = enif_alloc(sizeof(void *) * (n + 1));
  job->result_desc = enif_alloc(sizeof(int64_t) * (result_words + 1));
  memset(job->result_desc, 0, sizeof(int64_t) * (result_words + 1));
  job->result_ptr = job->result_desc;
  size_t k = 0;
  if (nres)
    job->packed[k++] = &job->result_ptr;
  for (size_t i = 0; i < n; ++i) {
    size_t size = nxrt_tensor_byte_size(&inputs[i]);
    job->copies[i] = aligned_alloc(64, (size + 63) / 64 * 64 + 64);
    if (size)
      memcpy(job->copies[i], inputs[i].data, size);
    int32_t rank = inputs[i].rank;
    int64_t *d = enif_alloc(sizeof(int64_t) * descriptor_words(rank));
    memcpy(&d[0], &job->copies[i], sizeof(void *));
    memcpy(&d[1], &job->copies[i], sizeof(void *));
    d[2] = 0;
    int64_t stride = 1;
    for (int32_t j = rank; j-- > 0;) {
      d[3 + j] = inputs[i].dims[j];
      d[3 + rank + j] = stride;
      stride *= inputs[i].dims[j];
    }
    job->descs[i] = d;
    job->packed[k++] = &job->descs[i];
  }
  nx_free_tensors(inputs, n);
  *out = job;
  return 0;
}

/* Runs the job and frees it; returns {:ok, [tensor]} or the error, made in
 * `env`. `scheduler_env` is the calling NIF's environment on a scheduler
 * thread, NULL on a thread of our own (what enif_send wants there). */
static ERL_NIF_TERM finish_run(ErlNifEnv *env, ErlNifEnv *scheduler_env,
                               run_job *job) {
  const nxrt_aot_entry_t *entry = job->entry;
  nxrt_run_options_t options = {job->timeout_ms};
  ErlNifEnv *outer_env = nx_current_env;
  nx_current_env = scheduler_env;
  nxrt_run_t *run = nxrt_run_begin(job->program->rt->runtime, &options);
  entry->packed(job->packed);
  nxrt_status_t *status = nxrt_run_end(run);
  nx_current_env = outer_env;

  /* Results first (one may alias an input copy), then free what compiled
   * code allocated: once each, never the inputs or constant globals. */
  size_t nres = (size_t)entry->num_results;
  ERL_NIF_TERM list = enif_make_list(env, 0);
  ERL_NIF_TERM *terms = enif_alloc(sizeof(ERL_NIF_TERM) * (nres + 1));
  void **to_free = enif_alloc(sizeof(void *) * (nres + 1));
  size_t nfree = 0;
  const int64_t *word = job->result_desc;
  for (size_t r = 0; r < nres; ++r) {
    int32_t rank = entry->results[r].rank;
    void *allocated;
    memcpy(&allocated, &word[0], sizeof(void *));
    if (!status)
      terms[r] = result_term(env, entry->results[r].dtype, rank, word);
    if (allocated && (uintptr_t)allocated != NXRT_AOT_CONSTANT_BUFFER &&
        !contains(job->copies, job->n, allocated) &&
        !contains(to_free, nfree, allocated))
      to_free[nfree++] = allocated;
    word += descriptor_words(rank);
  }
  for (size_t i = 0; i < nfree; ++i)
    free(to_free[i]);
  if (!status)
    for (size_t r = nres; r-- > 0;)
      list = enif_make_list_cell(env, terms[r], list);
  enif_free(to_free);
  enif_free(terms);
  free_job(job);
  return status ? nx_status_error(env, status) : nx_ok(env, list);
}

/* run(program, entry, inputs, timeout_ms) -> {:ok, [tensor]} |
 * {:error, {code, message}}. Dirty CPU: compiled compute runs here, and
 * the thread parks in libnxrt while the dispatcher serves its callbacks. */
ERL_NIF_TERM nx_run(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
  (void)argc;
  run_job *job;
  ERL_NIF_TERM error = prepare_run(env, argv, &job);
  if (error)
    return error;
  return finish_run(env, env, job);
}

/* What a thread of run_async needs to answer its caller. */
typedef struct {
  run_job *job;
  ErlNifPid caller;
  ErlNifEnv *msg_env;
  ERL_NIF_TERM ref;
} async_run;

static void *run_on_own_thread(void *arg) {
  async_run *async = arg;
  ERL_NIF_TERM result = finish_run(async->msg_env, NULL, async->job);
  (void)enif_send(NULL, &async->caller, async->msg_env,
                  enif_make_tuple2(async->msg_env, async->ref, result));
  enif_free_env(async->msg_env);
  enif_free(async);
  return NULL;
}

/* run_async(program, entry, inputs, timeout_ms, ref) -> :ok | {:error, ...}:
 * the run goes on a thread of its own, which sends {ref, result} (result as
 * run/4 returns it) to the caller. For runs begun inside a callback: a run
 * holds its thread while it waits for callbacks, and nested runs on dirty
 * schedulers would deadlock once they outnumber them. */
ERL_NIF_TERM nx_run_async(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
  (void)argc;
  run_job *job;
  ERL_NIF_TERM error = prepare_run(env, argv, &job);
  if (error)
    return error;
  async_run *async = enif_alloc(sizeof(async_run));
  async->job = job;
  enif_self(env, &async->caller);
  async->msg_env = enif_alloc_env();
  async->ref = enif_make_copy(async->msg_env, argv[4]);
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  int failed = pthread_create(&thread, &attributes, run_on_own_thread, async);
  pthread_attr_destroy(&attributes);
  if (failed) {
    enif_free_env(async->msg_env);
    enif_free(async);
    free_job(job);
    return nx_error(env, NXRT_RESOURCE_EXHAUSTED,
                    "cannot start a thread for a nested run: %s",
                    strerror(failed));
  }
  return enif_make_atom(env, "ok");
}
