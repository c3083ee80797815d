//===- Allocation.cpp - Heap buffers of compiled code ---------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nx-lower-to-cpu lowers memref.alloc/dealloc to MLIR's generic allocation
// functions (finalize-memref-to-llvm{use-generic-functions}), defined here.
// They are malloc/aligned_alloc/free, plus a record in the calling thread's
// current run: compiled code stops at a failed invoke without running its
// deallocations, and nxrt_run_end then frees what the run still held.
// Outside a run they are plain malloc/free. Buffers stay compatible with
// free(), so a host releases returned buffers the usual way.
//
// A large buffer is first touched by the program that fills it: with 4 KiB
// pages a fresh 16 MiB output takes 4096 page faults, 50 ms on a virtual
// machine against 6 ms to write it once faulted. Such buffers ask the
// kernel for transparent huge pages (where it gives them on request), so
// the first run of a program costs little more than the later ones, which
// reuse the heap's pages.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/mman.h>

#include "Run.h"
#include "absl/strings/str_cat.h"

namespace {

/// Buffers from this size on ask for huge pages: at least one whole 2 MiB
/// page lies inside them wherever they start.
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kHugePageAdviceFrom = 2 * kHugePage;

/// Advises the kernel to back the whole 2 MiB pages inside [ptr, ptr +
/// size) with huge pages. Advice only: a kernel that refuses it (THP off,
/// or an older one) leaves 4 KiB pages, and nothing else changes.
void adviseHugePages(void *ptr, size_t size) {
#ifdef MADV_HUGEPAGE
  if (!ptr || size < kHugePageAdviceFrom)
    return;
  uintptr_t begin = reinterpret_cast<uintptr_t>(ptr);
  uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  uintptr_t last = (begin + size) & ~(kHugePage - 1);
  if (last > first)
    (void)madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE);
#endif
}

} // namespace

extern "C" {

void *_mlir_memref_to_llvm_alloc(size_t size) {
  // Compiled code reads NULL as a failed allocation, which malloc(0) may
  // return.
  void *ptr = std::malloc(size ? size : 1);
  adviseHugePages(ptr, size);
  if (nxrt_run_t *run = nxrt::tlsCurrentRun; run && ptr)
    run->trackAllocation(ptr);
  return ptr;
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  // aligned_alloc wants a size that is a multiple of the alignment; a size
  // that cannot be rounded up cannot be allocated either.
  if (alignment && size > SIZE_MAX - alignment)
    return nullptr;
  size_t rounded =
      alignment ? (size + alignment - 1) / alignment * alignment : size;
  if (rounded == 0)
    rounded = alignment ? alignment : 1;
  void *ptr = std::aligned_alloc(alignment, rounded);
  adviseHugePages(ptr, rounded);
  if (nxrt_run_t *run = nxrt::tlsCurrentRun; run && ptr)
    run->trackAllocation(ptr);
  return ptr;
}

void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  if (nxrt_run_t *run = nxrt::tlsCurrentRun)
    run->untrackAllocation(ptr);
  std::free(ptr);
}

void nxrt_out_of_memory(nxrt_run_t *run, uint64_t bytes, const char *location) {
  std::string message = absl::StrCat(
      "out of memory at ", location ? location : "unknown location",
      ": cannot allocate a buffer of ", bytes, " bytes");
  if (run) {
    nxrt_status_free(run->fail(absl::ResourceExhaustedError(message)));
    return;
  }
  // Outside a run nothing would read the failure, and the code cannot go on
  // without its buffer.
  std::fprintf(stderr, "nxrt: fatal: %s\n", message.c_str());
  std::fflush(stderr);
  std::abort();
}

} // extern "C"
