//===- NxToCustomCallPatternsTest.cpp - the public custom-call patterns ---===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Uses populateNxToCustomCallConversionPatterns the way an embedder's own
// conversion would, without the pass: no symbol-table cache, no up-front
// check of the host ops.
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/NxToCustomCall/NxToCustomCall.h"
#include "nx/Dialect/Nx/IR/NxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/DialectConversion.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::nx;

namespace {

class NxToCustomCallPatternsTest : public ::testing::Test {
protected:
  NxToCustomCallPatternsTest() {
    context.loadDialect<NxDialect, arith::ArithDialect, func::FuncDialect>();
  }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  LogicalResult convert(ModuleOp module, const NxToCustomCallOptions &options) {
    ConversionTarget target(context);
    target.addIllegalOp<ElixirCallOp, IoCallbackOp, OutfeedOp, InfeedOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&context);
    populateNxToCustomCallConversionPatterns(patterns, options);
    return applyPartialConversion(module, target, std::move(patterns));
  }

  MLIRContext context;
};

TEST_F(NxToCustomCallPatternsTest, ThreadsOneTokenThroughOrderedCallbacks) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    nx.callback @f : (tensor<f32>) -> tensor<f32> attributes {id = 0 : i64}
    nx.callback @log : (tensor<f32>) -> () attributes {id = 1 : i64}
    func.func @main(%x: tensor<f32>) -> tensor<f32> {
      %a = nx.elixir_call ordered @f(%x) : (tensor<f32>) -> tensor<f32>
      %b = nx.io_callback ordered @log(%a) : tensor<f32>
      %c = nx.elixir_call ordered @f(%b) : (tensor<f32>) -> tensor<f32>
      return %c : tensor<f32>
    }
  )mlir");
  ASSERT_TRUE(module);
  NxToCustomCallOptions options;
  options.abi = CallbackAbi::ExlaLegacy;
  options.callbackTarget = "my_callback";
  ASSERT_TRUE(succeeded(convert(*module, options)));

  SmallVector<CustomCallOp> calls;
  module->walk([&](CustomCallOp call) { calls.push_back(call); });
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0].getCallTargetName(), "my_callback");
  EXPECT_EQ(calls[1].getCallTargetName(), "exla_io_callback");
  // Each ordered call takes the token the previous one returned (its last
  // result); the first takes a constant.
  EXPECT_TRUE(calls[0].getInputs().back().getDefiningOp<arith::ConstantOp>());
  EXPECT_EQ(calls[1].getInputs().back(), calls[0]->getResults().back());
  EXPECT_EQ(calls[2].getInputs().back(), calls[1]->getResults().back());
}

TEST_F(NxToCustomCallPatternsTest, RuntimeCallbacksTakeTheServerFirst) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    nx.callback @f : (tensor<f32>) -> tensor<f32> attributes {id = 0 : i64}
    nx.callback @log : (tensor<f32>) -> () attributes {id = 1 : i64}
    func.func @main(%x: tensor<f32>) -> tensor<f32> {
      %a = nx.elixir_call ordered @f(%x) : (tensor<f32>) -> tensor<f32>
      %b = nx.io_callback @log(%a) : tensor<f32>
      return %b : tensor<f32>
    }
  )mlir");
  ASSERT_TRUE(module);
  NxToCustomCallOptions options;
  options.callbackServerHandle = "<0.42.0>";
  ASSERT_TRUE(succeeded(convert(*module, options)));

  SmallVector<CustomCallOp> calls;
  module->walk([&](CustomCallOp call) { calls.push_back(call); });
  ASSERT_EQ(calls.size(), 2u);
  for (CustomCallOp call : calls) {
    EXPECT_EQ(call.getCallTargetName(), kRuntimeCallbackTarget);
    auto server = call.getInputs().front().getType();
    EXPECT_EQ(server,
              RankedTensorType::get(
                  {8}, IntegerType::get(&context, 8, IntegerType::Unsigned)));
  }
  // No token: the io_callback's argument is the elixir_call's result.
  EXPECT_EQ(calls[1].getInputs()[1], calls[0]->getResult(0));
  EXPECT_EQ(calls[1]->getNumResults(), 1u);
}

TEST_F(NxToCustomCallPatternsTest, ThreadsOneTagThroughInfeeds) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @main() -> (tensor<f32>, tensor<2xi32>) {
      %a = nx.infeed from "in" : tensor<f32>
      %b = nx.infeed from "in" : tensor<2xi32>
      return %a, %b : tensor<f32>, tensor<2xi32>
    }
  )mlir");
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(convert(*module, NxToCustomCallOptions())));
  SmallVector<CustomCallOp> calls;
  module->walk([&](CustomCallOp call) { calls.push_back(call); });
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[1].getInputs()[1], calls[0]->getResult(0));
}

TEST_F(NxToCustomCallPatternsTest, DeclinesWhatTheCheckReports) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    nx.callback @no_id : (tensor<f32>) -> tensor<f32>
    func.func @main(%x: tensor<f32>) -> tensor<f32> {
      %a = nx.elixir_call @no_id(%x) : (tensor<f32>) -> tensor<f32>
      return %a : tensor<f32>
    }
  )mlir");
  ASSERT_TRUE(module);
  std::vector<std::string> errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    errors.push_back(diagnostic.str());
    return success();
  });
  // The pattern declines; the driver reports the op it could not lower.
  EXPECT_TRUE(failed(convert(*module, NxToCustomCallOptions())));
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.front().find("nx.elixir_call"), std::string::npos);

  // The check says why, at the op.
  errors.clear();
  SymbolTableCollection symbolTables;
  Operation *call = nullptr;
  module->walk([&](ElixirCallOp op) { call = op; });
  ASSERT_TRUE(call);
  EXPECT_TRUE(failed(
      checkLowerableToCustomCall(call, NxToCustomCallOptions(), symbolTables)));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors.front().find("which has no id"), std::string::npos)
      << errors.front();
}

} // namespace
