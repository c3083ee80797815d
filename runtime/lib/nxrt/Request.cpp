//===- Request.cpp - Host-side accessors of bridge requests ---------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include <cstring>
#include <new>
#include <vector>

#include "Bridge.h"
#include "Program.h"
#include "Run.h"
#include "Runtime.h"
#include "Status.h"
#include "absl/strings/str_format.h"

namespace {

// Zero-filled scratch storage for one tensor that nxrt_request_serve hands
// to a handler, aligned like the buffers of compiled code.
class Scratch {
public:
  explicit Scratch(size_t bytes)
      : buffer(bytes ? ::operator new(bytes, kAlign) : nullptr) {
    if (bytes)
      std::memset(buffer, 0, bytes);
  }
  Scratch(Scratch &&other) noexcept : buffer(other.buffer) {
    other.buffer = nullptr;
  }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  Scratch &operator=(Scratch &&) = delete;
  ~Scratch() {
    if (buffer)
      ::operator delete(buffer, kAlign);
  }
  void *data() const { return buffer; }

private:
  static constexpr std::align_val_t kAlign{64};
  void *buffer;
};

} // namespace

extern "C" {

uint64_t nxrt_request_tag(const nxrt_request_t *request) {
  return request ? request->tag : 0;
}

nxrt_site_kind_t nxrt_request_kind(const nxrt_request_t *request) {
  return request ? request->site->kind : NXRT_SITE_ELIXIR_CALL;
}

const char *nxrt_request_name(const nxrt_request_t *request) {
  return request ? request->handler->name.c_str() : "";
}

const char *nxrt_request_location(const nxrt_request_t *request) {
  return request ? request->site->location.c_str() : "";
}

const nxrt_attrs_t *nxrt_request_attrs(const nxrt_request_t *request) {
  return request ? request->site->attrs.get() : nullptr;
}

size_t nxrt_request_num_args(const nxrt_request_t *request) {
  return request ? request->numArgs : 0;
}

const nxrt_tensor_t *nxrt_request_arg(const nxrt_request_t *request, size_t i) {
  if (!request || i >= request->numArgs)
    return nullptr;
  return &request->args()[i];
}

nxrt_status_t *nxrt_request_copy_arg(const nxrt_request_t *request, size_t i,
                                     void *dst, size_t dstLen) {
  if (!request)
    return nxrt::toC(absl::InvalidArgumentError("request is null"));
  if (i >= request->numArgs)
    return nxrt::toC(absl::OutOfRangeError(absl::StrFormat(
        "argument %d out of range: the request has %d arguments", i,
        request->numArgs)));
  size_t bytes = nxrt_tensor_byte_size(&request->args()[i]);
  if (dstLen < bytes || (bytes && !dst))
    return nxrt::toC(absl::InvalidArgumentError(absl::StrFormat(
        "destination holds %d bytes, argument %d needs %d", dstLen, i, bytes)));
  // Registered as a reader first: the compute thread does not return to
  // compiled code (which may then reuse or free the program's buffers) while
  // a reader that saw the request pending is copying.
  request->readers.fetch_add(1, std::memory_order_seq_cst);
  bool pending =
      request->state.load(std::memory_order_seq_cst) == nxrt_request::kPending;
  if (pending && bytes)
    std::memcpy(dst, request->args()[i].data, bytes);
  request->readers.fetch_sub(1, std::memory_order_seq_cst);
  if (!pending)
    return nxrt::toC(absl::DeadlineExceededError(
        absl::StrFormat("bridge request with reply tag %d is no longer pending",
                        request->tag)));
  return nullptr;
}

size_t nxrt_request_num_results(const nxrt_request_t *request) {
  return request ? request->numResults : 0;
}

const nxrt_tensor_t *nxrt_request_result_template(const nxrt_request_t *request,
                                                  size_t i) {
  if (!request || i >= request->numResults)
    return nullptr;
  return &request->templates()[i];
}

void nxrt_request_release(nxrt_request_t *request) {
  if (request)
    request->unref();
}

nxrt_status_t *nxrt_request_serve(nxrt_request_t *request) {
  if (!request)
    return nxrt::toC(absl::InvalidArgumentError("request is null"));
  const nxrt::Handler &handler = *request->handler;
  if (!handler.fn)
    return nxrt::toC(absl::FailedPreconditionError(absl::StrFormat(
        "callback @%s is bound for bridge dispatch and has no handler to "
        "serve request %d with",
        handler.name, request->tag)));

  // Copies first: once the compute thread's deadline passes it returns to
  // compiled code, which may free the buffers the request points into.
  std::vector<Scratch> storage;
  storage.reserve(request->numArgs + request->numResults);
  absl::InlinedVector<nxrt_tensor_t, 2> args(request->args().begin(),
                                             request->args().end());
  for (size_t i = 0; i < args.size(); ++i) {
    size_t bytes = nxrt_tensor_byte_size(&args[i]);
    args[i].data = storage.emplace_back(bytes).data();
    if (nxrt_status_t *st =
            nxrt_request_copy_arg(request, i, args[i].data, bytes))
      return st;
  }
  absl::InlinedVector<nxrt_tensor_t, 2> results(request->templates().begin(),
                                                request->templates().end());
  for (nxrt_tensor_t &r : results)
    r.data = storage.emplace_back(nxrt_tensor_byte_size(&r)).data();

  const nxrt_site &site = *request->site;
  nxrt_run_t *run = nxrt_run_begin(site.runtime, nullptr);
  run->servesRequest = true;
  nxrt_call_t call{args.data(),           args.size(),
                   results.data(),        results.size(),
                   site.attrs.get(),      handler.name.c_str(),
                   site.location.c_str(), run};
  absl::Status outcome = nxrt::fromC(handler.fn(handler.userData, &call));
  // The handler's own status is the answer; a failure it left in the run
  // without returning it is not the program's.
  nxrt_status_free(nxrt_run_end(run));
  bool ok = outcome.ok();
  return nxrt::toC(site.runtime->bridge.reply(request->tag, std::move(outcome),
                                              ok ? results.data() : nullptr,
                                              ok ? results.size() : 0));
}

} // extern "C"
