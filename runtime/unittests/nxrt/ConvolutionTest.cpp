//===- ConvolutionTest.cpp - nxrt_conv2d_f32 against a reference loop -----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <thread>
#include <vector>

namespace {

/// The call's sizes, in nxrt_conv2d_f32's order.
struct Shape {
  int64_t batch, groups, inChannels, outChannels, height, width, kernelH,
      kernelW, outH, outW, strideH, strideW, dilationH, dilationW;
  int64_t padTop = 0, padLeft = 0;
};

/// What the call does besides the convolution.
struct Epilogue {
  int64_t flags = NXRT_CONV2D_ACCUMULATE;
  /// The bias's element stride, or 0 for no bias.
  int64_t biasStride = 0;
};

/// Element strides of the input and output (batch, channel, row, column)
/// and of the filter (group, output channel, input channel, row, column).
struct Strides {
  int64_t input[4], filter[5], output[4];
};

/// Dense NHWC input and output, and an HWCF filter per group (group
/// outermost), for `shape`.
Strides nhwc(const Shape &s) {
  int64_t c = s.groups * s.inChannels, f = s.groups * s.outChannels;
  int64_t filterH = s.kernelW * s.inChannels * s.outChannels;
  return {{s.height * s.width * c, 1, s.width * c, c},
          {s.kernelH * filterH, 1, s.outChannels, filterH,
           s.inChannels * s.outChannels},
          {s.outH * s.outW * f, 1, s.outW * f, f}};
}

/// Dense NHWC input and output and the H x W x C filter of a depthwise
/// convolution (one channel per group), for `shape`.
Strides depthwiseNhwc(const Shape &s) {
  Strides st = nhwc(s);
  st.filter[0] = 1;
  st.filter[1] = st.filter[2] = 0;
  st.filter[3] = s.kernelW * s.groups;
  st.filter[4] = s.groups;
  return st;
}

/// Element count a buffer with these sizes and strides spans.
int64_t span(std::initializer_list<std::pair<int64_t, int64_t>> dims) {
  int64_t last = 0;
  for (auto [size, stride] : dims)
    last += (size - 1) * stride;
  return last + 1;
}

std::vector<float> values(int64_t size, int seed) {
  std::vector<float> v(size);
  for (int64_t i = 0; i < size; ++i)
    v[i] = static_cast<float>((i * 7 + seed) % 9 - 4);
  return v;
}

/// arith.maximumf(value, 0): a NaN stays a NaN.
float relu(float value) {
  return std::isnan(value) || value > 0.0f ? value : 0.0f;
}

std::vector<float>
reference(const Shape &s, const Strides &st, const Epilogue &epilogue,
          const std::vector<float> &in, const std::vector<float> &filter,
          const std::vector<float> &bias, std::vector<float> out) {
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t g = 0; g < s.groups; ++g)
      for (int64_t o = 0; o < s.outChannels; ++o)
        for (int64_t y = 0; y < s.outH; ++y)
          for (int64_t x = 0; x < s.outW; ++x) {
            float sum = 0;
            for (int64_t c = 0; c < s.inChannels; ++c)
              for (int64_t ky = 0; ky < s.kernelH; ++ky)
                for (int64_t kx = 0; kx < s.kernelW; ++kx) {
                  int64_t row = y * s.strideH + ky * s.dilationH - s.padTop;
                  int64_t column = x * s.strideW + kx * s.dilationW - s.padLeft;
                  if (row < 0 || row >= s.height || column < 0 ||
                      column >= s.width)
                    continue;
                  sum += in[n * st.input[0] +
                            (g * s.inChannels + c) * st.input[1] +
                            row * st.input[2] + column * st.input[3]] *
                         filter[g * st.filter[0] + o * st.filter[1] +
                                c * st.filter[2] + ky * st.filter[3] +
                                kx * st.filter[4]];
                }
            int64_t channel = g * s.outChannels + o;
            float &value = out[n * st.output[0] + channel * st.output[1] +
                               y * st.output[2] + x * st.output[3]];
            value =
                (epilogue.flags & NXRT_CONV2D_ACCUMULATE) ? value + sum : sum;
            if (epilogue.biasStride)
              value += bias[channel * epilogue.biasStride];
            if (epilogue.flags & NXRT_CONV2D_RELU)
              value = relu(value);
          }
  return out;
}

