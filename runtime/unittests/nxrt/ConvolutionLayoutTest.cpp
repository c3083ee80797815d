//===- ConvolutionLayoutTest.cpp - images one row high need no reorder ----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A 1-D convolution reaches libnxrt as a 2-D one over an NHWC image one row
// high (nx-convolutions-1d-to-2d), whose height's stride the compiler sets
// to the batch's. oneDNN compares every stride with its kernel's layout;
// given a stride that puts the height outside the batch, it saw no NHWC and
// reordered the image and the output around the kernel on every call. The
// child process prints oneDNN's verbose lines (OneDnnVerboseChild.h); the
// test counts the reorders of the image and the output among them.
//
//===----------------------------------------------------------------------===//

#include "OneDnnVerboseChild.h"
#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char *kChildMode = "NX_TEST_CONV_LAYOUT_CHILD";
constexpr const char *kMarker = "-- the calls --";

// Two 32-wide sequences of 16 channels (NHWC, one row high), 16 HWCF
// filters 3 wide: oneDNN's dimensions 2x16x1x32 and 2x16x1x30.
constexpr int64_t kBatch = 2, kChannels = 16, kWidth = 32, kOutWidth = 30;

/// Calls the convolution twice with the strides the compiler passes for an
/// expanded 1-D convolution: the height's equal to the batch's.
void callOnOneRow() {
  std::vector<float> input(kBatch * kWidth * kChannels, 1.0f),
      filter(3 * kChannels * kChannels, 0.5f),
      output(kBatch * kOutWidth * kChannels, 0.0f);
  int64_t inputN = kWidth * kChannels, outputN = kOutWidth * kChannels;
  std::printf("%s\n", kMarker);
  std::fflush(stdout);
  for (int call = 0; call < 2; ++call)
    nxrt_conv2d_f32(kBatch, 1, kChannels, kChannels, 1, kWidth, 1, 3, 1,
                    kOutWidth, 1, 1, 1, 1, 0, 0, 0, input.data(), inputN, 1,
                    inputN, kChannels, filter.data(), 0, 1, kChannels,
                    3 * kChannels * kChannels, kChannels * kChannels, nullptr,
                    0, output.data(), outputN, 1, outputN, kChannels);
  std::fflush(stdout);
  // Every output element sums 3 x 16 products of 1 and 0.5.
  for (float value : output)
    if (value != 24.0f)
      std::printf("wrong output %g\n", value);
  std::fflush(stdout);
}

/// oneDNN's reorders, after the marker in `output`, of a tensor whose
/// dimensions are `dims` (as verbose prints them, e.g. "2x16x1x32").
int reordersOf(const std::string &output, const std::string &dims) {
  size_t at = output.find(kMarker);
  if (at == std::string::npos)
    return -1;
  int reorders = 0;
  for (size_t line = output.find("exec,cpu,reorder", at);
       line != std::string::npos;
       line = output.find("exec,cpu,reorder", line + 1)) {
    size_t end = output.find('\n', line);
    if (output.substr(line, end - line).find("," + dims + ",") !=
        std::string::npos)
      ++reorders;
  }
  return reorders;
}

TEST(ConvolutionLayout, ChildProcess) {
  if (!std::getenv(kChildMode))
    GTEST_SKIP() << "run by the other case, in a process of its own";
  callOnOneRow();
}

TEST(ConvolutionLayout, OneRowHighImagesRunInPlace) {
  std::string output = nxrt_test::runOneDnnVerboseChild(
      kChildMode, "one-row", "ConvolutionLayout.ChildProcess");
  ASSERT_NE(output.find("exec,cpu,convolution"), std::string::npos)
      << "oneDNN printed no convolution it ran:\n"
      << output;
  EXPECT_EQ(output.find("wrong output"), std::string::npos) << output;
  EXPECT_EQ(reordersOf(output, "2x16x1x32"), 0) << output;
  EXPECT_EQ(reordersOf(output, "2x16x1x30"), 0) << output;
}

} // namespace
