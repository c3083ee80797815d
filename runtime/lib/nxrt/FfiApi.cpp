//===- FfiApi.cpp - The XLA FFI API table libnxrt hands to handlers -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every function checks the caller's struct_size against the fields it
// reads, with XLA's own minimum sizes: a struct from a handler built
// against an older header is accepted whenever XLA's runtime would accept
// it. The argument layouts that changed between API versions (State_Set,
// State_Get, Type_Register) are told apart by size and by the version the
// calling handler declared at registration.
//
//===----------------------------------------------------------------------===//

#include "Ffi.h"
#include "FfiThreadPool.h"
#include "Run.h"
#include "Runtime.h"
#include "Status.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"

#include <atomic>
#include <cstring>

struct XLA_FFI_Error {
  absl::StatusCode code;
  std::string message;
};

/// Completed once, by the handler; waited for by the runtime. Each side
/// holds a reference: a handler that completes it after the runtime gave
/// up waiting (a deadline) still finds it alive.
struct XLA_FFI_Future {
  nxrt::Mutex mu;
  nxrt::CondVar completed;
  bool done ABSL_GUARDED_BY(mu) = false;
  absl::StatusCode code ABSL_GUARDED_BY(mu) = absl::StatusCode::kOk;
  std::string message ABSL_GUARDED_BY(mu);
  std::atomic<int> references{2};

