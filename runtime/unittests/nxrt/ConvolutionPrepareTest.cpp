//===- ConvolutionPrepareTest.cpp - kernels made before the first call ----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nxrt_conv2d_prepare_f32 must make the very kernel the first call of the
// same sizes would, which each case checks in a child process
// (OneDnnVerboseChild.h).
//
//===----------------------------------------------------------------------===//

#include "OneDnnVerboseChild.h"

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr const char *kChildMode = "NX_TEST_CONV_PREPARE_CHILD";
constexpr const char *kMarker = "-- the call --";

/// A 3x3 convolution of an 8x8x3 NHWC input with 8 HWCF filters and a
/// bias, then ReLU: prepared with `prepare`, then called once.
void prepareThenCall(bool prepare) {
  static float input[8 * 8 * 3], filter[3 * 3 * 3 * 8], bias[8],
      output[6 * 6 * 8];
  if (prepare)
    nxrt_conv2d_prepare_f32(1, 1, 3, 8, 8, 8, 3, 3, 6, 6, 1, 1, 1, 1, 0, 0,
                            NXRT_CONV2D_RELU, 192, 1, 24, 3, 0, 1, 72, 24, 8,
                            /*has_bias=*/1, 288, 1, 48, 8);
  std::printf("%s\n", kMarker);
  std::fflush(stdout);
  nxrt_conv2d_f32(1, 1, 3, 8, 8, 8, 3, 3, 6, 6, 1, 1, 1, 1, 0, 0,
                  NXRT_CONV2D_RELU, input, 192, 1, 24, 3, filter, 0, 1, 72, 24,
                  8, bias, 1, output, 288, 1, 48, 8);
  std::fflush(stdout);
}

/// Prepares an empty output and an empty sum: neither call would run on
/// oneDNN, so nothing is made.
void prepareSizesWithoutAKernel() {
  nxrt_conv2d_prepare_f32(0, 1, 3, 8, 8, 8, 3, 3, 6, 6, 1, 1, 1, 1, 0, 0, 0,
                          192, 1, 24, 3, 0, 1, 72, 24, 8, 0, 288, 1, 48, 8);
  nxrt_conv2d_prepare_f32(1, 1, 0, 8, 8, 8, 3, 3, 6, 6, 1, 1, 1, 1, 0, 0, 0,
                          192, 1, 24, 3, 0, 1, 72, 24, 8, 0, 288, 1, 48, 8);
  std::printf("%s\n", kMarker);
  std::fflush(stdout);
}

/// oneDNN's verbose output of this program's ChildProcess case in `mode`.
std::string runChild(const char *mode) {
  return nxrt_test::runOneDnnVerboseChild(kChildMode, mode,
                                          "ConvolutionPrepare.ChildProcess");
}

/// oneDNN's "create:" lines after the marker: kernels the call made.
int kernelsMadeByTheCall(const std::string &output) {
  return nxrt_test::kernelsMadeAfter(output, kMarker);
}

TEST(ConvolutionPrepare, ChildProcess) {
  const char *mode = std::getenv(kChildMode);
  if (!mode)
    GTEST_SKIP() << "run by the other cases, in a process of its own";
  if (std::strcmp(mode, "empty") == 0)
    prepareSizesWithoutAKernel();
  else
    prepareThenCall(std::strcmp(mode, "prepare") == 0);
}

TEST(ConvolutionPrepare, TheCallMakesNoKernelAfterThePrepare) {
  std::string output = runChild("prepare");
  ASSERT_NE(output.find("create:"), std::string::npos)
      << "oneDNN printed no kernel it made:\n"
      << output;
  EXPECT_EQ(kernelsMadeByTheCall(output), 0) << output;
}

// The control: without the prepare, the same call makes its kernels, so the
// case above can see a prepare that made the wrong ones.
TEST(ConvolutionPrepare, TheCallMakesItsKernelsWithoutAPrepare) {
  std::string output = runChild("cold");
  EXPECT_GT(kernelsMadeByTheCall(output), 0) << output;
}

TEST(ConvolutionPrepare, SizesWithoutAKernelMakeNothing) {
  std::string output = runChild("empty");
  ASSERT_NE(output.find(kMarker), std::string::npos) << output;
  EXPECT_EQ(output.find("create:"), std::string::npos) << output;
}

} // namespace