/// Runs nxrt_conv2d_f32 on `shape` and `strides` into an output that
/// already holds values, and compares with the reference loop. `nanAt`
/// makes one input element a NaN.
void expectConvolution(const Shape &s, const Strides &st,
                       Epilogue epilogue = {}, int64_t nanAt = -1) {
  int64_t channels = s.groups * s.inChannels,
          filters = s.groups * s.outChannels;
  std::vector<float> in = values(span({{s.batch, st.input[0]},
                                       {channels, st.input[1]},
                                       {s.height, st.input[2]},
                                       {s.width, st.input[3]}}),
                                 1);
  std::vector<float> filter = values(span({{s.groups, st.filter[0]},
                                           {s.outChannels, st.filter[1]},
                                           {s.inChannels, st.filter[2]},
                                           {s.kernelH, st.filter[3]},
                                           {s.kernelW, st.filter[4]}}),
                                     2);
  std::vector<float> out = values(span({{s.batch, st.output[0]},
                                        {filters, st.output[1]},
                                        {s.outH, st.output[2]},
                                        {s.outW, st.output[3]}}),
                                  3);
  std::vector<float> bias = values(span({{filters, epilogue.biasStride}}), 4);
  if (nanAt >= 0)
    in[nanAt] = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> expected =
      reference(s, st, epilogue, in, filter, bias, out);
  nxrt_conv2d_f32(
      s.batch, s.groups, s.inChannels, s.outChannels, s.height, s.width,
      s.kernelH, s.kernelW, s.outH, s.outW, s.strideH, s.strideW, s.dilationH,
      s.dilationW, s.padTop, s.padLeft, epilogue.flags, in.data(), st.input[0],
      st.input[1], st.input[2], st.input[3], filter.data(), st.filter[0],
      st.filter[1], st.filter[2], st.filter[3], st.filter[4],
      epilogue.biasStride ? bias.data() : nullptr, epilogue.biasStride,
      out.data(), st.output[0], st.output[1], st.output[2], st.output[3]);
  ASSERT_EQ(out.size(), expected.size());
  for (size_t i = 0; i < out.size(); ++i) {
    if (std::isnan(expected[i]))
      ASSERT_TRUE(std::isnan(out[i])) << "element " << i << ": " << out[i];
    else
      ASSERT_NEAR(out[i], expected[i], 1e-3f) << "element " << i;
    // maximumf(x, 0) of a negative x is +0, never -0.
    if (epilogue.flags & NXRT_CONV2D_RELU)
      ASSERT_EQ(std::signbit(out[i]), std::signbit(expected[i]))
          << "element " << i << ": " << out[i];
  }
}

class NxrtConv2d : public ::testing::Test {
protected:
  // One thread: the sanitizer builds run these too, and oneDNN's OpenMP
  // threads are not instrumented.
  void SetUp() override { nxrt_set_compute_threads(1); }
  void TearDown() override { nxrt_set_compute_threads(0); }
};

TEST_F(NxrtConv2d, NhwcAccumulatesIntoTheOutput) {
  Shape s{2, 1, 5, 7, 9, 8, 3, 3, 7, 6, 1, 1, 1, 1};
  expectConvolution(s, nhwc(s));
}

TEST_F(NxrtConv2d, WithoutAccumulateWritesOverTheOutput) {
  Shape s{1, 1, 3, 5, 8, 8, 3, 3, 6, 6, 1, 1, 1, 1};
  expectConvolution(s, nhwc(s), {/*flags=*/0});
  // The plain loop's path: an empty sum writes zeros.
  std::vector<float> in(16, 1.0f), filter(4, 1.0f), out(4, 5.0f);
  nxrt_conv2d_f32(1, 1, 0, 1, 4, 4, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, in.data(),
                  16, 1, 4, 1, filter.data(), 0, 1, 1, 2, 1, nullptr, 0,
                  out.data(), 4, 1, 2, 1);
  EXPECT_EQ(out, std::vector<float>(4, 0.0f));
}

TEST_F(NxrtConv2d, PaddingReadsZerosAroundTheInput) {
  // "Same" padding: one row and column of zeros on every side.
  Shape same{2, 1, 3, 4, 7, 6, 3, 3, 7, 6, 1, 1, 1, 1, 1, 1};
  expectConvolution(same, nhwc(same), {0});
  // Uneven: two rows above, none to the left, a strided output that ends
  // inside the input's columns and one row past its last row.
  Shape uneven{1, 1, 2, 3, 8, 9, 3, 3, 5, 3, 2, 3, 1, 1, 2, 0};
  expectConvolution(uneven, nhwc(uneven));
  // A depthwise one, in the layout its filter has (H x W x C).
  Shape depthwise{1, 8, 1, 1, 6, 6, 3, 3, 6, 6, 1, 1, 1, 1, 1, 1};
  expectConvolution(depthwise, depthwiseNhwc(depthwise), {0});
}

