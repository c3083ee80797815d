//===- FailureTest.cpp - What compiled code relies on when a call fails ---===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiled code stops at a failed invoke without running its deallocations:
// it checks nxrt_run_failed after calls, hands the status to
// nxrt_invoke_failed, and relies on nxrt_run_end to free the heap buffers it
// allocated through the generic allocation functions. The ASan+UBSan build
// of these tests turns a leak or a double free into a failure.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>
#include <vector>

#include "TestUtil.h"

using namespace nxrt_test;

namespace {

class NxrtFailure : public RuntimeTest {};

nxrt_status_t *fails(void *, const nxrt_call_t *) {
  return nxrt_status_create(NXRT_INTERNAL, "boom");
}

TEST_F(NxrtFailure, RunFailedFollowsTheFirstFailure) {
  registerInline("f", fails);
  nxrt_site_t *site = addSite(NXRT_SITE_IO_CALLBACK, "f", "m.mlir:2:3");
  EXPECT_EQ(nxrt_run_failed(nullptr), 0);
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  EXPECT_EQ(nxrt_run_failed(run), 0);
  nxrt_status_t *status = nxrt_invoke(run, site, nullptr, 0, nullptr, 0);
  ASSERT_NE(status, nullptr);
  EXPECT_NE(nxrt_run_failed(run), 0);
  // Compiled code's failure path takes and frees the status.
  nxrt_invoke_failed(run, status);
  Status end(nxrt_run_end(run));
  EXPECT_EQ(message(end), "callback @f at m.mlir:2:3 failed: boom");
}

TEST_F(NxrtFailure, FailedRunFreesWhatCompiledCodeStillHeld) {
  registerInline("f", fails);
  nxrt_site_t *site = addSite(NXRT_SITE_IO_CALLBACK, "f");
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  void *kept = _mlir_memref_to_llvm_alloc(256);
  void *aligned = _mlir_memref_to_llvm_aligned_alloc(64, 100);
  ASSERT_NE(kept, nullptr);
  ASSERT_NE(aligned, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 64, 0u);
  std::memset(kept, 1, 256);
  std::memset(aligned, 2, 100);
  void *freed = _mlir_memref_to_llvm_alloc(16);
  _mlir_memref_to_llvm_free(freed);
  nxrt_invoke_failed(run, nxrt_invoke(run, site, nullptr, 0, nullptr, 0));
  // `kept` and `aligned` are freed here (a leak otherwise), `freed` not
  // again (a double free otherwise).
  Status end(nxrt_run_end(run));
  EXPECT_NE(end.get(), nullptr);
}

// Compiled code reports a NULL buffer through nxrt_out_of_memory: the run
// fails with RESOURCE_EXHAUSTED naming the size and the op, and keeps its
// first failure.
TEST_F(NxrtFailure, OutOfMemoryFailsTheRunWithSizeAndLocation) {
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  EXPECT_EQ(_mlir_memref_to_llvm_alloc(SIZE_MAX), nullptr);
  EXPECT_EQ(_mlir_memref_to_llvm_aligned_alloc(64, SIZE_MAX - 8), nullptr);
  nxrt_out_of_memory(run, 400000000000, "m.mlir:3:8");
  EXPECT_NE(nxrt_run_failed(run), 0);
  nxrt_out_of_memory(run, 16, "m.mlir:9:1");
  Status end(nxrt_run_end(run));
  EXPECT_EQ(nxrt_status_code(end.get()), NXRT_RESOURCE_EXHAUSTED);
  EXPECT_EQ(message(end), "out of memory at m.mlir:3:8: cannot allocate a "
                          "buffer of 400000000000 bytes");
}

// A zero-byte buffer is not NULL, which compiled code would read as a
// failed allocation.
TEST_F(NxrtFailure, ZeroByteBuffersAreNotNull) {
  void *plain = _mlir_memref_to_llvm_alloc(0);
  void *aligned = _mlir_memref_to_llvm_aligned_alloc(64, 0);
  EXPECT_NE(plain, nullptr);
  EXPECT_NE(aligned, nullptr);
  _mlir_memref_to_llvm_free(plain);
  _mlir_memref_to_llvm_free(aligned);
}

TEST_F(NxrtFailure, FailedRunFreesManyBuffersFreedInAnyOrder) {
  registerInline("f", fails);
  nxrt_site_t *site = addSite(NXRT_SITE_IO_CALLBACK, "f");
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  // Enough to grow the record several times and leave erased slots behind;
  // every other buffer is freed by "compiled code", oldest first and then
  // newest first, the rest by the failed run.
  std::vector<void *> buffers;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 500; ++i)
      buffers.push_back(_mlir_memref_to_llvm_alloc(8 + i % 64));
    std::vector<void *> kept;
    for (size_t i = 0; i < buffers.size(); ++i) {
      size_t k = round % 2 ? buffers.size() - 1 - i : i;
      if (k % 2)
        _mlir_memref_to_llvm_free(buffers[k]);
      else
        kept.push_back(buffers[k]);
    }
    buffers = std::move(kept);
  }
  nxrt_invoke_failed(run, nxrt_invoke(run, site, nullptr, 0, nullptr, 0));
  Status end(nxrt_run_end(run));
  EXPECT_NE(end.get(), nullptr);
}

