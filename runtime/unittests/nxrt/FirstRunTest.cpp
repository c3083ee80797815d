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
#include <utility>
#include <vector>

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

/// Page faults of a thread's first product of f16 into f32, 8x1024 by
/// 1024x9216, on a new thread, after nxrt_gemm_prepare_widened for it when
/// `prepare`. f16 products widen on every CPU (bf16 and i8 ones run on
/// oneDNN's own kernels where the CPU has them). B widened to f32 takes 38
/// MiB, more than libnxrt's malloc settings keep in the heap (32 MiB): its
/// pages are mapped afresh, as in a program's first run, whatever earlier
/// tests freed.
long faultsOfFirstF16Product(bool prepare) {
  constexpr int64_t kRows = 8, kSteps = 1024, kColumns = 9216;
  constexpr uint16_t kThree = 0x4200, kMinusFive = 0xc500; // f16 bits
  std::vector<uint16_t> a(kRows * kSteps, kThree),
      b(kSteps * kColumns, kMinusFive);
  std::vector<float> c(kRows * kColumns, 0.0f);
  long faults = -1;
  std::thread thread([&] {
    nxrt_set_compute_threads(1);
    if (prepare)
      nxrt_gemm_prepare_widened(NXRT_F16, kRows * kSteps,
                                kSteps * (kColumns + 48), 0);
    long before = minorFaultsOfThisThread();
    nxrt_gemm_f16_f32(1, kRows, kColumns, kSteps, a.data(), 0, kSteps, 1,
                      b.data(), 0, kColumns, 1, c.data(), 0, kColumns, 1, 0);
    faults = minorFaultsOfThisThread() - before;
  });
  thread.join();
  nxrt_set_compute_threads(0);
  EXPECT_EQ(c[0], -15.0f * kSteps);
  return faults;
}

// The buffers a product of narrow floats widens its operands into are
// mapped before its first run.
TEST(FirstRunTest, GemmPrepareWidenedMapsTheWideningBuffers) {
  if (kSanitizerHeap)
    GTEST_SKIP() << "the sanitizer's allocator replaces malloc's heap";
  nxrt_runtime_t *runtime = nxrt_runtime_create(); // malloc's settings
  nxrt_gemm_prepare(); // oneDNN's kernels, made on any thread
  long unprepared = faultsOfFirstF16Product(false);
  long prepared = faultsOfFirstF16Product(true);
  nxrt_runtime_destroy(runtime);
  // 38 MiB are 9700 pages of 4 KiB.
  EXPECT_GT(unprepared, 4000);
  EXPECT_LT(prepared, unprepared / 4) << "unprepared: " << unprepared;
}

/// Page faults on a new thread of nxrt_gemm_prepare_widened for a product
/// of `dtype` (bf16 or i8) of 8x1024 by 1024x9216, when `prepare`, and of
/// the product's first run after it: {prepare's, product's}.
std::pair<long, long> faultsOfPreparedProduct(nxrt_dtype_t dtype,
                                              bool prepare) {
  constexpr int64_t kRows = 8, kSteps = 1024, kColumns = 9216;
  std::vector<uint16_t> a16(kRows * kSteps, 0x4040),
      b16(kSteps * kColumns, 0xc0a0); // bf16 3 and -5
  std::vector<int8_t> a8(kRows * kSteps, 3), b8(kSteps * kColumns, -5);
  std::vector<float> c(kRows * kColumns, 0.0f);
  std::vector<int32_t> c32(kRows * kColumns, 0);
  std::pair<long, long> faults = {-1, -1};
  std::thread thread([&] {
    nxrt_set_compute_threads(1);
    long before = minorFaultsOfThisThread();
    if (prepare)
      nxrt_gemm_prepare_widened(dtype, kRows * kSteps, kSteps * (kColumns + 48),
                                0);
    long prepared = minorFaultsOfThisThread();
    if (dtype == NXRT_BF16)
      nxrt_gemm_bf16_f32(1, kRows, kColumns, kSteps, a16.data(), 0, kSteps, 1,
                         b16.data(), 0, kColumns, 1, c.data(), 0, kColumns, 1,
                         0);
    else
      nxrt_gemm_i8_i32(1, kRows, kColumns, kSteps, a8.data(), 0, kSteps, 1,
                       b8.data(), 0, kColumns, 1, c32.data(), 0, kColumns, 1,
                       0);
    faults = {prepared - before, minorFaultsOfThisThread() - prepared};
  });
  thread.join();
  nxrt_set_compute_threads(0);
  if (dtype == NXRT_BF16)
    EXPECT_EQ(c[0], -15.0f * kSteps);
  else
    EXPECT_EQ(c32[0], -15 * kSteps);
  return faults;
}

// bf16 and i8 products widen only on CPUs without oneDNN kernels for them
// (i8: without exact ones): there the prepare maps their buffers, and
// elsewhere it maps nothing, since the product uses none. Which one a CPU
// does shows in the unprepared product's faults: B widened to f32 takes 38
// MiB (9700 pages), its packing by oneDNN at most its 9 or 18 MiB.
TEST(FirstRunTest, GemmPrepareWidenedMapsOnlyWhatTheProductWidens) {
  if (kSanitizerHeap)
    GTEST_SKIP() << "the sanitizer's allocator replaces malloc's heap";
  nxrt_runtime_t *runtime = nxrt_runtime_create(); // malloc's settings
  nxrt_gemm_prepare();
  for (nxrt_dtype_t dtype : {NXRT_BF16, NXRT_I8}) {
    long unprepared = faultsOfPreparedProduct(dtype, false).second;
    auto [prepare, product] = faultsOfPreparedProduct(dtype, true);
    SCOPED_TRACE(::testing::Message()
                 << nxrt_dtype_name(dtype) << ": unprepared " << unprepared
                 << ", prepare " << prepare << ", prepared " << product);
    if (unprepared > 6000) {
      EXPECT_GT(prepare, 6000);
      EXPECT_LT(product, unprepared / 4);
    } else {
      EXPECT_LT(prepare, 200);
    }
  }
  nxrt_runtime_destroy(runtime);
}

TEST(FirstRunTest, GemmPrepareWidenedOfNothingOrOfTooMuchIsHarmless) {
  // Other dtypes, and a value no dtype has, map nothing.
  for (nxrt_dtype_t dtype :
       {NXRT_BF16, NXRT_F16, NXRT_I8, NXRT_F32, NXRT_DTYPE_INVALID,
        static_cast<nxrt_dtype_t>(99)}) {
    nxrt_gemm_prepare_widened(dtype, 0, -1, 0);
    // No allocation that large succeeds: the first product is left to try.
    nxrt_gemm_prepare_widened(dtype, INT64_MAX, INT64_MAX, INT64_MAX);
  }
}

TEST(FirstRunTest, GemmPreparePaddedOfNothingOrOfTooMuchIsHarmless) {
  nxrt_gemm_prepare_padded(0);
  nxrt_gemm_prepare_padded(-1);
  // Capped at the largest copy libnxrt makes (8 MiB).
  nxrt_gemm_prepare_padded(INT64_MAX);
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
