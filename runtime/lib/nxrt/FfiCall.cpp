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

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_format.h"

namespace {

using nxrt::ffi::HandlerEntry;

/// What a site keeps for its handler.
struct FfiSite final : nxrt::SiteData {
  // The attributes' conversion and the instantiate stage; every call of a
  // site where either failed fails the same way.
  absl::Status status;
  nxrt::ffi::FfiAttributes attributes;
  SiteStateSlot state;

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
  default:
    return XLA_FFI_DataType_INVALID;
  }
}

/// A frame with no buffers yet: the API, the context and the attributes.
XLA_FFI_CallFrame emptyFrame(XLA_FFI_ExecutionContext &ctx,
                             const XLA_FFI_Attrs &attrs) {
  XLA_FFI_CallFrame frame{};
  // The whole struct, `future` included: newer headers count it.
  frame.struct_size = sizeof(XLA_FFI_CallFrame);
  frame.api = nxrt::ffi::api();
  frame.ctx = &ctx;
  frame.stage = ctx.stage;
  frame.args.struct_size = XLA_FFI_Args_STRUCT_SIZE;
  frame.rets.struct_size = XLA_FFI_Rets_STRUCT_SIZE;
  frame.attrs = attrs;
  return frame;
}

/// Converts the site's attributes and runs the instantiate stage, whose
/// frame has attributes but no buffers, as in XLA.
std::unique_ptr<FfiSite> instantiate(const HandlerEntry &entry,
                                     nxrt_site &site) {
  auto data = std::make_unique<FfiSite>();
  data->status = data->attributes.convert(*site.attrs);
  if (!data->status.ok() || !entry.bundle.instantiate)
    return data;
  XLA_FFI_ExecutionContext ctx;
  ctx.handler = &entry;
  ctx.runtime = site.runtime;
  ctx.stage = XLA_FFI_ExecutionStage_INSTANTIATE;
  ctx.state = &data->state;
  XLA_FFI_CallFrame frame = emptyFrame(ctx, data->attributes.top());
  absl::Status status = nxrt::ffi::takeError(entry.bundle.instantiate(&frame));
  if (!status.ok())
    data->status = absl::Status(
        status.code(), absl::StrCat("instantiate: ", status.message()));
  return data;
}

/// Views of the call's tensors, in the frame's form.
struct Buffers {
  absl::InlinedVector<XLA_FFI_Buffer, 8> views;
  absl::InlinedVector<void *, 8> pointers;
  absl::InlinedVector<int32_t, 8> types; // ArgType and RetType are both 1

  absl::Status describe(const nxrt_tensor_t *tensors, size_t count,
                        const char *what) {
    for (size_t i = 0; i < count; ++i) {
      const nxrt_tensor_t &t = tensors[i];
      XLA_FFI_DataType dtype = toFfiType(t.dtype);
      if (dtype == XLA_FFI_DataType_INVALID)
        return absl::InvalidArgumentError(
            absl::StrFormat("%s #%d has dtype %d, which XLA FFI has no type "
                            "for",
                            what, i, static_cast<int>(t.dtype)));
      views.push_back({XLA_FFI_Buffer_STRUCT_SIZE, nullptr, dtype, t.data,
                       t.rank, const_cast<int64_t *>(t.dims)});
      types.push_back(1);
    }
    return absl::OkStatus();
  }
};

/// Runs one stage's function, if the bundle has one.
absl::Status runStage(XLA_FFI_Handler *fn, XLA_FFI_ExecutionStage stage,
                      XLA_FFI_ExecutionContext &ctx, XLA_FFI_CallFrame &frame,
                      absl::Time deadline) {
  if (!fn)
    return absl::OkStatus();
  ctx.stage = stage;
  frame.stage = stage;
  frame.future = nullptr;
  absl::Status status = nxrt::ffi::takeError(fn(&frame));
  if (frame.future) {
    absl::Status completion = nxrt::ffi::awaitFuture(frame.future, deadline);
    if (status.ok())
      status = completion;
  }
  return status;
}

nxrt_status_t *callHandler(const nxrt::Handler &handler, nxrt_site &site,
                           const nxrt_call_t &call) {
  const auto &entry = *static_cast<const HandlerEntry *>(handler.userData);
  absl::call_once(site.handlerDataOnce,
                  [&] { site.handlerData = instantiate(entry, site); });
  auto &data = static_cast<FfiSite &>(*site.handlerData);
  if (!data.status.ok())
    return nxrt::toC(data.status);

  Buffers buffers;
  if (absl::Status s = buffers.describe(call.args, call.nargs, "operand");
      !s.ok())
    return nxrt::toC(s);
  if (absl::Status s = buffers.describe(call.results, call.nresults, "result");
      !s.ok())
    return nxrt::toC(s);
  for (XLA_FFI_Buffer &view : buffers.views)
    buffers.pointers.push_back(&view);

  XLA_FFI_ExecutionContext ctx;
  ctx.handler = &entry;
  ctx.runtime = site.runtime;
  ctx.run = call.run;
  ctx.state = &data.state;
  XLA_FFI_CallFrame frame = emptyFrame(ctx, data.attributes.top());
  frame.args.size = static_cast<int64_t>(call.nargs);
  frame.args.types = reinterpret_cast<XLA_FFI_ArgType *>(buffers.types.data());
  frame.args.args = buffers.pointers.data();
  frame.rets.size = static_cast<int64_t>(call.nresults);
  frame.rets.types = reinterpret_cast<XLA_FFI_RetType *>(buffers.types.data());
  frame.rets.rets = buffers.pointers.data() + call.nargs;

  absl::Time deadline = call.run ? call.run->deadline : absl::InfiniteFuture();
  const XLA_FFI_Handler_Bundle &bundle = entry.bundle;
  absl::Status status = runStage(bundle.prepare, XLA_FFI_ExecutionStage_PREPARE,
                                 ctx, frame, deadline);
  if (status.ok())
    status = runStage(bundle.initialize, XLA_FFI_ExecutionStage_INITIALIZE, ctx,
                      frame, deadline);
  if (status.ok())
    status = runStage(bundle.execute, XLA_FFI_ExecutionStage_EXECUTE, ctx,
                      frame, deadline);
  return nxrt::toC(status);
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
