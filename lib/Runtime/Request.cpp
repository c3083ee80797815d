//===- Request.cpp - Host-side accessors of bridge requests ---------------===//

#include <cstring>

#include "Bridge.h"
#include "Program.h"
#include "Status.h"
#include "absl/strings/str_format.h"

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
  return request ? request->args.size() : 0;
}

const nxrt_tensor_t *nxrt_request_arg(const nxrt_request_t *request, size_t i) {
  if (!request || i >= request->args.size())
    return nullptr;
  return &request->args[i];
}

nxrt_status_t *nxrt_request_copy_arg(const nxrt_request_t *request, size_t i,
                                     void *dst, size_t dst_len) {
  if (!request)
    return nxrt::ToC(absl::InvalidArgumentError("request is null"));
  if (i >= request->args.size())
    return nxrt::ToC(absl::OutOfRangeError(absl::StrFormat(
        "argument %d out of range: the request has %d arguments", i,
        request->args.size())));
  size_t bytes = nxrt_tensor_byte_size(&request->args[i]);
  if (dst_len < bytes || (bytes && !dst))
    return nxrt::ToC(absl::InvalidArgumentError(
        absl::StrFormat("destination holds %d bytes, argument %d needs %d",
                        dst_len, i, bytes)));
  // Registered as a reader first: the compute thread does not return to
  // compiled code (which may then reuse or free the program's buffers) while
  // a reader that saw the request pending is copying.
  request->readers.fetch_add(1, std::memory_order_seq_cst);
  bool pending =
      request->state.load(std::memory_order_seq_cst) == nxrt_request::kPending;
  if (pending && bytes)
    std::memcpy(dst, request->args[i].data, bytes);
  request->readers.fetch_sub(1, std::memory_order_seq_cst);
  if (!pending)
    return nxrt::ToC(absl::DeadlineExceededError(
        absl::StrFormat("bridge request with reply tag %d is no longer pending",
                        request->tag)));
  return nullptr;
}

size_t nxrt_request_num_results(const nxrt_request_t *request) {
  return request ? request->templates.size() : 0;
}

const nxrt_tensor_t *nxrt_request_result_template(const nxrt_request_t *request,
                                                  size_t i) {
  if (!request || i >= request->templates.size())
    return nullptr;
  return &request->templates[i];
}

void nxrt_request_release(nxrt_request_t *request) {
  if (request)
    request->Unref();
}

} // extern "C"
