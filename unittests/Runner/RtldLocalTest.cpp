//===- RtldLocalTest.cpp - the JIT with libnxrt loaded RTLD_LOCAL ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A host that links neither libnxrt nor MLIR: it loads libnxrt with
// RTLD_LOCAL, then NxRunner in a module (RtldLocalJit.cpp) also with
// RTLD_LOCAL, as language bindings load their native code. No libnxrt
// symbol is then in the process's global scope, where the JIT would look
// for what it is not given, so compiled code runs only if the JIT binds
// every libnxrt function it calls (nxrt_symbols.def) by address. The
// programs call the functions that came last to that list: a product shared
// among an OpenMP team (nxrt_gemm_part_f32) and a oneDNN convolution
// (nxrt_conv2d_f32). Their results are checked against plain loops here.
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using RunFn = char *(*)(const char *source, const char *entry,
                        const nxrt_tensor_t *inputs, size_t numInputs,
                        const nxrt_tensor_t *output, char **lowered);

/// libnxrt and the JIT module, each loaded once with RTLD_LOCAL.
struct Loaded {
  RunFn run = nullptr;
  std::string error;
};

const Loaded &load() {
  static const Loaded loaded = [] {
    Loaded result;
    // The module would load libnxrt as its dependency anyway; loading it
    // first, by path, makes the test's premise explicit.
    if (!dlopen(NX_TEST_NXRT_LIBRARY, RTLD_NOW | RTLD_LOCAL)) {
      result.error = std::string("cannot load libnxrt: ") + dlerror();
      return result;
    }
    void *jit = dlopen(NX_TEST_RTLD_LOCAL_JIT, RTLD_NOW | RTLD_LOCAL);
    if (!jit) {
      result.error = std::string("cannot load the JIT module: ") + dlerror();
      return result;
    }
    result.run = reinterpret_cast<RunFn>(dlsym(jit, "nxTestRun"));
    if (!result.run)
      result.error = "the JIT module has no nxTestRun";
    return result;
  }();
  return loaded;
}

/// Small integers: every product and sum below is exact in f32 whatever
/// the order in which oneDNN or the BLAS adds them, so results compare
/// exactly.
std::vector<float> makeValues(size_t count, unsigned seed) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] =
        static_cast<float>(static_cast<int>((i * i + 3 * i + seed) % 7) - 3);
  return values;
}

nxrt_tensor_t view(std::vector<float> &values,
                   const std::vector<int64_t> &dims) {
  return {NXRT_F32, static_cast<int32_t>(dims.size()), dims.data(),
          values.data()};
}

/// Runs `entry` of `source` through the module; fails unless the lowered
/// program calls `runtimeFunction`, so the run exercises its binding.
void runProgram(const char *source, const char *entry,
                std::vector<nxrt_tensor_t> inputs, nxrt_tensor_t output,
                const char *runtimeFunction) {
  const Loaded &loaded = load();
  ASSERT_TRUE(loaded.error.empty()) << loaded.error;
  char *lowered = nullptr;
  char *error = loaded.run(source, entry, inputs.data(), inputs.size(), &output,
                           &lowered);
  std::string loweredText = lowered ? lowered : "";
  std::free(lowered);
  std::string message = error ? error : "";
  std::free(error);
  ASSERT_TRUE(message.empty()) << message;
  EXPECT_NE(loweredText.find(std::string("llvm.call @") + runtimeFunction),
            std::string::npos)
      << "the program no longer calls " << runtimeFunction << ":\n"
      << loweredText;
}

TEST(RtldLocal, LibnxrtIsNotInTheGlobalScope) {
  const Loaded &loaded = load();
  ASSERT_TRUE(loaded.error.empty()) << loaded.error;
  EXPECT_EQ(dlsym(RTLD_DEFAULT, "nxrt_gemm_part_f32"), nullptr);
  EXPECT_EQ(dlsym(RTLD_DEFAULT, "nxrt_conv2d_f32"), nullptr);
  EXPECT_EQ(dlsym(RTLD_DEFAULT, "nxrt_invoke"), nullptr);
}

