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

#ifndef NXRT_LIB_POINTERSET_H
#define NXRT_LIB_POINTERSET_H

#include <cstddef>
#include <cstdint>
#include <memory>

namespace nxrt {

class PointerSet {
public:
  // Adds `ptr` (not null, not already present).
  void insert(void *ptr) {
    if (2 * (numPointers + tombstones + 1) > numSlots)
      rehash();
    size_t i = slot(ptr);
    while (slots[i] != nullptr && slots[i] != tombstone())
      i = (i + 1) & (numSlots - 1);
    if (slots[i] == tombstone())
      --tombstones;
    slots[i] = ptr;
    ++numPointers;
  }

  // Removes `ptr` if present.
  void erase(void *ptr) {
    if (numPointers == 0)
      return;
    for (size_t i = slot(ptr); slots[i] != nullptr;
         i = (i + 1) & (numSlots - 1)) {
      if (slots[i] == ptr) {
        slots[i] = tombstone();
        --numPointers;
        ++tombstones;
        return;
      }
    }
  }

  template <typename Fn> void forEach(Fn &&fn) const {
    for (size_t i = 0; i < numSlots; ++i)
      if (slots[i] != nullptr && slots[i] != tombstone())
        fn(slots[i]);
  }

  void clear() {
    slots.reset();
    numSlots = numPointers = tombstones = 0;
  }

  size_t size() const { return numPointers; }

private:
  static void *tombstone() { return reinterpret_cast<void *>(uintptr_t{1}); }

  size_t slot(void *ptr) const {
    // Heap addresses are 16-byte aligned: drop those bits, then take the
    // high bits of a Fibonacci hash.
    uint64_t h = (reinterpret_cast<uintptr_t>(ptr) >> 4) * 0x9E3779B97F4A7C15u;
    return static_cast<size_t>(h >> (64 - log2Capacity));
  }

  // Grows when more than a quarter of the table holds live pointers, else
  // rebuilds at the same size to drop the tombstones.
  void rehash() {
    size_t capacity = numSlots == 0 ? 16 : numSlots;
    if (4 * (numPointers + 1) > capacity)
      capacity *= 2;
    std::unique_ptr<void *[]> old = std::move(slots);
    size_t oldCapacity = numSlots;
    slots.reset(new void *[capacity]());
    numSlots = capacity;
    log2Capacity = 0;
    while ((size_t{1} << log2Capacity) < numSlots)
      ++log2Capacity;
    numPointers = tombstones = 0;
    for (size_t i = 0; i < oldCapacity; ++i)
      if (old[i] != nullptr && old[i] != tombstone())
        insert(old[i]);
  }

  std::unique_ptr<void *[]> slots;
  size_t numSlots = 0;
  unsigned log2Capacity = 0;
  size_t numPointers = 0;
  size_t tombstones = 0;
};

} // namespace nxrt

#endif // NXRT_LIB_POINTERSET_H
