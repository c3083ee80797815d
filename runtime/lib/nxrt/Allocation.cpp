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
//===----------------------------------------------------------------------===//

#include <cstdlib>

#include "Run.h"

extern "C" {

void *_mlir_memref_to_llvm_alloc(size_t size) {
  void *ptr = std::malloc(size);
  if (nxrt_run_t *run = nxrt::tlsCurrentRun; run && ptr)
    run->trackAllocation(ptr);
  return ptr;
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  // aligned_alloc wants a size that is a multiple of the alignment.
  size_t rounded =
      alignment ? (size + alignment - 1) / alignment * alignment : size;
  void *ptr = std::aligned_alloc(alignment, rounded);
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

} // extern "C"