// 128 x 256 x 96 multiply-adds: above nx-linalg-to-blas's min-work, so
// an OpenMP team shares the product, one nxrt_gemm_part_f32 per thread.
constexpr const char *kMatmul = R"mlir(
func.func @matmul(%a: tensor<128x256xf32>, %b: tensor<256x96xf32>) -> tensor<128x96xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x96xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x96xf32>) -> tensor<128x96xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x96xf32>)
                     outs(%acc : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %c : tensor<128x96xf32>
}
)mlir";

TEST(RtldLocal, SharedProductRuns) {
  constexpr int64_t m = 128, k = 256, n = 96;
  std::vector<float> a = makeValues(m * k, 1), b = makeValues(k * n, 4);
  std::vector<float> c(m * n, -1.0f);
  std::vector<int64_t> aDims = {m, k}, bDims = {k, n}, cDims = {m, n};
  runProgram(kMatmul, "matmul", {view(a, aDims), view(b, bDims)},
             view(c, cDims), "nxrt_gemm_part_f32");
  if (HasFatalFailure())
    return;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float expected = 0;
      for (int64_t p = 0; p < k; ++p)
        expected += a[i * k + p] * b[p * n + j];
      ASSERT_EQ(c[i * n + j], expected) << "at (" << i << ", " << j << ")";
    }
  }
}

// nx-linalg-to-dnnl runs f32 NHWC/HWCF convolutions on oneDNN.
constexpr const char *kConvolution = R"mlir(
func.func @conv(%x: tensor<2x9x9x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<2x7x7x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x7x7x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x7x7x4xf32>) -> tensor<2x7x7x4xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<2x9x9x3xf32>, tensor<3x3x3x4xf32>)
    outs(%acc : tensor<2x7x7x4xf32>) -> tensor<2x7x7x4xf32>
  return %y : tensor<2x7x7x4xf32>
}
)mlir";

/// The NHWC/HWCF convolution of `x` by `w`, stride and dilation 1.
float convolutionAt(const std::vector<float> &x, const std::vector<float> &w,
                    int64_t image, int64_t row, int64_t col, int64_t filter) {
  constexpr int64_t h = 9, width = 9, c = 3, kh = 3, kw = 3, f = 4;
  float sum = 0;
  for (int64_t r = 0; r < kh; ++r)
    for (int64_t s = 0; s < kw; ++s)
      for (int64_t ch = 0; ch < c; ++ch)
        sum += x[((image * h + row + r) * width + col + s) * c + ch] *
               w[((r * kw + s) * c + ch) * f + filter];
  return sum;
}

TEST(RtldLocal, OneDnnConvolutionRuns) {
  std::vector<float> x = makeValues(2 * 9 * 9 * 3, 2);
  std::vector<float> w = makeValues(3 * 3 * 3 * 4, 5);
  std::vector<float> y(2 * 7 * 7 * 4, -1.0f);
  std::vector<int64_t> xDims = {2, 9, 9, 3}, wDims = {3, 3, 3, 4},
                       yDims = {2, 7, 7, 4};
  runProgram(kConvolution, "conv", {view(x, xDims), view(w, wDims)},
             view(y, yDims), "nxrt_conv2d_f32");
  if (HasFatalFailure())
    return;
  for (int64_t image = 0; image < 2; ++image)
    for (int64_t row = 0; row < 7; ++row)
      for (int64_t col = 0; col < 7; ++col)
        for (int64_t filter = 0; filter < 4; ++filter)
          ASSERT_EQ(y[((image * 7 + row) * 7 + col) * 4 + filter],
                    convolutionAt(x, w, image, row, col, filter))
              << "at (" << image << ", " << row << ", " << col << ", " << filter
              << ")";
}

} // namespace
