//===- RuntimeSymbolsTest.cpp - the one list of libnxrt's entry points ----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nxrt_symbols.def lists the libnxrt functions compiled code may call; the
// compiler's names (RuntimeSymbols.h) and the JIT's map come from it. Here:
// the JIT binds each entry to the function libnxrt exports under its name,
// and a program that exercises every lowering which calls libnxrt calls no
// libnxrt function outside the list, and every function in it. A lowering
// that starts calling another libnxrt function fails here until the list
// has it (and the JIT binds it); an entry that nothing calls any more fails
// until it leaves the list.
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"
#include "nx/Runner/Runner.h"
#include "nx/Runner/RuntimeSymbolMap.h"

#include "nxrt/nxrt.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/SelfExecutorProcessControl.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <iterator>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::nx;
namespace symbols = mlir::nx::runtime_symbols;

namespace {

/// Where libnxrt is loaded.
const void *getRuntimeBase() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&nxrt_runtime_create), &info))
    return nullptr;
  return info.dli_fbase;
}

/// The function or variable libnxrt exports as `name`, or null. The test
/// links libnxrt, so the process's global scope has it.
void *findInLibnxrt(const std::string &name) {
  void *address = dlsym(RTLD_DEFAULT, name.c_str());
  Dl_info info;
  if (!address || !dladdr(address, &info) || info.dli_fbase != getRuntimeBase())
    return nullptr;
  return address;
}

TEST(RuntimeSymbols, JitMapBindsTheListToLibnxrtsExports) {
  ASSERT_NE(getRuntimeBase(), nullptr);
  auto control = llvm::orc::SelfExecutorProcessControl::Create();
  ASSERT_TRUE(static_cast<bool>(control))
      << llvm::toString(control.takeError());
  llvm::orc::ExecutionSession session(std::move(*control));
  llvm::orc::MangleAndInterner interner(session, llvm::DataLayout(""));
  llvm::orc::SymbolMap map = runner::runtimeSymbolMap(interner);
  // The list and MLIR's memrefCopy, nothing else.
  EXPECT_EQ(map.size(), std::size(symbols::kEntryPoints) + 1);
  for (llvm::StringRef name : symbols::kEntryPoints) {
    auto bound = map.find(interner(name));
    ASSERT_NE(bound, map.end()) << name.str();
    void *exported = findInLibnxrt(name.str());
    EXPECT_NE(exported, nullptr) << "libnxrt exports no " << name.str();
    EXPECT_EQ(bound->second.getAddress().toPtr<void *>(), exported)
        << name.str();
  }
  auto copy = map.find(interner(symbols::kMlirMemrefCopy));
  ASSERT_NE(copy, map.end());
  EXPECT_EQ(copy->second.getAddress().toPtr<void *>(),
            findInLibnxrt(symbols::kMemrefCopy.str()));
  cantFail(session.endSession());
}

// Every lowering that calls libnxrt: host callbacks (elixir_call in a
// callee, so its callers check the run, io_callback), streams, a typed FFI
// custom call, heap buffers freed within the function, a strided copy
// (MLIR's memrefCopy), f32 and f64 products small (one call) and large
// (shared among an OpenMP team), a convolution on oneDNN, and a parallel
// loop nest.
constexpr const char *kProgram = R"mlir(
nx.callback @host.scale : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @host.log : (tensor<4xf32>) -> ()
func.func private @leaf(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = nx.elixir_call @host.scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %z = nx.io_callback @host.log(%y) : tensor<4xf32>
  return %z : tensor<4xf32>
}
func.func @host_calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @leaf(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %a = nx.infeed from "in" : tensor<4xf32>
  %s = arith.addf %y, %a : tensor<4xf32>
  nx.outfeed %s to "out" : tensor<4xf32>
  %t = nx.custom_call @target(%s) {api_version = 4 : i32, backend_config = {}}
      : (tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}
func.func @sum_of_squares(%x: tensor<?xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %empty = tensor.empty(%n) : tensor<?xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                        iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%empty : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.from_elements %zero : tensor<f32>
  %sum = linalg.reduce ins(%sq : tensor<?xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%v: f32, %acc: f32) {
      %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<f32>
}
func.func @strided(%big: tensor<4x8xf32>, %small: tensor<2x3xf32>) -> tensor<4x8xf32> {
  %r = tensor.insert_slice %small into %big[1, 2] [2, 3] [1, 2]
      : tensor<2x3xf32> into tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
func.func @small_f32(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x3xf32>) -> tensor<4x3xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>)
                     outs(%acc : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}
func.func @small_f64(%a: tensor<4x8xf64>, %b: tensor<8x3xf64>) -> tensor<4x3xf64> {
  %zero = arith.constant 0.0 : f64
  %empty = tensor.empty() : tensor<4x3xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%empty : tensor<4x3xf64>) -> tensor<4x3xf64>
  %c = linalg.matmul ins(%a, %b : tensor<4x8xf64>, tensor<8x3xf64>)
                     outs(%acc : tensor<4x3xf64>) -> tensor<4x3xf64>
  return %c : tensor<4x3xf64>
}
func.func @large_f32(%a: tensor<128x256xf32>, %b: tensor<256x96xf32>) -> tensor<128x96xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x96xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x96xf32>) -> tensor<128x96xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x96xf32>)
                     outs(%acc : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %c : tensor<128x96xf32>
}
func.func @padded_f32(%a: tensor<32x64xf32>, %b: tensor<64x256xf32>) -> tensor<32x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<32x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x256xf32>) -> tensor<32x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x256xf32>)
                     outs(%acc : tensor<32x256xf32>) -> tensor<32x256xf32>
  return %c : tensor<32x256xf32>
}
func.func @dense_layer(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %bias: tensor<3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x3xf32>) -> tensor<4x3xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>)
                     outs(%acc : tensor<4x3xf32>) -> tensor<4x3xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<4x3xf32>, tensor<3xf32>) outs(%empty : tensor<4x3xf32>) {
  ^bb0(%v: f32, %w: f32, %out: f32):
    %s = arith.addf %v, %w : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x3xf32>
  return %h : tensor<4x3xf32>
}
func.func @large_f64(%a: tensor<128x256xf64>, %b: tensor<256x96xf64>) -> tensor<128x96xf64> {
  %zero = arith.constant 0.0 : f64
  %empty = tensor.empty() : tensor<128x96xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%empty : tensor<128x96xf64>) -> tensor<128x96xf64>
  %c = linalg.matmul ins(%a, %b : tensor<128x256xf64>, tensor<256x96xf64>)
                     outs(%acc : tensor<128x96xf64>) -> tensor<128x96xf64>
  return %c : tensor<128x96xf64>
}
func.func @small_bf16(%a: tensor<4x8xbf16>, %b: tensor<8x3xbf16>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x3xf32>) -> tensor<4x3xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4x8xbf16>, tensor<8x3xbf16>)
                     outs(%acc : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}
