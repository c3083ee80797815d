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
// reuse the heap's pages. Smaller buffers come from the heap, whose fresh
// pages fault in one by one too: nxrt_heap_prepare faults them in when the
// program loads, in one request to the kernel where it takes one.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

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

/// A heap warmed up by nxrt_heap_prepare stays below this: a program with
/// more intermediate data than that pays its page faults once per page in
/// its first run, but the process does not keep more free memory mapped
/// than nxrt_runtime_create lets malloc keep (128 MiB).
constexpr uint64_t kHeapPrepareLimit = uint64_t{64} << 20;
/// The blocks nxrt_heap_prepare asks malloc for: below the mmap threshold
/// that nxrt_runtime_create sets (32 MiB), so that they come from the heap.
constexpr size_t kHeapPrepareBlock = size_t{8} << 20;

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14
#endif

/// Faults in every page of [ptr, ptr + size) for writing: in one request
/// where the kernel takes it (Linux 5.14 and later; on a virtual machine
/// about a sixth of the cost of faulting page by page), else by writing a
/// byte of each page, which the buffer's owner may overwrite.
void faultIn(char *ptr, size_t size) {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  uintptr_t begin = reinterpret_cast<uintptr_t>(ptr);
  uintptr_t first = (begin + page - 1) & ~(page - 1);
  uintptr_t last = (begin + size) & ~(page - 1);
  if (last > first && madvise(reinterpret_cast<void *>(first), last - first,
                              MADV_POPULATE_WRITE) == 0)
    return;
  for (size_t offset = 0; offset < size; offset += page)
    ptr[offset] = 0;
}

} // namespace

extern "C" {

void nxrt_heap_prepare(uint64_t bytes) {
#ifdef __GLIBC__
  // Twice the program's own buffers: the libraries' workspaces (oneDNN packs
  // each product's operands) come from the same heap, and the first run's
  // buffers do not fit its free memory exactly. A transformer block
  // (10.5 MB of buffers at once) took 40 ms in its first run on the
  // development VM, 27 ms with its own bytes prepared, 15-20 ms with twice
  // them, against 5.3 ms in later runs.
  uint64_t wanted = bytes > UINT64_MAX / 2 ? UINT64_MAX : 2 * bytes;
  // The blocks are freed from the last to the first, each next to the
  // heap's top, so they merge back into it: its pages stay mapped (below
  // the trim threshold) for the buffers of the program's first run.
  std::vector<void *> blocks;
  for (uint64_t left = std::min(wanted, kHeapPrepareLimit); left > 0;) {
    size_t size =
        static_cast<size_t>(std::min<uint64_t>(left, kHeapPrepareBlock));
    void *block = std::malloc(size);
    if (!block)
      break;
    faultIn(static_cast<char *>(block), size);
    blocks.push_back(block);
    left -= size;
  }
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it)
    std::free(*it);
#else
  // Another C library's heap may hand the pages back as soon as they are
  // freed: nothing to prepare.
  (void)bytes;
#endif
}

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
