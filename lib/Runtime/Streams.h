//===- Streams.h - Named infeed/outfeed streams -----------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_RUNTIME_STREAMS_H
#define NXRT_LIB_RUNTIME_STREAMS_H

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
CopyValue(const nxrt_tensor_t *views, size_t n);

// Validates an untrusted stream handle tensor and returns the name (a view
// into the tensor's data).
absl::StatusOr<absl::string_view> DecodeStreamHandle(const nxrt_tensor_t &t);

class Stream {
public:
  explicit Stream(std::string name) : name_(std::move(name)) {}
  const std::string &name() const { return name_; }

  absl::Status PushInfeed(std::unique_ptr<nxrt_value> value);
  absl::StatusOr<std::unique_ptr<nxrt_value>> PopInfeed(absl::Time deadline);
  absl::Status PushOutfeed(std::unique_ptr<nxrt_value> value);
  absl::StatusOr<std::unique_ptr<nxrt_value>> PopOutfeed(absl::Time deadline);
  // The host will push no more infeed values: once the queued ones are
  // consumed, infeeds fail at once instead of waiting.
  void EndInfeed();
  void Close();
  bool closed() const;
  size_t infeed_size() const;
  size_t outfeed_size() const;

private:
  using Queue = std::deque<std::unique_ptr<nxrt_value>>;
  // `ended`: nothing more will be pushed to `q` (only the infeed ends this
  // way: a program may always outfeed more). A reference, re-read after
  // each wake-up, since EndInfeed may set it while a pop waits.
  absl::StatusOr<std::unique_ptr<nxrt_value>>
  Pop(Queue &q, CondVar &cv, absl::Time deadline, bool drain_after_close,
      const bool &ended) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string name_;
  mutable Mutex mu_;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool infeed_ended_ ABSL_GUARDED_BY(mu_) = false;
  // Infeed values pushed so far, for the message of a read past the end.
  uint64_t infeed_pushed_ ABSL_GUARDED_BY(mu_) = 0;
  Queue infeed_ ABSL_GUARDED_BY(mu_);
  Queue outfeed_ ABSL_GUARDED_BY(mu_);
  CondVar infeed_cv_;  // signalled on push, end of infeed and close
  CondVar outfeed_cv_; // signalled on push and close
};

// Open streams by name. Streams are shared: in-flight infeeds keep a closed
// stream alive until they return.
class StreamTable {
public:
  absl::StatusOr<std::shared_ptr<Stream>> Open(const char *name);
  std::shared_ptr<Stream> Find(absl::string_view name) const;
  // Unregisters `stream` if it is still the one bound to its name.
  void Remove(const Stream *stream);

private:
  mutable Mutex mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<Stream>>
      open_ ABSL_GUARDED_BY(mu_);
};

} // namespace nxrt

struct nxrt_stream {
  std::shared_ptr<nxrt::Stream> stream;
  nxrt::StreamTable *table;
};

#endif // NXRT_LIB_RUNTIME_STREAMS_H
