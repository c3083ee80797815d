//===- GemmPrepareTest.cpp - bf16 and i8 kernels made before a call -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nxrt_gemm_prepare_bf16_f32 and nxrt_gemm_prepare_i8_i32 must make the
// kernels of every part the product's first call computes, which each case
// checks in a child process (OneDnnVerboseChild.h). On a CPU without bf16
// instructions, or without VNNI for i8, the products widen to f32 and
// make no kernel either way: the cases that need the kernels say so and
// skip.
//
//===----------------------------------------------------------------------===//

#include "OneDnnVerboseChild.h"

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char *kChildMode = "NX_TEST_GEMM_PREPARE_CHILD";
constexpr const char *kMarker = "-- the calls --";

void printMarker() {
  std::printf("%s\n", kMarker);
  std::fflush(stdout);
}

/// Two batches of a bf16 product 48x36 by 36x40, added to C, shared among
/// a team of three: prepared with `prepare`, then computed part by part as
/// compiled code's team would.
void bf16PartsAfter(bool prepare) {
  constexpr int64_t kParts = 3, kBatch = 2, kM = 48, kN = 40, kK = 36;
  std::vector<uint16_t> a(kBatch * kM * kK, 0x3f80), b(kBatch * kK * kN,
                                                       0x4000); // 1, 2
  std::vector<float> c(kBatch * kM * kN, 0.0f);
  nxrt_set_compute_threads(kParts);
  if (prepare)
    nxrt_gemm_prepare_bf16_f32(1, kBatch, kM, kN, kK, kM * kK, kK, 1, kK * kN,
                               kN, 1, kM * kN, kN, 1, 1);
  printMarker();
  for (int64_t part = 0; part < kParts; ++part)
    nxrt_gemm_part_bf16_f32(part, kParts, kBatch, kM, kN, kK, a.data(), kM * kK,
                            kK, 1, b.data(), kK * kN, kN, 1, c.data(), kM * kN,
                            kN, 1, 1);
  std::printf("c: %g %g\n", c.front(), c.back());
}

/// An i8 product 20x300 by 300x24 with B stored transposed, written over
/// C, on the calling thread.
void i8After(bool prepare) {
  constexpr int64_t kM = 20, kN = 24, kK = 300;
  std::vector<int8_t> a(kM * kK, -3), b(kN * kK, 5);
  std::vector<int32_t> c(kM * kN, 7);
  if (prepare)
    nxrt_gemm_prepare_i8_i32(0, 1, kM, kN, kK, 0, kK, 1, 0, 1, kK, 0, kN, 1, 0);
  printMarker();
  nxrt_gemm_i8_i32(1, kM, kN, kK, a.data(), 0, kK, 1, b.data(), 0, 1, kK,
                   c.data(), 0, kN, 1, 0);
  std::printf("c: %d %d\n", c.front(), c.back());
}

/// Prepares that make nothing: no rows, a negative stride, operands past
/// what a prepare runs, sizes whose span wraps.
void prepareSizesWithoutAKernel() {
  nxrt_gemm_prepare_bf16_f32(0, 1, 0, 8, 8, 0, 8, 1, 0, 8, 1, 0, 8, 1, 0);
  nxrt_gemm_prepare_i8_i32(0, 1, 8, 8, 8, 0, -8, 1, 0, 8, 1, 0, 8, 1, 0);
  nxrt_gemm_prepare_i8_i32(1, 1, 4096, 16, 2048, 0, 2048, 1, 0, 16, 1, 0, 16, 1,
                           0);
  nxrt_gemm_prepare_bf16_f32(0, INT64_MAX, INT64_MAX, 8, 8, INT64_MAX, 8, 1, 0,
                             8, 1, 0, 8, 1, 0);
  printMarker();
}

std::string runChild(const char *mode) {
  return nxrt_test::runOneDnnVerboseChild(kChildMode, mode,
                                          "GemmPrepare.ChildProcess");
}

int createsIn(const std::string &output) {
  return nxrt_test::kernelsMadeAfter(output, "");
}

/// The checks of one product: without a prepare its calls make kernels (or
/// the CPU has none for it, and the case skips); after one they make none,
/// the prepare having made them, and compute the same C.
void checkPrepared(const char *cold, const char *prepared, const char *what) {
  std::string coldOutput = runChild(cold);
  int madeCold = nxrt_test::kernelsMadeAfter(coldOutput, kMarker);
  ASSERT_GE(madeCold, 0) << coldOutput;
  if (madeCold == 0)
    GTEST_SKIP() << "oneDNN has no " << what << " kernels on this CPU";
  std::string output = runChild(prepared);
  EXPECT_EQ(nxrt_test::kernelsMadeAfter(output, kMarker), 0) << output;
  EXPECT_GT(createsIn(output), 0) << output;
  auto resultOf = [](const std::string &text) {
    size_t at = text.find("c: ");
    return at == std::string::npos ? std::string()
                                   : text.substr(at, text.find('\n', at) - at);
  };
  EXPECT_FALSE(resultOf(output).empty()) << output;
  EXPECT_EQ(resultOf(output), resultOf(coldOutput));
}

TEST(GemmPrepare, ChildProcess) {
  const char *mode = std::getenv(kChildMode);
  if (!mode)
    GTEST_SKIP() << "run by the other cases, in a process of its own";
  if (std::strcmp(mode, "empty") == 0)
    prepareSizesWithoutAKernel();
  else if (std::strncmp(mode, "bf16", 4) == 0)
    bf16PartsAfter(std::strcmp(mode, "bf16-prepare") == 0);
  else
    i8After(std::strcmp(mode, "i8-prepare") == 0);
}

TEST(GemmPrepare, Bf16PartsMakeNoKernelAfterThePrepare) {
  checkPrepared("bf16-cold", "bf16-prepare", "bf16");
}

TEST(GemmPrepare, I8ProductMakesNoKernelAfterThePrepare) {
  checkPrepared("i8-cold", "i8-prepare", "exact int8");
}

TEST(GemmPrepare, SizesWithoutAKernelMakeNothing) {
  std::string output = runChild("empty");
  ASSERT_NE(output.find(kMarker), std::string::npos) << output;
  EXPECT_EQ(createsIn(output), 0) << output;
}

} // namespace