TEST_F(NxrtConv2d, BiasAndReluFollowTheSum) {
  Shape s{2, 1, 4, 6, 6, 6, 3, 3, 6, 6, 1, 1, 1, 1, 1, 1};
  expectConvolution(s, nhwc(s), {0, /*biasStride=*/1});
  expectConvolution(s, nhwc(s), {NXRT_CONV2D_RELU});
  expectConvolution(s, nhwc(s), {NXRT_CONV2D_RELU, 1});
  // Accumulating: relu(out + conv + bias).
  expectConvolution(s, nhwc(s), {NXRT_CONV2D_ACCUMULATE | NXRT_CONV2D_RELU, 1});
  // A bias whose elements are not adjacent (a column of a matrix).
  expectConvolution(s, nhwc(s), {NXRT_CONV2D_RELU, 3});
}

TEST_F(NxrtConv2d, ReluIsMaximumfKeepingANaN) {
  // arith.maximumf's ReLU, which the call replaces, propagates a NaN and
  // makes negatives +0; oneDNN's own ReLU would make the NaN 0. Both
  // oneDNN's dense and depthwise kernels are checked.
  Shape dense{1, 1, 16, 16, 12, 12, 3, 3, 12, 12, 1, 1, 1, 1, 1, 1};
  expectConvolution(dense, nhwc(dense), {NXRT_CONV2D_RELU, 1}, /*nanAt=*/40);
  Shape depthwise{1, 16, 1, 1, 12, 12, 3, 3, 12, 12, 1, 1, 1, 1, 1, 1};
  expectConvolution(depthwise, depthwiseNhwc(depthwise), {NXRT_CONV2D_RELU},
                    /*nanAt=*/40);
}

TEST_F(NxrtConv2d, StridedAndDilatedReachingPartOfTheInput) {
  // The output reaches 7 of 10 rows and 5 of 9 columns.
  Shape s{1, 1, 4, 3, 10, 9, 3, 2, 2, 2, 2, 3, 2, 2};
  expectConvolution(s, nhwc(s));
}

TEST_F(NxrtConv2d, DepthwiseIsOneGroupPerChannel) {
  Shape s{1, 16, 1, 1, 12, 12, 3, 3, 5, 5, 2, 2, 1, 1};
  // Filter H x W x C: the group is the channel.
  expectConvolution(s, depthwiseNhwc(s));
}

TEST_F(NxrtConv2d, NchwWithAnFchwFilter) {
  Shape s{2, 1, 3, 4, 6, 7, 2, 3, 5, 5, 1, 1, 1, 1};
  Strides st{{3 * 6 * 7, 6 * 7, 7, 1},
             {0, 3 * 2 * 3, 2 * 3, 3, 1},
             {4 * 5 * 5, 5 * 5, 5, 1}};
  expectConvolution(s, st);
}

// With 64 channels oneDNN's direct kernels take no NCHW input: the call
// moves input and output through their layout, around the kernel, which
// the sum (the old output), the bias and the ReLU must see as the caller's.
TEST_F(NxrtConv2d, NchwThroughTheKernelsLayout) {
  Shape s{1, 1, 64, 64, 10, 10, 3, 3, 10, 10, 1, 1, 1, 1, 1, 1};
  Strides st{{64 * 10 * 10, 10 * 10, 10, 1},
             {0, 64 * 3 * 3, 3 * 3, 3, 1},
             {64 * 10 * 10, 10 * 10, 10, 1}};
  expectConvolution(s, st, {0});
  expectConvolution(s, st, {NXRT_CONV2D_ACCUMULATE | NXRT_CONV2D_RELU, 1});
}

TEST_F(NxrtConv2d, ViewsWithGapsBetweenRows) {
  Shape s{1, 1, 3, 2, 5, 5, 3, 3, 3, 3, 1, 1, 1, 1};
  // Rows of the input and output are 11 and 8 pixels apart.
  Strides st{{5 * 11 * 3, 1, 11 * 3, 3},
             {0, 1, 2, 3 * 3 * 2, 3 * 2},
             {3 * 8 * 2, 1, 8 * 2, 2}};
  expectConvolution(s, st);
}

TEST_F(NxrtConv2d, GroupedConvolution) {
  Shape s{1, 2, 3, 4, 6, 6, 3, 3, 4, 4, 1, 1, 1, 1};
  expectConvolution(s, nhwc(s));
}

TEST_F(NxrtConv2d, SameResultOnTwoThreads) {
  nxrt_set_compute_threads(2);
  Shape s{1, 1, 16, 16, 20, 20, 3, 3, 18, 18, 1, 1, 1, 1};
  expectConvolution(s, nhwc(s));
}