  void release() {
    if (references.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }
};

namespace nxrt::ffi {

XLA_FFI_Error *toError(const absl::Status &status) {
  if (status.ok())
    return nullptr;
  return new XLA_FFI_Error{status.code(), std::string(status.message())};
}

absl::Status takeError(XLA_FFI_Error *error) {
  if (!error)
    return absl::OkStatus();
  absl::Status status(error->code, error->message);
  delete error;
  // A handler may return an error whose code is OK: still a failure.
  return status.ok() ? absl::UnknownError("") : status;
}

absl::Status awaitFuture(XLA_FFI_Future *future, absl::Time deadline) {
  absl::Status status;
  {
    MutexLock lock(&future->mu);
    bool timedOut = false;
    while (!future->done && !timedOut)
      timedOut = future->completed.waitWithDeadline(&future->mu, deadline);
    if (!future->done)
      status = absl::DeadlineExceededError(
          "its future did not complete before the run deadline");
    else if (future->code != absl::StatusCode::kOk)
      status = absl::Status(future->code, future->message);
  }
  future->release();
  return status;
}

void ContextData::set(int64_t typeId, void *value) {
  MutexLock lock(&mu);
  data[typeId] = value;
}

void *ContextData::get(int64_t typeId) const {
  MutexLock lock(&mu);
  auto it = data.find(typeId);
  return it == data.end() ? nullptr : it->second;
}

} // namespace nxrt::ffi

namespace {

using nxrt::ffi::toError;

/// INVALID_ARGUMENT when a caller's struct is smaller than `needed`.
XLA_FFI_Error *checkSize(const char *function, size_t actual, size_t needed) {
  if (actual >= needed)
    return nullptr;
  return toError(absl::InvalidArgumentError(absl::StrFormat(
      "%s: struct_size %d is smaller than the %d bytes the call reads",
      function, actual, needed)));
}

#define NXRT_FFI_CHECK_SIZE(function, args, needed)                            \
  if (XLA_FFI_Error *error =                                                   \
          checkSize(#function, (args)->struct_size, needed))                   \
    return error;

XLA_FFI_Error *unimplemented(const char *what) {
  return toError(absl::UnimplementedError(what));
}

//===--- Errors -----------------------------------------------------------===//

XLA_FFI_Error *errorCreate(XLA_FFI_Error_Create_Args *args) {
  auto code = absl::StatusCode::kUnknown;
  if (args->struct_size >= XLA_FFI_Error_Create_Args_STRUCT_SIZE)
    code = static_cast<absl::StatusCode>(args->errc);
  return new XLA_FFI_Error{code, args->message ? args->message : ""};
}

void errorGetDetails(XLA_FFI_Error_GetDetails_Args *args) {
  args->message = args->error ? args->error->message.c_str() : "";
  // Before 0.4 the call returned the message only.
  if (args->struct_size >= XLA_FFI_Error_GetDetails_Args_STRUCT_SIZE)
    args->errc = args->error
                     ? static_cast<XLA_FFI_Error_Code>(args->error->code)
                     : XLA_FFI_Error_Code_OK;
}

void errorDestroy(XLA_FFI_Error_Destroy_Args *args) { delete args->error; }

//===--- Types ------------------------------------------------------------===//

struct TypeRecord {
  std::string name;
  void (*deleter)(void *) = nullptr;
};

struct TypeTable {
  nxrt::Mutex mu;
  absl::flat_hash_map<std::string, int64_t> byName ABSL_GUARDED_BY(mu);
  absl::flat_hash_map<int64_t, TypeRecord> byId ABSL_GUARDED_BY(mu);
  int64_t next ABSL_GUARDED_BY(mu) = 1;
};

TypeTable &types() {
  static TypeTable *table = new TypeTable;
  return *table;
}

// API 0.1's Type_Register arguments end at type_id. So does the size that
// XLA's 0.4 header declares for them, which still sets type_info after it;
// like XLA, the call reads type_info whenever it is set.
constexpr size_t kTypeRegisterV1Size =
    offsetof(XLA_FFI_Type_Register_Args, type_info);

XLA_FFI_Error *typeRegister(XLA_FFI_Type_Register_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_Type_Register, args, kTypeRegisterV1Size);
  if (!args->type_id || !args->name.ptr)
    return toError(absl::InvalidArgumentError(
        "XLA_FFI_Type_Register: the name and type id must not be null"));
  std::string name(args->name.ptr, args->name.len);
  void (*deleter)(void *) = nullptr;
  if (args->type_info &&
      args->type_info->struct_size >= XLA_FFI_TypeInfo_STRUCT_SIZE)
    deleter = args->type_info->deleter;
  TypeTable &table = types();
  nxrt::MutexLock lock(&table.mu);
  int64_t wanted = args->type_id->type_id;
  auto named = table.byName.find(name);
  if (named != table.byName.end()) {
    if (wanted != 0 && wanted != named->second)
      return toError(absl::AlreadyExistsError(
          absl::StrFormat("type '%s' is registered with id %d, not %d", name,
                          named->second, wanted)));
    args->type_id->type_id = named->second;
    return nullptr;
  }
  if (wanted != 0 && table.byId.contains(wanted))
    return toError(absl::AlreadyExistsError(absl::StrFormat(
        "type id %d is taken by type '%s'", wanted, table.byId[wanted].name)));
  int64_t id = wanted != 0 ? wanted : table.next++;
  if (id >= table.next)
    table.next = id + 1;
  table.byName[name] = id;
  table.byId[id] = TypeRecord{name, deleter};
  args->type_id->type_id = id;
  return nullptr;
}

void (*typeDeleter(int64_t id))(void *) {
  TypeTable &table = types();
  nxrt::MutexLock lock(&table.mu);
  auto it = table.byId.find(id);
  return it == table.byId.end() ? nullptr : it->second.deleter;
}

//===--- Execution context and state
//---------------------------------------===//

XLA_FFI_Error *contextGet(XLA_FFI_ExecutionContext_Get_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_ExecutionContext_Get, args,
                      XLA_FFI_ExecutionContext_Get_Args_STRUCT_SIZE);
  if (!args->ctx || !args->type_id)
    return toError(absl::InvalidArgumentError(
        "XLA_FFI_ExecutionContext_Get: no context or type id"));
  args->data = args->ctx->runtime->ffiContext.get(args->type_id->type_id);
  if (!args->data)
    return toError(absl::NotFoundError(absl::StrFormat(
        "no execution context data of type id %d (a host sets it with "
        "nxrt_ffi_set_context_data)",
        args->type_id->type_id)));
  return nullptr;
}

// The State_* layouts: 0.1 {ctx, type_id, state, deleter}; 0.2 {ctx,
// type_id, state}; 0.3 {ctx, stage, type_id, state}. ctx is first in all.
struct StateArgsV1 {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  XLA_FFI_TypeId *type_id;
  void *state;
  void (*deleter)(void *);
};

XLA_FFI_Error *stateFor(XLA_FFI_ExecutionContext *ctx, int64_t typeId,
                        bool setting) {
  if (!ctx || !ctx->state)
    return toError(absl::InvalidArgumentError("no execution context"));
  if (setting && ctx->stage != XLA_FFI_ExecutionStage_INSTANTIATE)
    return toError(absl::FailedPreconditionError(
        "state can only be set by the instantiate stage"));
  if (setting && ctx->state->state)
    return toError(absl::AlreadyExistsError(
        absl::StrFormat("the call site's state is already set (type id %d)",
                        ctx->state->typeId)));
  if (!setting && !ctx->state->state)
    return toError(absl::NotFoundError(
        "the call site has no state: its instantiate stage set none"));
  if (!setting && ctx->state->typeId != typeId)
    return toError(absl::InvalidArgumentError(
        absl::StrFormat("the call site's state has type id %d, not %d",
                        ctx->state->typeId, typeId)));
  return nullptr;
}

XLA_FFI_Error *stateSet(XLA_FFI_State_Set_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_State_Set, args, offsetof(StateArgsV1, state));
  XLA_FFI_ExecutionContext *ctx = args->ctx;
  if (!ctx || !ctx->handler)
    return toError(absl::InvalidArgumentError("XLA_FFI_State_Set: no context"));
  XLA_FFI_TypeId *typeId;
  void *state;
  void (*deleter)(void *);
  int minor = ctx->handler->apiMinor;
  auto *v1 = reinterpret_cast<StateArgsV1 *>(args);
  if (minor >= 3) {
    NXRT_FFI_CHECK_SIZE(XLA_FFI_State_Set, args,
                        XLA_FFI_State_Set_Args_STRUCT_SIZE);
    typeId = args->type_id;
    state = args->state;
    deleter = typeId ? typeDeleter(typeId->type_id) : nullptr;
  } else if (minor == 2) {
    NXRT_FFI_CHECK_SIZE(XLA_FFI_State_Set, args, sizeof(StateArgsV1) - 8);
    typeId = v1->type_id;
    state = v1->state;
    deleter = typeId ? typeDeleter(typeId->type_id) : nullptr;
  } else {
    NXRT_FFI_CHECK_SIZE(XLA_FFI_State_Set, args, sizeof(StateArgsV1));
    typeId = v1->type_id;
    state = v1->state;
    deleter = v1->deleter;
  }
  if (!typeId)
    return toError(absl::InvalidArgumentError("XLA_FFI_State_Set: no type id"));
  if (XLA_FFI_Error *error = stateFor(ctx, typeId->type_id, true))
    return error;
  *ctx->state = SiteStateSlot{typeId->type_id, state, deleter};
  return nullptr;
}

XLA_FFI_Error *stateGet(XLA_FFI_State_Get_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_State_Get, args, offsetof(StateArgsV1, deleter));
  XLA_FFI_ExecutionContext *ctx = args->ctx;
  if (!ctx || !ctx->handler)
    return toError(absl::InvalidArgumentError("XLA_FFI_State_Get: no context"));
  XLA_FFI_TypeId *typeId;
  void **out;
  auto *v1 = reinterpret_cast<StateArgsV1 *>(args);
  if (ctx->handler->apiMinor >= 3) {
    NXRT_FFI_CHECK_SIZE(XLA_FFI_State_Get, args,
                        XLA_FFI_State_Get_Args_STRUCT_SIZE);
    typeId = args->type_id;
    out = &args->state;
  } else {
    typeId = v1->type_id;
    out = &v1->state;
  }
  if (!typeId)
    return toError(absl::InvalidArgumentError("XLA_FFI_State_Get: no type id"));
  if (XLA_FFI_Error *error = stateFor(ctx, typeId->type_id, false))
    return error;
  *out = ctx->state->state;
  return nullptr;
}

