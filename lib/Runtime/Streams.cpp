//===- Streams.cpp - Named infeed/outfeed streams and values --------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Streams.h"

#include <cstring>

#include "DType.h"
#include "Runtime.h"
#include "Status.h"
#include "absl/strings/str_format.h"

namespace nxrt {

absl::StatusOr<std::unique_ptr<nxrt_value>>
CopyValue(const nxrt_tensor_t *views, size_t n) {
  if (n && !views)
    return absl::InvalidArgumentError("null tensor array");
  auto value = std::make_unique<nxrt_value>();
  value->views.resize(n);
  value->dims.resize(n);
  value->data.resize(n);
  for (size_t i = 0; i < n; ++i) {
    std::string what = absl::StrFormat("tensor %d", i);
    if (absl::Status s = ValidateView(views[i], what.c_str()); !s.ok())
      return s;
    size_t bytes = nxrt_tensor_byte_size(&views[i]);
    value->dims[i].assign(views[i].dims, views[i].dims + views[i].rank);
    // new[] without () so large payloads are not zeroed before the copy.
    value->data[i].reset(new uint8_t[bytes ? bytes : 1]);
    if (bytes)
      std::memcpy(value->data[i].get(), views[i].data, bytes);
    value->views[i] =
        nxrt_tensor_t{views[i].dtype, views[i].rank, value->dims[i].data(),
                      value->data[i].get()};
  }
  return value;
}

absl::Status Stream::PushInfeed(std::unique_ptr<nxrt_value> value) {
  MutexLock lock(&mu_);
  if (closed_)
    return absl::FailedPreconditionError(
        absl::StrFormat("stream '%s' is closed", name_));
  if (infeed_ended_)
    return absl::FailedPreconditionError(
        absl::StrFormat("the infeed of stream '%s' was ended", name_));
  ++infeed_pushed_;
  infeed_.push_back(std::move(value));
  infeed_cv_.Signal();
  return absl::OkStatus();
}

absl::Status Stream::PushOutfeed(std::unique_ptr<nxrt_value> value) {
  MutexLock lock(&mu_);
  if (closed_)
    return absl::FailedPreconditionError(
        absl::StrFormat("stream '%s' is closed", name_));
  outfeed_.push_back(std::move(value));
  outfeed_cv_.Signal();
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<nxrt_value>>
Stream::PopInfeed(absl::Time deadline) {
  MutexLock lock(&mu_);
  return Pop(infeed_, infeed_cv_, deadline, /*drain_after_close=*/false,
             infeed_ended_);
}

absl::StatusOr<std::unique_ptr<nxrt_value>>
Stream::PopOutfeed(absl::Time deadline) {
  static constexpr bool kNeverEnds = false;
  MutexLock lock(&mu_);
  return Pop(outfeed_, outfeed_cv_, deadline, /*drain_after_close=*/true,
             kNeverEnds);
}

absl::StatusOr<std::unique_ptr<nxrt_value>> Stream::Pop(Queue &q, CondVar &cv,
                                                        absl::Time deadline,
                                                        bool drain_after_close,
                                                        const bool &ended) {
  // Once the producer has ended, an empty queue stays empty: waiting could
  // only end at the deadline, if there is one.
  while (!closed_ && q.empty() && !ended &&
         !cv.WaitWithDeadline(&mu_, deadline))
    ;
  // Values pushed before close still reach the host; a program reading a
  // closed stream fails instead, so a run never consumes stale input.
  if (!q.empty() && (!closed_ || drain_after_close)) {
    std::unique_ptr<nxrt_value> value = std::move(q.front());
    q.pop_front();
    return value;
  }
  if (closed_)
    return absl::FailedPreconditionError(
        absl::StrFormat("stream '%s' was closed", name_));
  if (ended)
    return absl::OutOfRangeError(absl::StrFormat(
        "no more infeed values on stream '%s': the host ended its infeed "
        "after %d value(s)",
        name_, infeed_pushed_));
  return absl::DeadlineExceededError(
      absl::StrFormat("no value on stream '%s'", name_));
}

void Stream::EndInfeed() {
  MutexLock lock(&mu_);
  infeed_ended_ = true;
  infeed_cv_.SignalAll();
}

void Stream::Close() {
  MutexLock lock(&mu_);
  closed_ = true;
  infeed_cv_.SignalAll();
  outfeed_cv_.SignalAll();
}

bool Stream::closed() const {
  MutexLock lock(&mu_);
  return closed_;
}

size_t Stream::infeed_size() const {
  MutexLock lock(&mu_);
  return infeed_.size();
}

size_t Stream::outfeed_size() const {
  MutexLock lock(&mu_);
  return outfeed_.size();
}

absl::StatusOr<std::shared_ptr<Stream>> StreamTable::Open(const char *name) {
  if (!name || !*name)
    return absl::InvalidArgumentError("stream name is empty");
  size_t len = std::strlen(name);
  if (len > NXRT_STREAM_NAME_MAX)
    return absl::InvalidArgumentError(
        absl::StrFormat("stream name is %d bytes, longer than the maximum %d",
                        len, NXRT_STREAM_NAME_MAX));
  MutexLock lock(&mu_);
  auto [it, inserted] = open_.try_emplace(name, nullptr);
  if (!inserted)
    return absl::AlreadyExistsError(
        absl::StrFormat("stream '%s' is already open", name));
  it->second = std::make_shared<Stream>(name);
  return it->second;
}

std::shared_ptr<Stream> StreamTable::Find(absl::string_view name) const {
  MutexLock lock(&mu_);
  auto it = open_.find(name);
  return it == open_.end() ? nullptr : it->second;
}

void StreamTable::Remove(const Stream *stream) {
  MutexLock lock(&mu_);
  auto it = open_.find(stream->name());
  if (it != open_.end() && it->second.get() == stream)
    open_.erase(it);
}

} // namespace nxrt

namespace {
absl::Time DeadlineAfterMs(int64_t timeout_ms) {
  return timeout_ms > 0 ? absl::Now() + absl::Milliseconds(timeout_ms)
                        : absl::InfiniteFuture();
}
} // namespace

extern "C" {

nxrt_status_t *nxrt_stream_open(nxrt_runtime_t *runtime, const char *name,
                                nxrt_stream_t **out) {
  if (!runtime || !out)
    return nxrt::ToC(absl::InvalidArgumentError("null runtime or out"));
  *out = nullptr;
  auto stream = runtime->streams.Open(name);
  if (!stream.ok())
    return nxrt::ToC(stream.status());
  *out = new nxrt_stream{*std::move(stream), &runtime->streams};
  return nullptr;
}

void nxrt_stream_close(nxrt_stream_t *stream) {
  if (!stream)
    return;
  // Unregister first, so the name is free once close returns and no new
  // infeed can find the closing stream.
  stream->table->Remove(stream->stream.get());
  stream->stream->Close();
}

void nxrt_stream_end_infeed(nxrt_stream_t *stream) {
  if (stream)
    stream->stream->EndInfeed();
}

void nxrt_stream_destroy(nxrt_stream_t *stream) {
  nxrt_stream_close(stream);
  delete stream;
}

nxrt_status_t *nxrt_stream_push_infeed(nxrt_stream_t *stream,
                                       const nxrt_tensor_t *values, size_t n) {
  if (!stream)
    return nxrt::ToC(absl::InvalidArgumentError("stream is null"));
  auto value = nxrt::CopyValue(values, n);
  if (!value.ok())
    return nxrt::ToC(value.status());
  return nxrt::ToC(stream->stream->PushInfeed(*std::move(value)));
}

nxrt_status_t *nxrt_stream_pop_outfeed(nxrt_stream_t *stream,
                                       int64_t timeout_ms, nxrt_value_t **out) {
  if (!stream || !out)
    return nxrt::ToC(absl::InvalidArgumentError("null stream or out"));
  *out = nullptr;
  auto value = stream->stream->PopOutfeed(DeadlineAfterMs(timeout_ms));
  if (!value.ok()) {
    if (absl::IsDeadlineExceeded(value.status()))
      return nxrt::ToC(absl::DeadlineExceededError(
          absl::StrFormat("no outfeed value on stream '%s' within %d ms",
                          stream->stream->name(), timeout_ms)));
    return nxrt::ToC(value.status());
  }
  *out = value->release();
  return nullptr;
}

size_t nxrt_stream_infeed_size(const nxrt_stream_t *stream) {
  return stream ? stream->stream->infeed_size() : 0;
}

size_t nxrt_stream_outfeed_size(const nxrt_stream_t *stream) {
  return stream ? stream->stream->outfeed_size() : 0;
}

size_t nxrt_value_size(const nxrt_value_t *value) {
  return value ? value->views.size() : 0;
}

const nxrt_tensor_t *nxrt_value_tensor(const nxrt_value_t *value, size_t i) {
  if (!value || i >= value->views.size())
    return nullptr;
  return &value->views[i];
}

void nxrt_value_free(nxrt_value_t *value) { delete value; }

} // extern "C"
