//===- Streams.h - Named infeed/outfeed streams -----------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_STREAMS_H
#define NXRT_LIB_STREAMS_H

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Sync.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "nxrt/nxrt.h"

// An owned list of tensors: one infeed or outfeed value.
struct nxrt_value {
  std::vector<nxrt_tensor_t> views;
  std::vector<std::vector<int64_t>> dims;
  std::vector<std::unique_ptr<uint8_t[]>> data;
};

namespace nxrt {

// Deep-copies views (validated first: they come from the host or from
// program buffers whose dims we must not trust blindly).
absl::StatusOr<std::unique_ptr<nxrt_value>>
copyValue(const nxrt_tensor_t *views, size_t n);

// Validates an untrusted stream handle tensor and returns the name (a view
// into the tensor's data).
absl::StatusOr<absl::string_view> decodeStreamHandle(const nxrt_tensor_t &t);

class Stream {
public:
  explicit Stream(std::string name) : streamName(std::move(name)) {}
  const std::string &name() const { return streamName; }

  absl::Status pushInfeed(std::unique_ptr<nxrt_value> value);
  absl::StatusOr<std::unique_ptr<nxrt_value>> popInfeed(absl::Time deadline);
  absl::Status pushOutfeed(std::unique_ptr<nxrt_value> value);
  absl::StatusOr<std::unique_ptr<nxrt_value>> popOutfeed(absl::Time deadline);
  // The host will push no more infeed values: once the queued ones are
  // consumed, infeeds fail at once instead of waiting.
  void endInfeed();
  void close();
  bool closed() const;
  size_t infeedSize() const;
  size_t outfeedSize() const;

private:
  using Queue = std::deque<std::unique_ptr<nxrt_value>>;
  // `ended`: nothing more will be pushed to `q` (only the infeed ends this
  // way: a program may always outfeed more). A reference, re-read after
  // each wake-up, since EndInfeed may set it while a pop waits.
  absl::StatusOr<std::unique_ptr<nxrt_value>>
  pop(Queue &q, CondVar &cv, absl::Time deadline, bool drainAfterClose,
      const bool &ended) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);

  const std::string streamName;
  mutable Mutex mu;
  bool isClosed ABSL_GUARDED_BY(mu) = false;
  bool infeedEnded ABSL_GUARDED_BY(mu) = false;
  // Infeed values pushed so far, for the message of a read past the end.
  uint64_t infeedPushed ABSL_GUARDED_BY(mu) = 0;
  Queue infeed ABSL_GUARDED_BY(mu);
  Queue outfeed ABSL_GUARDED_BY(mu);
  CondVar infeedCv;  // signalled on push, end of infeed and close
  CondVar outfeedCv; // signalled on push and close
};

// Open streams by name. Streams are shared: in-flight infeeds keep a closed
// stream alive until they return.
class StreamTable {
public:
  absl::StatusOr<std::shared_ptr<Stream>> open(const char *name);
  std::shared_ptr<Stream> find(absl::string_view name) const;
  // Unregisters `stream` if it is still the one bound to its name.
  void remove(const Stream *stream);

private:
  mutable Mutex mu;
  absl::flat_hash_map<std::string, std::shared_ptr<Stream>>
      openStreams ABSL_GUARDED_BY(mu);
};

} // namespace nxrt

struct nxrt_stream {
  std::shared_ptr<nxrt::Stream> stream;
  nxrt::StreamTable *table;
};

#endif // NXRT_LIB_STREAMS_H
