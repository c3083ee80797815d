//===- OutOfMemoryTest.cpp - a failed allocation in compiled code ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiled code whose buffer the allocator refuses fails its run with an
// out-of-memory error at the op, and the process goes on: the next run of
// the same program, with a size that fits, succeeds.
//
//===----------------------------------------------------------------------===//

#include "nx/Runner/Runner.h"

#include "nxhost/HostTensor.h"
#include "nxrt/nxrt.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

using namespace mlir::nx::runner;

namespace {

// A buffer of %n floats, filled with ones, then summed: its size comes from
// the input, so one program can both fail and succeed.
constexpr const char *kProgram = R"mlir(
func.func @main(%n: tensor<i64>) -> tensor<f32> {
  %count = tensor.extract %n[] : tensor<i64>
  %size = arith.index_cast %count : i64 to index
  %empty = tensor.empty(%size) : tensor<?xf32>
  %one = arith.constant 1.0 : f32
  %ones = linalg.fill ins(%one : f32) outs(%empty : tensor<?xf32>) -> tensor<?xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.from_elements %zero : tensor<f32>
  %sum = linalg.reduce ins(%ones : tensor<?xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<f32>
}
)mlir";

nxhost::HostTensor makeCount(int64_t count) {
  nxhost::HostTensor tensor(NXRT_I64, {});
  std::memcpy(tensor.data(), &count, sizeof(count));
  return tensor;
}

struct RuntimeDeleter {
  void operator()(nxrt_runtime_t *runtime) const {
    nxrt_runtime_destroy(runtime);
  }
};

TEST(CompiledCodeOutOfMemory, FailsTheRunAtTheOpAndTheNextRunWorks) {
  std::unique_ptr<nxrt_runtime_t, RuntimeDeleter> runtime(
      nxrt_runtime_create());
  auto executable =
      Executable::compileSource(kProgram, "oom.mlir", runtime.get());
  ASSERT_TRUE(static_cast<bool>(executable))
      << llvm::toString(executable.takeError());

  // 2^60 floats: more than any address space holds.
  nxhost::HostTensor huge = makeCount(int64_t{1} << 60);
  auto failed = (*executable)->run("main", {&huge, 1});
  ASSERT_FALSE(static_cast<bool>(failed));
  std::string message = llvm::toString(failed.takeError());
  EXPECT_NE(message.find("out of memory at oom.mlir:5:"), std::string::npos)
      << message;
  EXPECT_NE(message.find("4611686018427387904 bytes"), std::string::npos)
      << message;

  nxhost::HostTensor small = makeCount(1000);
  auto results = (*executable)->run("main", {&small, 1});
  ASSERT_TRUE(static_cast<bool>(results))
      << llvm::toString(results.takeError());
  ASSERT_EQ(results->size(), 1u);
  float sum = 0;
  std::memcpy(&sum, (*results)[0].data(), sizeof(sum));
  EXPECT_EQ(sum, 1000.0f);
}

} // namespace
