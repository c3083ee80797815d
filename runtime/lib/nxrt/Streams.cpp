//===- Streams.cpp - Named infeed/outfeed streams and values --------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Streams.h"

#include <cstring>
#include <new>

#include "DType.h"
#include "Runtime.h"
#include "Status.h"
#include "absl/strings/str_format.h"

namespace nxrt {

absl::StatusOr<std::unique_ptr<nxrt_value>>
copyValue(const nxrt_tensor_t *views, size_t n) {
  if (n && !views)
    return absl::InvalidArgumentError("null tensor array");
  auto value = std::make_unique<nxrt_value>();
  value->views.resize(n);
  value->dims.resize(n);
  value->data.resize(n);
  for (size_t i = 0; i < n; ++i) {
    std::string what = absl::StrFormat("tensor %d", i);
    if (absl::Status s = validateView(views[i], what.c_str()); !s.ok())
      return s;
    size_t bytes = nxrt_tensor_byte_size(&views[i]);
    value->dims[i].assign(views[i].dims, views[i].dims + views[i].rank);
    // new[] without () so large payloads are not zeroed before the copy;
    // a size the allocator refuses fails the push, not the process.
    value->data[i].reset(new (std::nothrow) uint8_t[bytes ? bytes : 1]);
    if (!value->data[i])
      return absl::ResourceExhaustedError(absl::StrFormat(
          "out of memory for %s of the value (%d bytes)", what, bytes));
    if (bytes)
      std::memcpy(value->data[i].get(), views[i].data, bytes);
    value->views[i] =
        nxrt_tensor_t{views[i].dtype, views[i].rank, value->dims[i].data(),
                      value->data[i].get()};
  }
  return value;
}

absl::Status Stream::pushInfeed(std::unique_ptr<nxrt_value> value) {
  MutexLock lock(&mu);
  if (isClosed)
    return absl::FailedPreconditionError(
        absl::StrFormat("stream '%s' is closed", streamName));
  if (infeedEnded)
    return absl::FailedPreconditionError(
        absl::StrFormat("the infeed of stream '%s' was ended", streamName));
  ++infeedPushed;
  infeed.push_back(std::move(value));
  infeedCv.signal();
  return absl::OkStatus();
}

absl::Status Stream::pushOutfeed(std::unique_ptr<nxrt_value> value) {
  MutexLock lock(&mu);
  if (isClosed)
    return absl::FailedPreconditionError(
        absl::StrFormat("stream '%s' is closed", streamName));
  outfeed.push_back(std::move(value));
  outfeedCv.signal();
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<nxrt_value>>
Stream::popInfeed(absl::Time deadline) {
  MutexLock lock(&mu);
  return pop(infeed, infeedCv, deadline, /*drainAfterClose=*/false,
             infeedEnded);
}

absl::StatusOr<std::unique_ptr<nxrt_value>>
Stream::popOutfeed(absl::Time deadline) {
  static constexpr bool kNeverEnds = false;
  MutexLock lock(&mu);
  return pop(outfeed, outfeedCv, deadline, /*drainAfterClose=*/true,
             kNeverEnds);
}

absl::StatusOr<std::unique_ptr<nxrt_value>> Stream::pop(Queue &q, CondVar &cv,
                                                        absl::Time deadline,
                                                        bool drainAfterClose,
                                                        const bool &ended) {
  // Once the producer has ended, an empty queue stays empty: waiting could
  // only end at the deadline, if there is one.
  while (!isClosed && q.empty() && !ended &&
         !cv.waitWithDeadline(&mu, deadline))
    ;
  // Values pushed before close still reach the host; a program reading a
  // closed stream fails instead, so a run never consumes stale input.
  if (!q.empty() && (!isClosed || drainAfterClose)) {
    std::unique_ptr<nxrt_value> value = std::move(q.front());
    q.pop_front();
    return value;
  }
  if (isClosed)
    return absl::FailedPreconditionError(
        absl::StrFormat("stream '%s' was closed", streamName));
  if (ended)
    return absl::OutOfRangeError(absl::StrFormat(
        "no more infeed values on stream '%s': the host ended its infeed "
        "after %d value(s)",
        streamName, infeedPushed));
  return absl::DeadlineExceededError(
      absl::StrFormat("no value on stream '%s'", streamName));
}

void Stream::endInfeed() {
  MutexLock lock(&mu);
  infeedEnded = true;
  infeedCv.signalAll();
}

void Stream::close() {
  MutexLock lock(&mu);
  isClosed = true;
  infeedCv.signalAll();
  outfeedCv.signalAll();
}

bool Stream::closed() const {
  MutexLock lock(&mu);
  return isClosed;
}

size_t Stream::infeedSize() const {
  MutexLock lock(&mu);
  return infeed.size();
}

size_t Stream::outfeedSize() const {
  MutexLock lock(&mu);
  return outfeed.size();
}

absl::StatusOr<std::shared_ptr<Stream>> StreamTable::open(const char *name) {
  if (!name || !*name)
    return absl::InvalidArgumentError("stream name is empty");
  size_t len = std::strlen(name);
  if (len > NXRT_STREAM_NAME_MAX)
    return absl::InvalidArgumentError(
        absl::StrFormat("stream name is %d bytes, longer than the maximum %d",
                        len, NXRT_STREAM_NAME_MAX));
  MutexLock lock(&mu);
  auto [it, inserted] = openStreams.try_emplace(name, nullptr);
  if (!inserted)
    return absl::AlreadyExistsError(
        absl::StrFormat("stream '%s' is already open", name));
  it->second = std::make_shared<Stream>(name);
  return it->second;
}

std::shared_ptr<Stream> StreamTable::find(absl::string_view name) const {
  MutexLock lock(&mu);
  auto it = openStreams.find(name);
  return it == openStreams.end() ? nullptr : it->second;
}

void StreamTable::remove(const Stream *stream) {
  MutexLock lock(&mu);
  auto it = openStreams.find(stream->name());
  if (it != openStreams.end() && it->second.get() == stream)
    openStreams.erase(it);
}

} // namespace nxrt

namespace {
absl::Time deadlineAfterMs(int64_t timeoutMs) {
  return timeoutMs > 0 ? absl::Now() + absl::Milliseconds(timeoutMs)
                       : absl::InfiniteFuture();
}
} // namespace

extern "C" {

nxrt_status_t *nxrt_stream_open(nxrt_runtime_t *runtime, const char *name,
                                nxrt_stream_t **out) {
  if (!runtime || !out)
    return nxrt::toC(absl::InvalidArgumentError("null runtime or out"));
  *out = nullptr;
  auto stream = runtime->streams.open(name);
  if (!stream.ok())
    return nxrt::toC(stream.status());
  *out = new nxrt_stream{*std::move(stream), &runtime->streams};
  return nullptr;
}

void nxrt_stream_close(nxrt_stream_t *stream) {
  if (!stream)
    return;
  // Unregister first, so the name is free once close returns and no new
  // infeed can find the closing stream.
  stream->table->remove(stream->stream.get());
  stream->stream->close();
}

void nxrt_stream_end_infeed(nxrt_stream_t *stream) {
  if (stream)
    stream->stream->endInfeed();
}

void nxrt_stream_destroy(nxrt_stream_t *stream) {
  nxrt_stream_close(stream);
  delete stream;
}

nxrt_status_t *nxrt_stream_push_infeed(nxrt_stream_t *stream,
                                       const nxrt_tensor_t *values, size_t n) {
  if (!stream)
    return nxrt::toC(absl::InvalidArgumentError("stream is null"));
  auto value = nxrt::copyValue(values, n);
  if (!value.ok())
    return nxrt::toC(value.status());
  return nxrt::toC(stream->stream->pushInfeed(*std::move(value)));
}

nxrt_status_t *nxrt_stream_pop_outfeed(nxrt_stream_t *stream, int64_t timeoutMs,
                                       nxrt_value_t **out) {
  if (!stream || !out)
    return nxrt::toC(absl::InvalidArgumentError("null stream or out"));
  *out = nullptr;
  auto value = stream->stream->popOutfeed(deadlineAfterMs(timeoutMs));
  if (!value.ok()) {
    if (absl::IsDeadlineExceeded(value.status()))
      return nxrt::toC(absl::DeadlineExceededError(
          absl::StrFormat("no outfeed value on stream '%s' within %d ms",
                          stream->stream->name(), timeoutMs)));
    return nxrt::toC(value.status());
  }
  *out = value->release();
  return nullptr;
}

size_t nxrt_stream_infeed_size(const nxrt_stream_t *stream) {
  return stream ? stream->stream->infeedSize() : 0;
}

size_t nxrt_stream_outfeed_size(const nxrt_stream_t *stream) {
  return stream ? stream->stream->outfeedSize() : 0;
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