//===--- What the host platform does not have
//------------------------------===//

XLA_FFI_Error *streamGet(XLA_FFI_Stream_Get_Args *) {
  return unimplemented("XLA_FFI_Stream_Get: the Host platform has no device "
                       "stream");
}

XLA_FFI_Error *deviceMemoryAllocate(XLA_FFI_DeviceMemory_Allocate_Args *) {
  return unimplemented("XLA_FFI_DeviceMemory_Allocate: the Host platform has "
                       "no device memory");
}

XLA_FFI_Error *deviceMemoryFree(XLA_FFI_DeviceMemory_Free_Args *) {
  return unimplemented("XLA_FFI_DeviceMemory_Free: the Host platform has no "
                       "device memory");
}

//===--- Thread pool, run and device
//---------------------------------------===//

XLA_FFI_Error *threadPoolSchedule(XLA_FFI_ThreadPool_Schedule_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_ThreadPool_Schedule, args,
                      XLA_FFI_ThreadPool_Schedule_Args_STRUCT_SIZE);
  if (!args->task)
    return toError(absl::InvalidArgumentError(
        "XLA_FFI_ThreadPool_Schedule: the task is null"));
  nxrt::ffi::scheduleTask(args->task, args->data);
  return nullptr;
}

XLA_FFI_Error *threadPoolNumThreads(XLA_FFI_ThreadPool_NumThreads_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_ThreadPool_NumThreads, args,
                      XLA_FFI_ThreadPool_NumThreads_Args_STRUCT_SIZE);
  if (!args->num_threads)
    return toError(absl::InvalidArgumentError(
        "XLA_FFI_ThreadPool_NumThreads: the output is null"));
  *args->num_threads = nxrt::ffi::poolThreads();
  return nullptr;
}

