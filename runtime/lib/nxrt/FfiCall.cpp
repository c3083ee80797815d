//===- FfiCall.cpp - Calling an XLA FFI handler from a call site ----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The first call of a site converts its attributes and runs the handler's
// instantiate stage; both are kept with the site, so a call then only
// describes its buffers (views of the program's own, no copy) and runs the
// prepare, initialize and execute stages.
//
//===----------------------------------------------------------------------===//

#include "Ffi.h"
#include "FfiAttributes.h"
#include "Run.h"
#include "Status.h"

#include "absl/base/optimization.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

#include <atomic>
#include <memory>
#include <vector>

namespace {

using nxrt::ffi::HandlerEntry;

/// What a site keeps for its handler.
struct FfiSite final : nxrt::SiteData {
  // The attributes' conversion and the instantiate stage; every call of a
  // site where either failed fails the same way.
  absl::Status status;
  nxrt::ffi::FfiAttributes attributes;
  SiteStateSlot state;
  // Unique for the process's life, unlike the site's address, which a
  // later site may reuse: a thread's frame knows by it whose fields it holds.
  uint64_t serial = nextSerial.fetch_add(1, std::memory_order_relaxed);

  static inline std::atomic<uint64_t> nextSerial{1};

  ~FfiSite() override {
    if (state.state && state.deleter)
      state.deleter(state.state);
  }
};

XLA_FFI_DataType toFfiType(nxrt_dtype_t dtype) {
  switch (dtype) {
  case NXRT_PRED:
    return XLA_FFI_DataType_PRED;
  case NXRT_I8:
    return XLA_FFI_DataType_S8;
  case NXRT_I16:
    return XLA_FFI_DataType_S16;
  case NXRT_I32:
    return XLA_FFI_DataType_S32;
  case NXRT_I64:
    return XLA_FFI_DataType_S64;
  case NXRT_U8:
    return XLA_FFI_DataType_U8;
  case NXRT_U16:
    return XLA_FFI_DataType_U16;
  case NXRT_U32:
    return XLA_FFI_DataType_U32;
  case NXRT_U64:
    return XLA_FFI_DataType_U64;
  case NXRT_F16:
    return XLA_FFI_DataType_F16;
  case NXRT_BF16:
    return XLA_FFI_DataType_BF16;
  case NXRT_F32:
    return XLA_FFI_DataType_F32;
  case NXRT_F64:
    return XLA_FFI_DataType_F64;
  case NXRT_C64:
    return XLA_FFI_DataType_C64;
  case NXRT_C128:
    return XLA_FFI_DataType_C128;
  case NXRT_TOKEN:
    return XLA_FFI_DataType_TOKEN;
  default:
    return XLA_FFI_DataType_INVALID;
  }
}

/// A frame with no buffers yet: the API, the context and the attributes.
/// Every field is assigned rather than the struct value-initialized, which
/// compilers turn into a `rep stos` costing more than the rest of the call.
XLA_FFI_CallFrame emptyFrame(XLA_FFI_ExecutionContext &ctx,
                             const XLA_FFI_Attrs &attrs) {
  XLA_FFI_CallFrame frame;
  // XLA's size, which stops before `future`: handlers built with XLA's C++
  // header demand exactly that.
  frame.struct_size = XLA_FFI_CallFrame_STRUCT_SIZE;
  frame.extension_start = nullptr;
  frame.api = nxrt::ffi::api();
  frame.ctx = &ctx;
  frame.stage = ctx.stage;
  frame.args = {XLA_FFI_Args_STRUCT_SIZE, nullptr, 0, nullptr, nullptr};
  frame.rets = {XLA_FFI_Rets_STRUCT_SIZE, nullptr, 0, nullptr, nullptr};
  frame.attrs = attrs;
  frame.future = nullptr;
  return frame;
}

/// Converts the site's attributes and runs the instantiate stage, whose
/// frame has attributes but no buffers, as in XLA.
std::unique_ptr<FfiSite> instantiate(const HandlerEntry &entry,
                                     nxrt_site &site) {
  auto data = std::make_unique<FfiSite>();
  data->status = data->attributes.convert(*site.attrs);
  XLA_FFI_ExecutionContext ctx;
  ctx.handler = &entry;
  ctx.runtime = site.runtime;
  ctx.stage = XLA_FFI_ExecutionStage_INSTANTIATE;
  ctx.state = &data->state;
  if (!data->status.ok() || !entry.bundle.instantiate)
    return data;
  XLA_FFI_CallFrame frame = emptyFrame(ctx, data->attributes.top());
  absl::Status status = nxrt::ffi::takeError(entry.bundle.instantiate(&frame));
  if (!status.ok())
    data->status = absl::Status(
        status.code(), absl::StrCat("instantiate: ", status.message()));
  return data;
}

// Calls with up to this many buffers describe them on the stack.
constexpr size_t kStackBuffers = 8;

// The type of each of those (ArgType and RetType are both 1): the frame's
// type arrays point into it.
const int32_t kBufferTypes[kStackBuffers] = {1, 1, 1, 1, 1, 1, 1, 1};

/// Writes each view's own fields; false when one has a dtype XLA FFI has
/// no type for.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool
describeInPlace(const nxrt_tensor_t *tensors, size_t count,
                XLA_FFI_Buffer *views) {
  for (size_t i = 0; i < count; ++i) {
    const nxrt_tensor_t &t = tensors[i];
    XLA_FFI_DataType dtype = toFfiType(t.dtype);
    if (ABSL_PREDICT_FALSE(dtype == XLA_FFI_DataType_INVALID))
      return false;
    views[i].dtype = dtype;
    views[i].data = t.data;
    views[i].rank = t.rank;
    views[i].dims = const_cast<int64_t *>(t.dims);
  }
  return true;
}

/// Writes the XLA FFI views of `count` tensors and their pointers; false
/// when one has a dtype XLA FFI has no type for.
inline bool describe(const nxrt_tensor_t *tensors, size_t count,
                     XLA_FFI_Buffer *views, void **pointers) {
  for (size_t i = 0; i < count; ++i) {
    views[i].struct_size = XLA_FFI_Buffer_STRUCT_SIZE;
    views[i].extension_start = nullptr;
    pointers[i] = &views[i];
  }
  return describeInPlace(tensors, count, views);
}

/// What a stage's call returned: its error, else its future's outcome
/// (waited for until the run's deadline).
ABSL_ATTRIBUTE_NOINLINE absl::Status settle(XLA_FFI_Error *error,
                                            XLA_FFI_CallFrame &frame,
                                            const nxrt_call_t &call) {
  absl::Status status = nxrt::ffi::takeError(error);
  if (frame.future) {
    absl::Time deadline =
        call.run ? call.run->deadline : absl::InfiniteFuture();
    absl::Status completion = nxrt::ffi::awaitFuture(frame.future, deadline);
    frame.future = nullptr;
    if (status.ok())
      status = completion;
  }
  return status;
}

ABSL_ATTRIBUTE_NOINLINE nxrt_status_t *finish(XLA_FFI_Error *error,
                                              XLA_FFI_CallFrame &frame,
                                              const nxrt_call_t &call) {
  return nxrt::toC(settle(error, frame, call));
}

/// Runs one stage's function, if the bundle has one.
absl::Status runStage(XLA_FFI_Handler *fn, XLA_FFI_ExecutionStage stage,
                      XLA_FFI_ExecutionContext &ctx, XLA_FFI_CallFrame &frame,
                      const nxrt_call_t &call) {
  if (!fn)
    return absl::OkStatus();
  ctx.stage = stage;
  frame.stage = stage;
  XLA_FFI_Error *error = fn(&frame);
  if (ABSL_PREDICT_TRUE(!error && !frame.future))
    return absl::OkStatus();
  return settle(error, frame, call);
}

ABSL_ATTRIBUTE_NOINLINE nxrt_status_t *
unsupportedBuffer(const nxrt_call_t &call) {
  for (size_t i = 0; i < call.nargs + call.nresults; ++i) {
    const nxrt_tensor_t &t =
        i < call.nargs ? call.args[i] : call.results[i - call.nargs];
    if (toFfiType(t.dtype) == XLA_FFI_DataType_INVALID)
      return nxrt::toC(absl::InvalidArgumentError(absl::StrFormat(
          "%s #%d has dtype %d, which XLA FFI has no type for",
          i < call.nargs ? "operand" : "result",
          i < call.nargs ? i : i - call.nargs, static_cast<int>(t.dtype))));
  }
  return nullptr;
}

/// Converts the site's attributes and instantiates its handler on its first
/// call; afterwards one acquire load.
inline void prepareSite(const HandlerEntry &entry, nxrt_site &site) {
  absl::call_once(site.handlerDataOnce,
                  [&] { site.handlerData = instantiate(entry, site); });
}

/// One call with its buffers described in `views` and `pointers` (room for
/// every operand and result) and `types` (as many 1s).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline nxrt_status_t *
callWith(const HandlerEntry &entry, FfiSite &data, nxrt_site &site,
         const nxrt_call_t &call, XLA_FFI_Buffer *views, void **pointers,
         const int32_t *types) {
  if (ABSL_PREDICT_FALSE(!describe(call.args, call.nargs, views, pointers) ||
                         !describe(call.results, call.nresults,
                                   views + call.nargs, pointers + call.nargs)))
    return unsupportedBuffer(call);
  XLA_FFI_ExecutionContext ctx;
  ctx.handler = &entry;
  ctx.runtime = site.runtime;
  ctx.run = call.run;
  ctx.state = &data.state;
  XLA_FFI_CallFrame frame = emptyFrame(ctx, data.attributes.top());
  auto *typeArray = const_cast<int32_t *>(types);
  frame.args.size = static_cast<int64_t>(call.nargs);
  frame.args.types = reinterpret_cast<XLA_FFI_ArgType *>(typeArray);
  frame.args.args = pointers;
  frame.rets.size = static_cast<int64_t>(call.nresults);
  frame.rets.types = reinterpret_cast<XLA_FFI_RetType *>(typeArray);
  frame.rets.rets = pointers + call.nargs;

  const XLA_FFI_Handler_Bundle &bundle = entry.bundle;
  // The common case, a bundle with only an execute stage that completes
  // before it returns, touches no status object.
  if (!bundle.prepare && !bundle.initialize) {
    XLA_FFI_Error *error = bundle.execute(&frame);
    if (ABSL_PREDICT_TRUE(!error && !frame.future))
      return nullptr;
    return finish(error, frame, call);
  }
  absl::Status status = runStage(bundle.prepare, XLA_FFI_ExecutionStage_PREPARE,
                                 ctx, frame, call);
  if (status.ok())
    status = runStage(bundle.initialize, XLA_FFI_ExecutionStage_INITIALIZE, ctx,
                      frame, call);
  if (status.ok())
    status = runStage(bundle.execute, XLA_FFI_ExecutionStage_EXECUTE, ctx,
                      frame, call);
  return nxrt::toC(status);
}

/// A call with more buffers than the stack holds.
ABSL_ATTRIBUTE_NOINLINE nxrt_status_t *
callWithHeapBuffers(const HandlerEntry &entry, FfiSite &data, nxrt_site &site,
                    const nxrt_call_t &call) {
  size_t count = call.nargs + call.nresults;
  std::vector<XLA_FFI_Buffer> views(count);
  std::vector<void *> pointers(count);
  std::vector<int32_t> types(count, 1);
  return callWith(entry, data, site, call, views.data(), pointers.data(),
                  types.data());
}

/// A thread's frame for the common call, a handler with only an execute
/// stage and at most kStackBuffers buffers. What every such call shares
/// (the sizes, the API, the buffer types, each view's pointer) is written
/// once per thread, so a call stores only its own values: a frame built
/// afresh on the stack takes three times the stores, most of a call's cost.
/// A call made while the frame is in use (a handler that runs compiled code
/// which calls handlers) builds its own on the stack.
struct ThreadFrame {
  XLA_FFI_ExecutionContext ctx;
  XLA_FFI_CallFrame frame;
  XLA_FFI_Buffer views[kStackBuffers];
  void *pointers[kStackBuffers];
  // The serial of the site whose handler, state and attributes the frame
  // holds: a loop calling one site stores them once.
  uint64_t siteSerial = 0;
  bool busy = false;