TEST_F(NxrtFailure, SucceededRunLeavesReturnedBuffersToTheCaller) {
  nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
  auto *returned = static_cast<float *>(_mlir_memref_to_llvm_alloc(64));
  ASSERT_NE(returned, nullptr);
  Status end(nxrt_run_end(run));
  EXPECT_EQ(end.get(), nullptr);
  // Still the caller's: usable, and released with free().
  returned[15] = 1.0f;
  std::free(returned);
}

TEST_F(NxrtFailure, AllocationsOutsideARunArePlainHeap) {
  void *ptr = _mlir_memref_to_llvm_alloc(32);
  ASSERT_NE(ptr, nullptr);
  _mlir_memref_to_llvm_free(ptr);
  _mlir_memref_to_llvm_free(nullptr);
  void *other = _mlir_memref_to_llvm_aligned_alloc(32, 8);
  ASSERT_NE(other, nullptr);
  std::free(other);
}

TEST_F(NxrtFailure, NestedRunKeepsItsOwnAllocations) {
  nxrt_run_t *outer = nxrt_run_begin(rt, nullptr);
  void *outerBuffer = _mlir_memref_to_llvm_alloc(8);
  nxrt_run_t *inner = nxrt_run_begin(rt, nullptr);
  void *innerBuffer = _mlir_memref_to_llvm_alloc(8);
  registerInline("f", fails);
  nxrt_site_t *site = addSite(NXRT_SITE_IO_CALLBACK, "f");
  nxrt_invoke_failed(inner, nxrt_invoke(inner, site, nullptr, 0, nullptr, 0));
  // The inner run frees its buffer only; the outer one's stays valid.
  Status innerEnd(nxrt_run_end(inner));
  EXPECT_NE(innerEnd.get(), nullptr);
  std::memset(outerBuffer, 0, 8);
  _mlir_memref_to_llvm_free(outerBuffer);
  Status outerEnd(nxrt_run_end(outer));
  EXPECT_EQ(outerEnd.get(), nullptr);
  (void)innerBuffer;
}

using NxrtFailureDeathTest = NxrtFailure;

TEST_F(NxrtFailureDeathTest, FailureOutsideARunAborts) {
  registerInline("f", fails);
  nxrt_site_t *site = addSite(NXRT_SITE_ELIXIR_CALL, "f", "m.mlir:4:5");
  EXPECT_DEATH(nxrt_invoke_failed(
                   nullptr, nxrt_invoke(nullptr, site, nullptr, 0, nullptr, 0)),
               "nxrt: fatal: callback @f at m.mlir:4:5 invoked outside a run "
               "\\(call nxrt_run_begin first\\)");
}

} // namespace
