//===- FirstRunTest.cpp - what __nx_init prepares for the first run -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <dirent.h>
#include <sys/resource.h>
#include <thread>

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizerHeap = true;
#else
constexpr bool kSanitizerHeap = false;
#endif

long minorFaultsOfThisThread() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

int tasksOfThisProcess() {
  int tasks = 0;
  if (DIR *dir = opendir("/proc/self/task")) {
    while (dirent *entry = readdir(dir))
      tasks += entry->d_name[0] != '.';
    closedir(dir);
  }
  return tasks;
}

/// Page faults of writing a fresh buffer of compiled code (below the size
/// that asks for huge pages), on a new thread, after nxrt_heap_prepare of
/// `prepared` bytes on that thread.
long faultsOfFirstBuffer(uint64_t prepared, size_t size) {
  long faults = -1;
  std::thread thread([&] {
    if (prepared)
      nxrt_heap_prepare(prepared);
    long before = minorFaultsOfThisThread();
    void *buffer = _mlir_memref_to_llvm_aligned_alloc(64, size);
    std::memset(buffer, 1, size);
    faults = minorFaultsOfThisThread() - before;
    _mlir_memref_to_llvm_free(buffer);
  });
  thread.join();
  return faults;
}

// A thread's first buffer finds its pages mapped: a new thread gets a heap
// (glibc arena) of its own, whose fresh pages would otherwise fault in one
// by one as the buffer is written.
TEST(FirstRunTest, HeapPrepareMapsThePagesOfTheFirstBuffers) {
  if (kSanitizerHeap)
    GTEST_SKIP() << "the sanitizer's allocator replaces malloc's heap";
  nxrt_runtime_t *runtime = nxrt_runtime_create(); // malloc's settings
  constexpr size_t kSize = size_t{3} << 20;
  constexpr long kPages = kSize / 4096;
  EXPECT_LT(faultsOfFirstBuffer(kSize, kSize), kPages / 8);
  nxrt_runtime_destroy(runtime);
}

TEST(FirstRunTest, HeapPrepareOfNothingOrOfTooMuchIsHarmless) {
  nxrt_heap_prepare(0);
  // Prepares its limit (64 MiB), not what it is asked for.
  nxrt_heap_prepare(UINT64_MAX);
}

// The team of nxrt_compute_threads() threads exists before the first
// parallel region of a program.
TEST(FirstRunTest, ThreadsPrepareStartsTheComputeTeam) {
  constexpr int kTeam = 12;
  int before = tasksOfThisProcess();
  nxrt_set_compute_threads(kTeam);
  nxrt_threads_prepare();
  int after = tasksOfThisProcess();
  nxrt_set_compute_threads(0);
  // This thread and kTeam - 1 workers, some of which may have been started
  // by earlier tests.
  EXPECT_GE(after, kTeam) << "tasks before: " << before;
}

} // namespace