XLA_FFI_Error *runIdGet(XLA_FFI_RunId_Get_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_RunId_Get, args,
                      XLA_FFI_RunId_Get_Args_STRUCT_SIZE);
  // Unique among the runs alive at once, which is what handlers key on.
  args->run_id =
      args->ctx
          ? static_cast<int64_t>(reinterpret_cast<intptr_t>(args->ctx->run))
          : 0;
  return nullptr;
}

XLA_FFI_Error *deviceOrdinalGet(XLA_FFI_DeviceOrdinal_Get_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_DeviceOrdinal_Get, args,
                      XLA_FFI_DeviceOrdinal_Get_Args_STRUCT_SIZE);
  args->device_ordinal = 0;
  return nullptr;
}

//===--- Futures ----------------------------------------------------------===//

// XLA's own header counts Future_Create's arguments only up to
// extension_start; the call writes `future` all the same.
constexpr size_t kFutureCreateSize =
    offsetof(XLA_FFI_Future_Create_Args, future);

XLA_FFI_Error *futureCreate(XLA_FFI_Future_Create_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_Future_Create, args, kFutureCreateSize);
  args->future = new XLA_FFI_Future;
  return nullptr;
}

XLA_FFI_Error *complete(XLA_FFI_Future *future, absl::Status status) {
  if (!future)
    return toError(absl::InvalidArgumentError("the future is null"));
  {
    nxrt::MutexLock lock(&future->mu);
    if (future->done)
      return toError(
          absl::FailedPreconditionError("the future is already completed"));
    future->done = true;
    future->code = status.code();
    future->message = std::string(status.message());
    future->completed.signalAll();
  }
  future->release();
  return nullptr;
}

