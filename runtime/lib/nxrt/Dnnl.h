//===- Dnnl.h - what libnxrt's oneDNN primitives share ----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The convolutions (Convolution.cpp) and the bf16 and i8 products
// (OneDnnMatmul.cpp) of compiled code run oneDNN primitives on one CPU
// engine, each with a scratchpad its caller passes in, from plans kept by
// key.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_DNNL_H
#define NXRT_LIB_DNNL_H

#include "Sync.h"

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <utility>

namespace nxrt {

/// The process's oneDNN CPU engine, made at the first call and never
/// destroyed (primitives cached in static maps outlive any destructor
/// order). Thread-safe.
dnnl::engine &dnnlCpuEngine();

/// Attributes that make the caller pass each primitive's scratchpad. In its
/// default mode, this build of oneDNN hands every primitive one scratchpad
/// shared by the whole process: convolutions called at once from two host
/// threads wrote over each other's partial sums.
dnnl::primitive_attr withUserScratchpad(dnnl::primitive_attr attributes);

/// A thread's buffer for an operand in a kernel's layout, or for a
/// primitive's scratchpad: kept between calls, grown when a larger one is
/// needed, so that a model's primitives allocate nothing after their first
/// calls. Not thread-safe: each thread keeps its own.
class ScratchBuffer {
public:
  /// At least `bytes`, 64-byte aligned. Throws dnnl::error when there is
  /// no memory for it.
  void *get(size_t bytes);

  /// Grows the buffer to `bytes` now and writes it, so that its pages are
  /// mapped before the first call that needs it. A failed allocation is
  /// left to that call, which falls back to a loop.
  void reserve(size_t bytes);

private:
  struct FreeDeleter {
    void operator()(void *p) const { std::free(p); }
  };
  std::unique_ptr<void, FreeDeleter> data;
  size_t capacity = 0;
};

/// Plans (a primitive and what running it needs) by key, made by `make` at
/// a key's first use and kept, refusals (nullptr) included, so that a key
/// oneDNN refuses is asked once. A program has a handful of shapes; the map
/// is emptied if some host makes it grow past kMaxPlans. Thread-safe.
template <typename Key, typename Plan> class PlanCache {
public:
  using MakePlan = std::shared_ptr<const Plan> (*)(const Key &);

  explicit PlanCache(MakePlan make) : make(make) {}

  std::shared_ptr<const Plan> get(const Key &key) {
    {
      MutexLock lock(&mutex);
      auto it = plans.find(key);
      if (it != plans.end())
        return it->second;
    }
    // Made outside the lock: two threads may both make one, and the first
    // one stored is kept.
    std::shared_ptr<const Plan> plan = make(key);
    MutexLock lock(&mutex);
    if (plans.size() >= kMaxPlans)
      plans.clear();
    return plans.try_emplace(key, std::move(plan)).first->second;
  }

private:
  static constexpr size_t kMaxPlans = 256;
  const MakePlan make;
  // nxrt's: ThreadSanitizer sees its locks, and a lookup is short enough
  // not to need a reader lock.
  Mutex mutex;
  absl::flat_hash_map<Key, std::shared_ptr<const Plan>>
      plans ABSL_GUARDED_BY(mutex);
};

} // namespace nxrt

#endif // NXRT_LIB_DNNL_H
