/*===- TestFfiHandlers.c - XLA FFI handlers for the integration tests ----===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Handlers written in C against the XLA FFI C ABI only (nxrt/xla_ffi.h),
 * the way a library built for XLA or JAX is: nothing here knows nx. The
 * library registers them as it loads, through XLA_FFI_GetApi(), as
 * XLA_FFI_REGISTER_HANDLER does in XLA's C++ header.
 *
 *   test_ffi.rms_norm      (x: f32[..., N]) -> f32[..., N], attribute eps
 *                          (f32): x / sqrt(mean(x^2 over the last axis) +
 *                          eps).
 *   test_ffi.rms_norm_fwd  as rms_norm, with a second result: the
 *                          1/sqrt(...) of each row (f32[...]).
 *   test_ffi.affine        (x: f32[...]) -> f32[...], attribute dictionary
 *                          `config` {scale: f32, offset: i64, tag: string,
 *                          weights: array<f64>}: x * scale + offset +
 *                          sum(weights); tag must be "affine".
 *   test_ffi.counter       (x: any) -> i64[]: a per-call-site counter kept
 *                          as the handler's state, which its instantiate
 *                          stage creates from attribute `start` (i64); the
 *                          state's deleter prints "counter state deleted".
 *   test_ffi.parallel_scale (x: f32[N]) -> f32[N], attribute factor (f32):
 *                          x * factor, in chunks on the runtime's thread
 *                          pool.
 *   test_ffi.async_add_one (x: f32[N]) -> f32[N]: x + 1, computed on a
 *                          thread of its own; the call completes through a
 *                          future.
 *   test_ffi.fail          always fails with INVALID_ARGUMENT.
 *   test_ffi.double_in_place (x: f32[N]) -> f32[N]: 2 * x; attribute
 *                          aliased (bool) says whether the result must be
 *                          the operand's buffer (output_operand_aliases) or
 *                          must not, and the call fails otherwise.
 *
 * nx_test_ffi_negate (f32[N]) -> f32[N] is exported but not registered: a
 * runner binds it with --ffi-target=NAME=nx_test_ffi_negate.
 *===----------------------------------------------------------------------===*/

#include "nxrt/xla_ffi.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/*--- What every handler does first ---*/

static XLA_FFI_Error *make_error(const XLA_FFI_Api *api,
                                 XLA_FFI_Error_Code code, const char *message) {
  XLA_FFI_Error_Create_Args args;
  memset(&args, 0, sizeof(args));
  args.struct_size = XLA_FFI_Error_Create_Args_STRUCT_SIZE;
  args.message = message;
  args.errc = code;
  return api->XLA_FFI_Error_Create(&args);
}

/* Answers the runtime's metadata query, as handlers built with XLA's C++
 * header do. Returns 1 when the call was that query. */
static int answer_metadata(XLA_FFI_CallFrame *frame) {
  XLA_FFI_Extension_Base *ext = frame->extension_start;
  if (!ext || ext->type != XLA_FFI_Extension_Metadata)
    return 0;
  XLA_FFI_Metadata *metadata = ((XLA_FFI_Metadata_Extension *)ext)->metadata;
  metadata->api_version.major_version = XLA_FFI_API_MAJOR;
  metadata->api_version.minor_version = XLA_FFI_API_MINOR;
  metadata->traits = 0;
  return 1;
}

/* Checks the frame's size and its counts of arguments and results.
 * Messages follow XLA's decoding errors. */
static XLA_FFI_Error *decode(XLA_FFI_CallFrame *frame, int64_t nargs,
                             int64_t nrets) {
  /* As strict as XLA's C++ header, which wants this exact size. */
  if (frame->struct_size != XLA_FFI_CallFrame_STRUCT_SIZE)
    return make_error(frame->api, XLA_FFI_Error_Code_INVALID_ARGUMENT,
                      "Unexpected XLA_FFI_CallFrame size");
  if (frame->args.size != nargs || frame->rets.size != nrets) {
    char message[160];
    snprintf(message, sizeof(message),
             "Failed to decode all FFI handler operands: expected %lld "
             "argument(s) and %lld result(s), got %lld and %lld",
             (long long)nargs, (long long)nrets, (long long)frame->args.size,
             (long long)frame->rets.size);
    return make_error(frame->api, XLA_FFI_Error_Code_INVALID_ARGUMENT, message);
  }
  return NULL;
}