// Host threads calling at once, each with its own output: every call gets
// the whole convolution, none another's partial sums (oneDNN's scratchpads
// are per call, not one for the process).
TEST_F(NxrtConv2d, ConcurrentCallsFromHostThreads) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([] {
      Shape nhwcShape{1, 1, 64, 64, 24, 24, 3, 3, 24, 24, 1, 1, 1, 1, 1, 1};
      Shape nchwShape = nhwcShape;
      Strides nchw{{64 * 24 * 24, 24 * 24, 24, 1},
                   {0, 64 * 3 * 3, 3 * 3, 3, 1},
                   {64 * 24 * 24, 24 * 24, 24, 1}};
      for (int call = 0; call < 3; ++call) {
        expectConvolution(nhwcShape, nhwc(nhwcShape), {NXRT_CONV2D_RELU, 1});
        expectConvolution(nchwShape, nchw, {0});
      }
    });
  for (std::thread &thread : threads)
    thread.join();
}

TEST_F(NxrtConv2d, AFilterChangedInPlaceIsReorderedAgain) {
  // libnxrt keeps each thread's filter in the kernel's layout while the
  // filter's bytes stay the same: the same buffer with new weights, and
  // the same weights in another buffer, must both give their own results.
  Shape s{1, 1, 16, 16, 8, 8, 3, 3, 8, 8, 1, 1, 1, 1, 1, 1};
  Strides st = nhwc(s);
  std::vector<float> in = values(8 * 8 * 16, 1);
  std::vector<float> filter = values(3 * 3 * 16 * 16, 2);
  auto convolve = [&](const std::vector<float> &weights) {
    std::vector<float> out(8 * 8 * 16, 0.0f);
    nxrt_conv2d_f32(
        s.batch, s.groups, s.inChannels, s.outChannels, s.height, s.width,
        s.kernelH, s.kernelW, s.outH, s.outW, s.strideH, s.strideW, s.dilationH,
        s.dilationW, s.padTop, s.padLeft, 0, in.data(), st.input[0],
        st.input[1], st.input[2], st.input[3], weights.data(), st.filter[0],
        st.filter[1], st.filter[2], st.filter[3], st.filter[4], nullptr, 0,
        out.data(), st.output[0], st.output[1], st.output[2], st.output[3]);
    return out;
  };
  auto expectReference = [&](const std::vector<float> &weights,
                             const std::vector<float> &out) {
    std::vector<float> expected =
        reference(s, st, {0}, in, weights, {}, std::vector<float>(out.size()));
    for (size_t i = 0; i < out.size(); ++i)
      ASSERT_NEAR(out[i], expected[i], 1e-3f) << "element " << i;
  };
  expectReference(filter, convolve(filter));
  filter[5] += 3.0f;
  filter[filter.size() - 1] = -7.0f;
  expectReference(filter, convolve(filter));
  std::vector<float> copy = filter;
  expectReference(copy, convolve(copy));
}

TEST_F(NxrtConv2d, EmptyOutputOrSumLeavesTheOutput) {
  std::vector<float> in(16, 1.0f), filter(4, 1.0f), out(4, 5.0f);
  // No input channel: the sum is empty.
  nxrt_conv2d_f32(1, 1, 0, 1, 4, 4, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0,
                  NXRT_CONV2D_ACCUMULATE, in.data(), 16, 1, 4, 1, filter.data(),
                  0, 1, 1, 2, 1, nullptr, 0, out.data(), 4, 1, 2, 1);
  // No output row.
  nxrt_conv2d_f32(1, 1, 1, 1, 4, 4, 2, 2, 0, 2, 1, 1, 1, 1, 0, 0,
                  NXRT_CONV2D_ACCUMULATE, in.data(), 16, 1, 4, 1, filter.data(),
                  0, 1, 1, 2, 1, nullptr, 0, out.data(), 4, 1, 2, 1);
  EXPECT_EQ(out, std::vector<float>(4, 5.0f));
  // An empty sum with a bias and a ReLU: those alone.
  std::vector<float> bias{-1.0f};
  nxrt_conv2d_f32(1, 1, 0, 1, 4, 4, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0,
                  NXRT_CONV2D_ACCUMULATE | NXRT_CONV2D_RELU, in.data(), 16, 1,
                  4, 1, filter.data(), 0, 1, 1, 2, 1, bias.data(), 1,
                  out.data(), 4, 1, 2, 1);
  EXPECT_EQ(out, std::vector<float>(4, 4.0f));
}

} // namespace