  ThreadFrame() {
    frame = emptyFrame(ctx, XLA_FFI_Attrs{XLA_FFI_Attrs_STRUCT_SIZE, nullptr, 0,
                                          nullptr, nullptr, nullptr});
    auto *types = const_cast<int32_t *>(kBufferTypes);
    frame.args.types = reinterpret_cast<XLA_FFI_ArgType *>(types);
    frame.args.args = pointers;
    frame.rets.types = reinterpret_cast<XLA_FFI_RetType *>(types);
    for (size_t i = 0; i < kStackBuffers; ++i) {
      views[i] = {XLA_FFI_Buffer_STRUCT_SIZE,
                  nullptr,
                  XLA_FFI_DataType_INVALID,
                  nullptr,
                  0,
                  nullptr};
      pointers[i] = &views[i];
    }
  }
};

// The calling thread's frame. Initial-exec: one load from the thread
// pointer, where the default model for a shared library calls
// __tls_get_addr; eight bytes fit the static TLS glibc keeps for libraries
// loaded later (dlopen).
__attribute__((tls_model(
    "initial-exec"))) thread_local ThreadFrame *currentThreadFrame = nullptr;

/// Owns a thread's frame until the thread exits.
struct ThreadFrameOwner {
  std::unique_ptr<ThreadFrame> frame = std::make_unique<ThreadFrame>();
  ~ThreadFrameOwner() { currentThreadFrame = nullptr; }
};

ABSL_ATTRIBUTE_NOINLINE ThreadFrame &createThreadFrame() {
  thread_local ThreadFrameOwner owner;
  currentThreadFrame = owner.frame.get();
  return *currentThreadFrame;
}

/// The common call, on the thread's frame.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline nxrt_status_t *
callOnThreadFrame(ThreadFrame &thread, const HandlerEntry &entry, FfiSite &data,
                  nxrt_site &site, const nxrt_call_t &call) {
  if (ABSL_PREDICT_FALSE(
          !describeInPlace(call.args, call.nargs, thread.views) ||
          !describeInPlace(call.results, call.nresults,
                           thread.views + call.nargs)))
    return unsupportedBuffer(call);
  XLA_FFI_CallFrame &frame = thread.frame;
  if (thread.siteSerial != data.serial) {
    thread.siteSerial = data.serial;
    thread.ctx.handler = &entry;
    thread.ctx.runtime = site.runtime;
    thread.ctx.state = &data.state;
    frame.attrs = data.attributes.top();
  }
  thread.ctx.run = call.run;
  frame.args.size = static_cast<int64_t>(call.nargs);
  frame.rets.size = static_cast<int64_t>(call.nresults);
  frame.rets.rets = thread.pointers + call.nargs;
  thread.busy = true;
  XLA_FFI_Error *error = entry.bundle.execute(&frame);
  nxrt_status_t *status = nullptr;
  if (ABSL_PREDICT_FALSE(error || frame.future))
    status = finish(error, frame, call);
  thread.busy = false;
  return status;
}

nxrt_status_t *callHandler(const nxrt::Handler &handler, nxrt_site &site,
                           const nxrt_call_t &call) {
  const auto &entry = *static_cast<const HandlerEntry *>(handler.userData);
  prepareSite(entry, site);
  auto &data = static_cast<FfiSite &>(*site.handlerData);
  if (ABSL_PREDICT_FALSE(!data.status.ok()))
    return nxrt::toC(data.status);
  if (ABSL_PREDICT_FALSE(call.nargs + call.nresults > kStackBuffers))
    return callWithHeapBuffers(entry, data, site, call);
  if (ABSL_PREDICT_TRUE(!entry.bundle.prepare && !entry.bundle.initialize)) {
    ThreadFrame *thread = currentThreadFrame;
    if (ABSL_PREDICT_FALSE(!thread))
      thread = &createThreadFrame();
    if (ABSL_PREDICT_TRUE(!thread->busy))
      return callOnThreadFrame(*thread, entry, data, site, call);
  }
  XLA_FFI_Buffer views[kStackBuffers];
  void *pointers[kStackBuffers];
  return callWith(entry, data, site, call, views, pointers, kBufferTypes);
}

} // namespace

std::unique_ptr<nxrt::Handler>
nxrt::ffi::makeTargetHandler(const HandlerEntry &entry) {
  auto handler = std::make_unique<Handler>();
  handler->name = entry.name;
  handler->siteFn = callHandler;
  handler->userData = const_cast<HandlerEntry *>(&entry);
  return handler;
}