XLA_FFI_Error *futureSetAvailable(XLA_FFI_Future_SetAvailable_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_Future_SetAvailable, args,
                      XLA_FFI_Future_SetAvailable_Args_STRUCT_SIZE);
  return complete(args->future, absl::OkStatus());
}

XLA_FFI_Error *futureSetError(XLA_FFI_Future_SetError_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_Future_SetError, args,
                      XLA_FFI_Future_SetError_Args_STRUCT_SIZE);
  return complete(args->future, nxrt::ffi::takeError(args->error));
}

//===--- Extensions (0.4)
//---------------------------------------------------===//

// nx attaches no extension to the contexts it passes: a handler that needs
// one learns that it is missing from its own decoding ("not found").
XLA_FFI_Error *findExtension(XLA_FFI_InvokeContext_FindExtension_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_InvokeContext_FindExtension, args,
                      XLA_FFI_InvokeContext_FindExtension_Args_STRUCT_SIZE);
  args->extension = nullptr;
  return nullptr;
}

//===--- Registration
//------------------------------------------------------===//

XLA_FFI_Error *handlerRegister(XLA_FFI_Handler_Register_Args *args) {
  NXRT_FFI_CHECK_SIZE(XLA_FFI_Handler_Register, args,
                      offsetof(XLA_FFI_Handler_Register_Args, traits));
  XLA_FFI_Handler_Traits traits = 0;
  if (args->struct_size >= XLA_FFI_Handler_Register_Args_STRUCT_SIZE)
    traits = args->traits;
  absl::string_view name(args->name.ptr ? args->name.ptr : "",
                         args->name.ptr ? args->name.len : 0);
  absl::string_view platform(args->platform.ptr ? args->platform.ptr : "",
                             args->platform.ptr ? args->platform.len : 0);
  return toError(
      nxrt::ffi::registerHandler(name, platform, args->bundle, traits));
}

} // namespace

// Constant-initialized: a function-local static would cost a guard check
// per call.
extern const XLA_FFI_Api nxrt::ffi::kApiTable = {
    XLA_FFI_Api_STRUCT_SIZE,
    nullptr,
    {XLA_FFI_Api_Version_STRUCT_SIZE, nullptr, XLA_FFI_API_MAJOR,
     XLA_FFI_API_MINOR},
    nullptr,
    errorCreate,
    {errorGetDetails},
    errorDestroy,
    handlerRegister,
    streamGet,
    typeRegister,
    {contextGet},
    stateSet,
    stateGet,
    deviceMemoryAllocate,
    deviceMemoryFree,
    threadPoolSchedule,
    threadPoolNumThreads,
    futureCreate,
    futureSetAvailable,
    futureSetError,
    runIdGet,
    deviceOrdinalGet,
    findExtension,
};

extern "C" const XLA_FFI_Api *nxrt_ffi_api(void) { return nxrt::ffi::api(); }

extern "C" const XLA_FFI_Api *XLA_FFI_GetApi(void) { return nxrt::ffi::api(); }

// The C++ accessor XLA's own headers declare; libraries that register their
// handlers through it at load find libnxrt's table.
namespace xla::ffi {
NXRT_API const XLA_FFI_Api *GetXlaFfiApi() { return nxrt::ffi::api(); }
} // namespace xla::ffi

extern "C" nxrt_status_t *nxrt_ffi_set_context_data(nxrt_runtime_t *runtime,
                                                    int64_t type_id,
                                                    void *data) {
  if (!runtime || type_id == 0)
    return nxrt::toC(absl::InvalidArgumentError(
        "nxrt_ffi_set_context_data: the runtime must not be null and the "
        "type id not 0"));
  runtime->ffiContext.set(type_id, data);
  return nullptr;
}
