//===- PointerSet.h - A set of heap pointers for the allocation record ---===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The record of a run's live heap buffers sits on compiled code's allocation
// path: one insert per allocation, one erase per free. Open addressing with
// linear probing over a power-of-two table, a multiplicative hash of the
// address and tombstones for erased slots: a few nanoseconds per operation
// (NxrtAllocationBench measures the record against plain malloc/free: about
// +10 ns per allocated and freed buffer, where absl::flat_hash_set added
// about +27 ns). Not thread-safe: a run's record is only touched by the
// run's thread.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_RUNTIME_POINTERSET_H
#define NXRT_LIB_RUNTIME_POINTERSET_H

#include <cstddef>
#include <cstdint>
#include <memory>

namespace nxrt {

class PointerSet {
public:
  // Adds `ptr` (not null, not already present).
  void Insert(void *ptr) {
    if (2 * (size_ + tombstones_ + 1) > capacity_)
      Rehash();
    size_t i = Slot(ptr);
    while (slots_[i] != nullptr && slots_[i] != Tombstone())
      i = (i + 1) & (capacity_ - 1);
    if (slots_[i] == Tombstone())
      --tombstones_;
    slots_[i] = ptr;
    ++size_;
  }

  // Removes `ptr` if present.
  void Erase(void *ptr) {
    if (size_ == 0)
      return;
    for (size_t i = Slot(ptr); slots_[i] != nullptr;
         i = (i + 1) & (capacity_ - 1)) {
      if (slots_[i] == ptr) {
        slots_[i] = Tombstone();
        --size_;
        ++tombstones_;
        return;
      }
    }
  }

  template <typename Fn> void ForEach(Fn &&fn) const {
    for (size_t i = 0; i < capacity_; ++i)
      if (slots_[i] != nullptr && slots_[i] != Tombstone())
        fn(slots_[i]);
  }

  void Clear() {
    slots_.reset();
    capacity_ = size_ = tombstones_ = 0;
  }

  size_t size() const { return size_; }

private:
  static void *Tombstone() { return reinterpret_cast<void *>(uintptr_t{1}); }

  size_t Slot(void *ptr) const {
    // Heap addresses are 16-byte aligned: drop those bits, then take the
    // high bits of a Fibonacci hash.
    uint64_t h = (reinterpret_cast<uintptr_t>(ptr) >> 4) * 0x9E3779B97F4A7C15u;
    return static_cast<size_t>(h >> (64 - log2_capacity_));
  }

  // Grows when more than a quarter of the table holds live pointers, else
  // rebuilds at the same size to drop the tombstones.
  void Rehash() {
    size_t capacity = capacity_ == 0 ? 16 : capacity_;
    if (4 * (size_ + 1) > capacity)
      capacity *= 2;
    std::unique_ptr<void *[]> old = std::move(slots_);
    size_t oldCapacity = capacity_;
    slots_.reset(new void *[capacity]());
    capacity_ = capacity;
    log2_capacity_ = 0;
    while ((size_t{1} << log2_capacity_) < capacity_)
      ++log2_capacity_;
    size_ = tombstones_ = 0;
    for (size_t i = 0; i < oldCapacity; ++i)
      if (old[i] != nullptr && old[i] != Tombstone())
        Insert(old[i]);
  }

  std::unique_ptr<void *[]> slots_;
  size_t capacity_ = 0;
  unsigned log2_capacity_ = 0;
  size_t size_ = 0;
  size_t tombstones_ = 0;
};

} // namespace nxrt

#endif // NXRT_LIB_RUNTIME_POINTERSET_H