static XLA_FFI_Buffer *arg(XLA_FFI_CallFrame *frame, int64_t i) {
  return (XLA_FFI_Buffer *)frame->args.args[i];
}

static XLA_FFI_Buffer *ret(XLA_FFI_CallFrame *frame, int64_t i) {
  return (XLA_FFI_Buffer *)frame->rets.rets[i];
}

static XLA_FFI_Error *expect_f32(XLA_FFI_CallFrame *frame,
                                 const XLA_FFI_Buffer *buffer,
                                 const char *what) {
  if (buffer->dtype == XLA_FFI_DataType_F32)
    return NULL;
  char message[160];
  snprintf(message, sizeof(message),
           "Failed to decode all FFI handler operands: %s has dtype %d, "
           "expected f32 (%d)",
           what, (int)buffer->dtype, (int)XLA_FFI_DataType_F32);
  return make_error(frame->api, XLA_FFI_Error_Code_INVALID_ARGUMENT, message);
}

static int64_t elements(const XLA_FFI_Buffer *buffer) {
  int64_t n = 1;
  for (int64_t i = 0; i < buffer->rank; ++i)
    n *= buffer->dims[i];
  return n;
}

/* The attribute `name` of `attrs`, by binary search: the runtime sorts
 * them by name. NULL when absent. */
