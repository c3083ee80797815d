//===- Feeds.cpp - Infeed and outfeed call sites --------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Feeds.h"

#include <cstring>

#include "DType.h"
#include "absl/strings/str_format.h"

namespace nxrt {
namespace {

absl::StatusOr<std::shared_ptr<Stream>>
resolveStream(StreamTable &streams, const nxrt_tensor_t *args, size_t nargs) {
  if (nargs < 1 || !args)
    return absl::InvalidArgumentError("missing the stream handle operand");
  auto name = decodeStreamHandle(args[0]);
  if (!name.ok())
    return name.status();
  std::shared_ptr<Stream> stream = streams.find(*name);
  if (!stream)
    return absl::NotFoundError(absl::StrFormat("no stream named '%s'", *name));
  return stream;
}

bool isTag(const nxrt_tensor_t &t) {
  return t.dtype == NXRT_U8 && t.rank == 1 && t.dims &&
         t.dims[0] == NXRT_STREAM_TAG_SIZE && t.data;
}

} // namespace

absl::Status runOutfeed(StreamTable &streams, const nxrt_site &site,
                        const nxrt_tensor_t *args, size_t nargs,
                        nxrt_tensor_t *results, size_t nresults) {
  auto stream = resolveStream(streams, args, nargs);
  if (!stream.ok())
    return site.failed(stream.status());
  nxrt_tensor_t *flag = nullptr;
  if (nresults == 1 && results &&
      (results[0].dtype == NXRT_U8 || results[0].dtype == NXRT_PRED) &&
      results[0].rank == 0 && results[0].data) {
    flag = &results[0];
  } else if (nresults != 0) {
    return site.failed(absl::InvalidArgumentError(absl::StrFormat(
        "expected no results or one tensor<ui8>/tensor<i1> flag, got %s",
        results ? typeListString(absl::MakeConstSpan(results, nresults))
                : "null results")));
  }
  // Copied: the payload buffers belong to the program and are reused as
  // soon as this call returns.
  auto value = copyValue(args + 1, nargs - 1);
  if (!value.ok())
    return site.failed(value.status());
  if (absl::Status s = (*stream)->pushOutfeed(*std::move(value)); !s.ok())
    return site.failed(s);
  if (flag)
    *static_cast<uint8_t *>(flag->data) = 1;
  return absl::OkStatus();
}

absl::Status runInfeed(StreamTable &streams, const nxrt_site &site,
                       absl::Time runDeadline, absl::Duration runTimeout,
                       const nxrt_tensor_t *args, size_t nargs,
                       nxrt_tensor_t *results, size_t nresults) {
  auto stream = resolveStream(streams, args, nargs);
  if (!stream.ok())
    return site.failed(stream.status());
  if (nargs != 2 || !isTag(args[1]))
    return site.failed(absl::InvalidArgumentError(absl::StrFormat(
        "expected operands (stream handle, tensor<8xui8> tag), got %s",
        typeListString(absl::MakeConstSpan(args, nargs)))));
  if (nresults < 1 || !results || !isTag(results[0]))
    return site.failed(absl::InvalidArgumentError(absl::StrFormat(
        "expected the first result to be the tensor<8xui8> next tag, got %s",
        results ? typeListString(absl::MakeConstSpan(results, nresults))
                : "null results")));
  for (size_t i = 1; i < nresults; ++i) {
    if (absl::Status s = validateView(results[i], "result", i); !s.ok())
      return site.failed(s);
  }

  absl::Time siteDeadline = site.infeedTimeout == absl::InfiniteDuration()
                                ? absl::InfiniteFuture()
                                : absl::Now() + site.infeedTimeout;
  bool runBinds = runDeadline < siteDeadline;
  auto value = (*stream)->popInfeed(runBinds ? runDeadline : siteDeadline);
  if (!value.ok()) {
    if (absl::IsDeadlineExceeded(value.status()))
      return absl::DeadlineExceededError(
          runBinds
              ? absl::StrFormat("%s timed out after %d ms (run deadline) "
                                "waiting for stream '%s'",
                                site.what,
                                absl::ToInt64Milliseconds(runTimeout),
                                (*stream)->name())
              : absl::StrFormat("%s timed out after %d ms waiting for stream "
                                "'%s'",
                                site.what,
                                absl::ToInt64Milliseconds(site.infeedTimeout),
                                (*stream)->name()));
    return site.failed(value.status());
  }

  // The value is consumed even when it does not fit: leaving it queued would
  // make every later infeed fail on the same value.
  auto payload = absl::MakeConstSpan(results + 1, nresults - 1);
  bool fits = (*value)->views.size() == payload.size();
  for (size_t i = 0; fits && i < payload.size(); ++i)
    fits = sameType((*value)->views[i], payload[i]);
  if (!fits)
    return site.failed(absl::InvalidArgumentError(absl::StrFormat(
        "expected the infeed value from stream '%s' to match %s, got %s",
        (*stream)->name(), typeListString(payload),
        typeListString((*value)->views))));
  for (size_t i = 0; i < payload.size(); ++i)
    std::memcpy(payload[i].data, (*value)->views[i].data,
                nxrt_tensor_byte_size(&payload[i]));

  uint64_t tag = 0;
  const auto *in = static_cast<const uint8_t *>(args[1].data);
  for (int k = 0; k < 8; ++k)
    tag |= uint64_t(in[k]) << (8 * k);
  ++tag;
  auto *out = static_cast<uint8_t *>(results[0].data);
  for (int k = 0; k < 8; ++k)
    out[k] = static_cast<uint8_t>(tag >> (8 * k));
  return absl::OkStatus();
}

} // namespace nxrt