func.func @large_bf16(%a: tensor<128x256xbf16>, %b: tensor<256x96xbf16>) -> tensor<128x96xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x96xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x96xf32>) -> tensor<128x96xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x96xbf16>)
                     outs(%acc : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %c : tensor<128x96xf32>
}
func.func @small_f16(%a: tensor<4x8xf16>, %b: tensor<8x3xf16>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x3xf32>) -> tensor<4x3xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x3xf16>)
                     outs(%acc : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}
func.func @large_f16(%a: tensor<128x256xf16>, %b: tensor<256x96xf16>) -> tensor<128x96xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x96xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x96xf32>) -> tensor<128x96xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x256xf16>, tensor<256x96xf16>)
                     outs(%acc : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %c : tensor<128x96xf32>
}
func.func @small_i8(%a: tensor<4x8xi8>, %b: tensor<8x3xi8>) -> tensor<4x3xi32> {
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<4x3xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%empty : tensor<4x3xi32>) -> tensor<4x3xi32>
  %c = linalg.matmul ins(%a, %b : tensor<4x8xi8>, tensor<8x3xi8>)
                     outs(%acc : tensor<4x3xi32>) -> tensor<4x3xi32>
  return %c : tensor<4x3xi32>
}
func.func @large_i8(%a: tensor<128x256xi8>, %b: tensor<256x96xi8>) -> tensor<128x96xi32> {
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<128x96xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%empty : tensor<128x96xi32>) -> tensor<128x96xi32>
  %c = linalg.matmul ins(%a, %b : tensor<128x256xi8>, tensor<256x96xi8>)
                     outs(%acc : tensor<128x96xi32>) -> tensor<128x96xi32>
  return %c : tensor<128x96xi32>
}
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

/// What kProgram, lowered by nx-lower-to-cpu and translated to LLVM IR as
/// the JIT translates it, uses without defining.
llvm::Expected<std::vector<std::string>> getProgramUndefinedSymbols() {
  DialectRegistry registry;
  runner::registerRunnerDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, ParserConfig(&context));
  if (!module)
    return llvm::createStringError("cannot parse kProgram");
  if (llvm::Error error = runner::lowerToCpu(*module, runner::CompileOptions()))
    return std::move(error);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      runner::translateForJit(*module, llvmContext);
  if (!llvmModule)
    return llvm::createStringError("cannot translate kProgram to LLVM IR");
  return runner::getUndefinedSymbols(*llvmModule);
}

TEST(RuntimeSymbols, LoweringsCallExactlyTheListedLibnxrtFunctions) {
  auto undefined = getProgramUndefinedSymbols();
  ASSERT_TRUE(static_cast<bool>(undefined))
      << llvm::toString(undefined.takeError());
  llvm::StringSet<> called;
  for (const std::string &name : *undefined) {
    if (llvm::is_contained(symbols::kEntryPoints, name)) {
      called.insert(name);
    } else if (name == symbols::kMlirMemrefCopy) {
      called.insert(symbols::kMemrefCopy);
    } else {
      EXPECT_FALSE(llvm::StringRef(name).starts_with("nxrt_") ||
                   findInLibnxrt(name))
          << "compiled code calls libnxrt's " << name
          << ", which nxrt_symbols.def does not list";
    }
  }
  for (llvm::StringRef name : symbols::kEntryPoints) {
    // MLIR's allocation function for finalize-memref-to-llvm's
    // use-aligned-alloc, which nx-lower-to-cpu leaves off; libnxrt defines
    // it with the others, for pipelines that set it.
    if (name == symbols::kGenericAlignedAlloc)
      continue;
    EXPECT_TRUE(called.contains(name))
        << "nxrt_symbols.def lists " << name.str()
        << ", which no lowering of kProgram calls";
  }
}

} // namespace