static void *find_attr(const XLA_FFI_Attrs *attrs, const char *name,
                       XLA_FFI_AttrType type) {
  size_t len = strlen(name);
  int64_t lo = 0, hi = attrs->size;
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    const XLA_FFI_ByteSpan *key = attrs->names[mid];
    size_t common = key->len < len ? key->len : len;
    int order = memcmp(key->ptr, name, common);
    if (order == 0)
      order = key->len < len ? -1 : key->len > len ? 1 : 0;
    if (order == 0)
      return attrs->types[mid] == type ? attrs->attrs[mid] : NULL;
    if (order < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

static XLA_FFI_Error *missing(XLA_FFI_CallFrame *frame, const char *name,
                              const char *type) {
  char message[160];
  snprintf(message, sizeof(message),
           "Failed to decode all FFI handler attributes: no %s attribute '%s'",
           type, name);
  return make_error(frame->api, XLA_FFI_Error_Code_INVALID_ARGUMENT, message);
}

static const float *f32_scalar(const XLA_FFI_Attrs *attrs, const char *name) {
  XLA_FFI_Scalar *s = find_attr(attrs, name, XLA_FFI_AttrType_SCALAR);
  return s && s->dtype == XLA_FFI_DataType_F32 ? (const float *)s->value : NULL;
}

static const int64_t *s64_scalar(const XLA_FFI_Attrs *attrs, const char *name) {
  XLA_FFI_Scalar *s = find_attr(attrs, name, XLA_FFI_AttrType_SCALAR);
  return s && s->dtype == XLA_FFI_DataType_S64 ? (const int64_t *)s->value
                                               : NULL;
}

#define TRY(expr)                                                              \
  do {                                                                         \
    XLA_FFI_Error *error_ = (expr);                                            \
    if (error_)                                                                \
      return error_;                                                           \
  } while (0)

/*--- rms_norm and rms_norm_fwd ---*/

static XLA_FFI_Error *rms_norm_impl(XLA_FFI_CallFrame *frame, int64_t nrets) {
  if (answer_metadata(frame))
    return NULL;
  TRY(decode(frame, 1, nrets));
  XLA_FFI_Buffer *x = arg(frame, 0), *y = ret(frame, 0);
  TRY(expect_f32(frame, x, "argument 0"));
  TRY(expect_f32(frame, y, "result 0"));
  const float *eps = f32_scalar(&frame->attrs, "eps");
  if (!eps)
    return missing(frame, "eps", "f32");
  if (x->rank < 1)
    return make_error(frame->api, XLA_FFI_Error_Code_INVALID_ARGUMENT,
                      "Failed to decode all FFI handler operands: rms_norm "
                      "needs rank >= 1");
  int64_t n = x->dims[x->rank - 1];
  int64_t rows = n ? elements(x) / n : 0;
  const float *in = x->data;
  float *out = y->data;
  float *scale = nrets > 1 ? ret(frame, 1)->data : NULL;
  for (int64_t r = 0; r < rows; ++r) {
    float sum = 0;
    for (int64_t i = 0; i < n; ++i)
      sum += in[r * n + i] * in[r * n + i];
    float s = 1.0f / sqrtf(sum / (float)n + *eps);
    for (int64_t i = 0; i < n; ++i)
      out[r * n + i] = in[r * n + i] * s;
    if (scale)
      scale[r] = s;
  }
  return NULL;
}

static XLA_FFI_Error *rms_norm(XLA_FFI_CallFrame *frame) {
  return rms_norm_impl(frame, 1);
}

static XLA_FFI_Error *rms_norm_fwd(XLA_FFI_CallFrame *frame) {
  return rms_norm_impl(frame, 2);
}

/*--- affine: a dictionary attribute ---*/

static XLA_FFI_Error *affine(XLA_FFI_CallFrame *frame) {
  if (answer_metadata(frame))
    return NULL;
  TRY(decode(frame, 1, 1));
  XLA_FFI_Buffer *x = arg(frame, 0), *y = ret(frame, 0);
  TRY(expect_f32(frame, x, "argument 0"));
  const XLA_FFI_Attrs *config =
      find_attr(&frame->attrs, "config", XLA_FFI_AttrType_DICTIONARY);
  if (!config)
    return missing(frame, "config", "dictionary");
  const float *scale = f32_scalar(config, "scale");
  const int64_t *offset = s64_scalar(config, "offset");
  const XLA_FFI_ByteSpan *tag =
      find_attr(config, "tag", XLA_FFI_AttrType_STRING);
  const XLA_FFI_Array *weights =
      find_attr(config, "weights", XLA_FFI_AttrType_ARRAY);
  if (!scale || !offset || !tag || !weights ||
      weights->dtype != XLA_FFI_DataType_F64)
    return missing(frame, "config.{scale,offset,tag,weights}",
                   "f32, i64, string and array<f64>");
  if (tag->len != 6 || memcmp(tag->ptr, "affine", 6) != 0)
    return make_error(frame->api, XLA_FFI_Error_Code_INVALID_ARGUMENT,
                      "config.tag is not 'affine'");
  double bias = (double)*offset;
  for (size_t i = 0; i < weights->size; ++i)
    bias += ((const double *)weights->data)[i];
  const float *in = x->data;
  float *out = y->data;
  for (int64_t i = 0, n = elements(x); i < n; ++i)
    out[i] = (float)(in[i] * *scale + bias);
  return NULL;
}

/*--- counter: state from the instantiate stage ---*/

static XLA_FFI_TypeId counter_type = {0};

static void delete_counter(void *state) {
  free(state);
  fprintf(stderr, "counter state deleted\n");
}

static XLA_FFI_Error *counter_instantiate(XLA_FFI_CallFrame *frame) {
  if (answer_metadata(frame))
    return NULL;
  const int64_t *start = s64_scalar(&frame->attrs, "start");
  if (!start)
    return missing(frame, "start", "i64");
  int64_t *count = malloc(sizeof(int64_t));
  *count = *start;
  XLA_FFI_State_Set_Args args;
  memset(&args, 0, sizeof(args));
  args.struct_size = XLA_FFI_State_Set_Args_STRUCT_SIZE;
  args.ctx = frame->ctx;
  args.stage = XLA_FFI_ExecutionStage_INSTANTIATE;
  args.type_id = &counter_type;
  args.state = count;
  XLA_FFI_Error *error = frame->api->XLA_FFI_State_Set(&args);
  if (error)
    free(count);
  return error;
}

static XLA_FFI_Error *counter_execute(XLA_FFI_CallFrame *frame) {
  if (answer_metadata(frame))
    return NULL;
  TRY(decode(frame, 1, 1));
  XLA_FFI_State_Get_Args args;
  memset(&args, 0, sizeof(args));
  args.struct_size = XLA_FFI_State_Get_Args_STRUCT_SIZE;
  args.ctx = frame->ctx;
  args.stage = XLA_FFI_ExecutionStage_INSTANTIATE;
  args.type_id = &counter_type;
  TRY(frame->api->XLA_FFI_State_Get(&args));
  int64_t *count = args.state;
  *(int64_t *)ret(frame, 0)->data = (*count)++;
  return NULL;
}

/*--- parallel_scale: the thread pool ---*/

struct scale_job {
  const float *in;
  float *out;
  int64_t begin, end;
  float factor;
  atomic_int *remaining;
  pthread_mutex_t *mu;
  pthread_cond_t *done;
};

static void scale_chunk(void *data) {
  struct scale_job *job = data;
  for (int64_t i = job->begin; i < job->end; ++i)
    job->out[i] = job->in[i] * job->factor;
  pthread_mutex_lock(job->mu);
  if (atomic_fetch_sub(job->remaining, 1) == 1)
    pthread_cond_signal(job->done);
  pthread_mutex_unlock(job->mu);
}

static XLA_FFI_Error *parallel_scale(XLA_FFI_CallFrame *frame) {
  if (answer_metadata(frame))
    return NULL;
  TRY(decode(frame, 1, 1));
  XLA_FFI_Buffer *x = arg(frame, 0), *y = ret(frame, 0);
  TRY(expect_f32(frame, x, "argument 0"));
  const float *factor = f32_scalar(&frame->attrs, "factor");
  if (!factor)
    return missing(frame, "factor", "f32");
  int64_t threads = 0;
  XLA_FFI_ThreadPool_NumThreads_Args count;
  memset(&count, 0, sizeof(count));
  count.struct_size = XLA_FFI_ThreadPool_NumThreads_Args_STRUCT_SIZE;
  count.ctx = frame->ctx;
  count.num_threads = &threads;
  TRY(frame->api->XLA_FFI_ThreadPool_NumThreads(&count));
  int64_t n = elements(x), chunks = threads < 1 ? 1 : threads + 1;
  struct scale_job *jobs = calloc((size_t)chunks, sizeof(*jobs));
  atomic_int remaining = (int)chunks;
  pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t done = PTHREAD_COND_INITIALIZER;
  for (int64_t c = 0; c < chunks; ++c) {
    jobs[c] = (struct scale_job){
        x->data,    y->data, n * c / chunks, n * (c + 1) / chunks, *factor,
        &remaining, &mu,     &done};
    XLA_FFI_ThreadPool_Schedule_Args args;
    memset(&args, 0, sizeof(args));
    args.struct_size = XLA_FFI_ThreadPool_Schedule_Args_STRUCT_SIZE;
    args.ctx = frame->ctx;
    args.task = scale_chunk;
    args.data = &jobs[c];
    XLA_FFI_Error *error = frame->api->XLA_FFI_ThreadPool_Schedule(&args);
    if (error) /* run it here: the pool may be absent */
      scale_chunk(&jobs[c]);
  }
  pthread_mutex_lock(&mu);
  while (atomic_load(&remaining) > 0)
    pthread_cond_wait(&done, &mu);
  pthread_mutex_unlock(&mu);
  free(jobs);
  return NULL;
}

/*--- async_add_one: a future ---*/

struct async_job {
  const XLA_FFI_Api *api;
  XLA_FFI_Future *future;
  const float *in;
  float *out;
  int64_t n;
};

static void *add_one_later(void *data) {
  struct async_job *job = data;
  for (int64_t i = 0; i < job->n; ++i)
    job->out[i] = job->in[i] + 1.0f;
  XLA_FFI_Future_SetAvailable_Args args;
  memset(&args, 0, sizeof(args));
  args.struct_size = XLA_FFI_Future_SetAvailable_Args_STRUCT_SIZE;
  args.future = job->future;
  job->api->XLA_FFI_Future_SetAvailable(&args);
  free(job);
  return NULL;
}

static XLA_FFI_Error *async_add_one(XLA_FFI_CallFrame *frame) {
  if (answer_metadata(frame))
    return NULL;
  TRY(decode(frame, 1, 1));
  XLA_FFI_Buffer *x = arg(frame, 0), *y = ret(frame, 0);
  TRY(expect_f32(frame, x, "argument 0"));
  XLA_FFI_Future_Create_Args create;
  memset(&create, 0, sizeof(create));
  create.struct_size = XLA_FFI_Future_Create_Args_STRUCT_SIZE;
  TRY(frame->api->XLA_FFI_Future_Create(&create));
  struct async_job *job = malloc(sizeof(*job));
  *job = (struct async_job){frame->api, create.future, x->data, y->data,
                            elements(x)};
  pthread_t thread;
  if (pthread_create(&thread, NULL, add_one_later, job) != 0) {
    add_one_later(job);
  } else {
    pthread_detach(thread);
  }
  frame->future = create.future;
  return NULL;
}

/*--- fail ---*/

static XLA_FFI_Error *fail(XLA_FFI_CallFrame *frame) {
  if (answer_metadata(frame))
    return NULL;
  return make_error(frame->api, XLA_FFI_Error_Code_INVALID_ARGUMENT,
                    "the fail handler always fails");
}

/*--- double_in_place: output_operand_aliases ---*/

static XLA_FFI_Error *double_in_place(XLA_FFI_CallFrame *frame) {
  if (answer_metadata(frame))
    return NULL;
  TRY(decode(frame, 1, 1));
  XLA_FFI_Buffer *x = arg(frame, 0), *y = ret(frame, 0);
  TRY(expect_f32(frame, x, "argument 0"));
  XLA_FFI_Scalar *aliased =
      find_attr(&frame->attrs, "aliased", XLA_FFI_AttrType_SCALAR);
  if (!aliased || aliased->dtype != XLA_FFI_DataType_PRED)
    return missing(frame, "aliased", "bool");
  int expected = *(const uint8_t *)aliased->value;
  if ((x->data == y->data) != expected)
    return make_error(frame->api, XLA_FFI_Error_Code_FAILED_PRECONDITION,
                      expected ? "the result is not the operand's buffer"
                               : "the result is the operand's buffer");
  const float *in = x->data;
  float *out = y->data;
  for (int64_t i = 0, n = elements(x); i < n; ++i)
    out[i] = 2 * in[i];
  return NULL;
}

/*--- ordered_log: tokens in and out, as XLA's Token (BufferR0<TOKEN>) ---*/

static XLA_FFI_Error *expect_token(XLA_FFI_CallFrame *frame,
                                   const XLA_FFI_Buffer *buffer,
                                   const char *what) {
  if (buffer->dtype == XLA_FFI_DataType_TOKEN && buffer->rank == 0 &&
      buffer->data == NULL)
    return NULL;
  char message[160];
  snprintf(message, sizeof(message),
           "Failed to decode all FFI handler operands: %s is not a token "
           "(dtype %d, rank %lld)",
           what, (int)buffer->dtype, (long long)buffer->rank);
  return make_error(frame->api, XLA_FFI_Error_Code_INVALID_ARGUMENT, message);
}

/* (token, f32 x) -> (f32 sum, token): prints the running call count and
 * the sum of x, so a test sees the calls' order. */
static XLA_FFI_Error *ordered_log(XLA_FFI_CallFrame *frame) {
  static int calls;
  if (answer_metadata(frame))
    return NULL;
  TRY(decode(frame, 2, 2));
  TRY(expect_token(frame, arg(frame, 0), "argument 0"));
  TRY(expect_f32(frame, arg(frame, 1), "argument 1"));
  TRY(expect_f32(frame, ret(frame, 0), "result 0"));
  TRY(expect_token(frame, ret(frame, 1), "result 1"));
  const float *in = arg(frame, 1)->data;
  float sum = 0;
  for (int64_t i = 0, n = elements(arg(frame, 1)); i < n; ++i)
    sum += in[i];
  *(float *)ret(frame, 0)->data = sum;
  printf("ordered_log call %d: sum %g\n", ++calls, sum);
  fflush(stdout);
  return NULL;
}

/*--- Exported, not registered ---*/

EXPORT XLA_FFI_Error *nx_test_ffi_negate(XLA_FFI_CallFrame *frame) {
  if (answer_metadata(frame))
    return NULL;
  TRY(decode(frame, 1, 1));
  XLA_FFI_Buffer *x = arg(frame, 0), *y = ret(frame, 0);
  TRY(expect_f32(frame, x, "argument 0"));
  const float *in = x->data;
  float *out = y->data;
  for (int64_t i = 0, n = elements(x); i < n; ++i)
    out[i] = -in[i];
  return NULL;
}

/*--- Registration as the library loads ---*/

static void register_handler(const char *name, XLA_FFI_Handler *instantiate,
                             XLA_FFI_Handler *execute) {
  const XLA_FFI_Api *api = XLA_FFI_GetApi();
  XLA_FFI_Handler_Register_Args args;
  memset(&args, 0, sizeof(args));
  args.struct_size = XLA_FFI_Handler_Register_Args_STRUCT_SIZE;
  args.name.ptr = name;
  args.name.len = strlen(name);
  args.platform.ptr = "Host";
  args.platform.len = 4;
  args.bundle.instantiate = instantiate;
  args.bundle.execute = execute;
  XLA_FFI_Error *error = api->XLA_FFI_Handler_Register(&args);
  if (error) {
    XLA_FFI_Error_GetMessage_Args get;
    memset(&get, 0, sizeof(get));
    get.struct_size = XLA_FFI_Error_GetMessage_Args_STRUCT_SIZE;
    get.error = error;
    api->XLA_FFI_Error_GetMessage(&get);
    fprintf(stderr, "cannot register %s: %s\n", name, get.message);
    XLA_FFI_Error_Destroy_Args destroy = {
        XLA_FFI_Error_Destroy_Args_STRUCT_SIZE, NULL, error};
    api->XLA_FFI_Error_Destroy(&destroy);
  }
}

static void register_counter_type(void) {
  static const XLA_FFI_TypeInfo info = {XLA_FFI_TypeInfo_STRUCT_SIZE, NULL,
                                        delete_counter};
  XLA_FFI_Type_Register_Args args;
  memset(&args, 0, sizeof(args));
  args.struct_size = XLA_FFI_Type_Register_Args_STRUCT_SIZE;
  args.name.ptr = "test_ffi.Counter";
  args.name.len = strlen(args.name.ptr);
  args.type_id = &counter_type;
  args.type_info = &info;
  XLA_FFI_Error *error = XLA_FFI_GetApi()->XLA_FFI_Type_Register(&args);
  if (error)
    fprintf(stderr, "cannot register the counter type\n");
}

__attribute__((constructor)) static void register_handlers(void) {
  register_counter_type();
  register_handler("test_ffi.rms_norm", NULL, rms_norm);
  register_handler("test_ffi.rms_norm_fwd", NULL, rms_norm_fwd);
  register_handler("test_ffi.affine", NULL, affine);
  register_handler("test_ffi.counter", counter_instantiate, counter_execute);
  register_handler("test_ffi.parallel_scale", NULL, parallel_scale);
  register_handler("test_ffi.async_add_one", NULL, async_add_one);
  register_handler("test_ffi.fail", NULL, fail);
  register_handler("test_ffi.double_in_place", NULL, double_in_place);
  register_handler("test_ffi.ordered_log", NULL, ordered_log);
}
