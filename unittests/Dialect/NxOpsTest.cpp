//===- NxOpsTest.cpp - builders, verifiers and interfaces of nx ops -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/IR/NxOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::nx;

namespace {

class NxOpsTest : public ::testing::Test {
protected:
  NxOpsTest() : builder(&context) {
    context.loadDialect<NxDialect, func::FuncDialect, arith::ArithDialect>();
    // Collect diagnostics instead of printing them, so tests can assert on
    // the exact message.
    handler = std::make_unique<ScopedDiagnosticHandler>(
        &context, [this](Diagnostic &diag) {
          diagnostics.push_back(diag.str());
          return success();
        });
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  RankedTensorType tensor(ArrayRef<int64_t> shape, Type element = {}) {
    return RankedTensorType::get(shape,
                                 element ? element : builder.getF32Type());
  }

  CallbackOp callback(StringRef name, TypeRange inputs, TypeRange results) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module->getBody());
    return CallbackOp::create(builder, builder.getUnknownLoc(), name,
                              builder.getFunctionType(inputs, results));
  }

  /// Creates `func.func @name(args) -> ()` and leaves the builder in its body.
  func::FuncOp function(StringRef name, TypeRange args) {
    builder.setInsertionPointToEnd(module->getBody());
    auto func = func::FuncOp::create(builder, builder.getUnknownLoc(), name,
                                     builder.getFunctionType(args, {}));
    Block *entry = func.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    func::ReturnOp::create(builder, builder.getUnknownLoc());
    builder.setInsertionPointToStart(entry);
    return func;
  }

  /// `nx.block "K"` on the argument of a new function @use(tensor<2xf32>),
  /// with a body block of one tensor<2xf32> argument and no terminator yet,
  /// where the builder is left.
  BlockOp blockOverArgument() {
    func::FuncOp func = function("use", {tensor({2})});
    auto block = BlockOp::create(
        builder, builder.getUnknownLoc(), TypeRange{tensor({2})}, "K",
        builder.getDictionaryAttr({}), func.getArguments());
    Block *body = builder.createBlock(&block.getBody(), {}, {tensor({2})},
                                      {builder.getUnknownLoc()});
    builder.setInsertionPointToStart(body);
    return block;
  }

  bool verifies() {
    diagnostics.clear();
    return succeeded(verify(*module));
  }

  /// True if `op` reports a memory effect on the nx host resource.
  static bool touchesHost(Operation *op) {
    SmallVector<MemoryEffects::EffectInstance> effects;
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface)
      return false;
    iface.getEffects(effects);
    return llvm::any_of(effects, [](const MemoryEffects::EffectInstance &e) {
      return isa<HostResource>(e.getResource());
    });
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
  std::vector<std::string> diagnostics;
};

TEST_F(NxOpsTest, CallbackBuilderAndVerifier) {
  CallbackOp cb = callback("cb", {tensor({4})}, {tensor({4})});
  EXPECT_EQ(cb.getSymName(), "cb");
  EXPECT_EQ(cb.getFunctionType().getNumInputs(), 1u);
  EXPECT_FALSE(cb.getId().has_value());
  EXPECT_TRUE(verifies());

  callback(
      "dyn",
      {RankedTensorType::get({ShapedType::kDynamic}, builder.getF32Type())},
      {});
  EXPECT_FALSE(verifies());
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0], "'nx.callback' op input #0 must have a static "
                            "shape, got 'tensor<?xf32>'");
}

TEST_F(NxOpsTest, HostTensorTypeRules) {
  EXPECT_TRUE(isHostTensorType(tensor({2, 3})));
  EXPECT_TRUE(isHostTensorType(tensor({}, builder.getI1Type())));
  EXPECT_TRUE(isHostTensorType(
      tensor({2}, IntegerType::get(&context, 16, IntegerType::Unsigned))));
  EXPECT_TRUE(
      isHostTensorType(tensor({2}, ComplexType::get(builder.getF64Type()))));
  EXPECT_FALSE(isHostTensorType(builder.getF32Type()));
  EXPECT_FALSE(isHostTensorType(tensor({2}, builder.getIndexType())));
  EXPECT_FALSE(isHostTensorType(
      tensor({2}, IntegerType::get(&context, 32, IntegerType::Signed))));
  EXPECT_FALSE(isHostTensorType(tensor({ShapedType::kDynamic})));
  // 2^62 f32 elements need 2^64 bytes.
  EXPECT_FALSE(isHostTensorType(tensor({int64_t(1) << 62})));
  EXPECT_TRUE(
      isHostTensorType(tensor({int64_t(1) << 60}, builder.getI8Type())));
  EXPECT_EQ(getHostElementByteSize(builder.getI1Type()), 1);
  EXPECT_EQ(getHostElementByteSize(builder.getBF16Type()), 2);
  EXPECT_EQ(getHostElementByteSize(ComplexType::get(builder.getF64Type())), 16);
}

TEST_F(NxOpsTest, ElixirCallEffectsDependOnPure) {
  callback("f", {tensor({2})}, {tensor({2})});
  func::FuncOp func = function("use", {tensor({2})});
  Value x = func.getArgument(0);
  auto call = ElixirCallOp::create(builder, builder.getUnknownLoc(),
                                   TypeRange{tensor({2})}, "f", ValueRange{x},
                                   /*static_args=*/nullptr, /*pure=*/false);
  auto pureCall = ElixirCallOp::create(builder, builder.getUnknownLoc(),
                                       TypeRange{tensor({2})}, "f",
                                       ValueRange{x}, nullptr, /*pure=*/true);
  EXPECT_TRUE(verifies());
  EXPECT_TRUE(touchesHost(call));
  EXPECT_FALSE(touchesHost(pureCall));
  EXPECT_FALSE(isMemoryEffectFree(call));
  EXPECT_TRUE(isMemoryEffectFree(pureCall));
  EXPECT_FALSE(wouldOpBeTriviallyDead(call));
  EXPECT_TRUE(wouldOpBeTriviallyDead(pureCall));
}

TEST_F(NxOpsTest, ElixirCallVerifiesAgainstCallee) {
  callback("f", {tensor({2})}, {tensor({2})});
  func::FuncOp func = function("use", {tensor({3})});
  ElixirCallOp::create(builder, builder.getUnknownLoc(), TypeRange{tensor({2})},
                       "f", ValueRange{func.getArgument(0)}, nullptr, false);
  EXPECT_FALSE(verifies());
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0], "'nx.elixir_call' op operand #0 has type "
                            "'tensor<3xf32>', but callback @f expects "
                            "'tensor<2xf32>'");
}

TEST_F(NxOpsTest, IoCallbackInfersPassthroughTypes) {
  callback("log", {tensor({2}), tensor({}, builder.getI64Type())}, {});
  func::FuncOp func =
      function("use", {tensor({2}), tensor({}, builder.getI64Type())});
  // The builder without result types infers them from the operands.
  auto io = IoCallbackOp::create(builder, builder.getUnknownLoc(), "log",
                                 func.getArguments(), /*ordered=*/true,
                                 /*static_args=*/DictionaryAttr(),
                                 /*optional=*/false);
  EXPECT_TRUE(verifies());
  EXPECT_EQ(io.getResultTypes(), func.getArgumentTypes());
  EXPECT_TRUE(io.getOrdered());
  EXPECT_TRUE(touchesHost(io));
  EXPECT_FALSE(wouldOpBeTriviallyDead(io));
}

TEST_F(NxOpsTest, IoCallbackRejectsCalleeWithResults) {
  callback("f", {tensor({2})}, {tensor({2})});
  func::FuncOp func = function("use", {tensor({2})});
  IoCallbackOp::create(builder, builder.getUnknownLoc(), "f",
                       func.getArguments(), false, DictionaryAttr(), false);
  EXPECT_FALSE(verifies());
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(
      diagnostics[0],
      "'nx.io_callback' op expects callback @f to have no results, got 1");
}

TEST_F(NxOpsTest, BlockEffectsAreThoseOfItsRegion) {
  BlockOp block = blockOverArgument();
  Block *body = &block.getBody().front();
  Value neg = arith::NegFOp::create(builder, builder.getUnknownLoc(),
                                    body->getArgument(0));
  YieldOp::create(builder, builder.getUnknownLoc(), ValueRange{neg});
  EXPECT_TRUE(verifies());
  EXPECT_EQ(block.getYield().getValues().size(), 1u);
  EXPECT_TRUE(isMemoryEffectFree(block));

  // An io_callback in the default implementation makes the block effectful.
  callback("log", {tensor({2})}, {});
  builder.setInsertionPoint(block.getYield());
  IoCallbackOp::create(builder, builder.getUnknownLoc(), "log", ValueRange{neg},
                       false, DictionaryAttr(), false);
  EXPECT_TRUE(verifies());
  EXPECT_FALSE(isMemoryEffectFree(block));
  EXPECT_FALSE(wouldOpBeTriviallyDead(block));
}

TEST_F(NxOpsTest, YieldIsReturnLike) {
  BlockOp block = blockOverArgument();
  Block *body = &block.getBody().front();
  auto yield = YieldOp::create(builder, builder.getUnknownLoc(),
                               ValueRange{body->getArgument(0)});
  ASSERT_TRUE(verifies());
  // Generic code (region analyses, inliners) treats it like any return: it
  // hands every operand to the enclosing op's results.
  EXPECT_TRUE(yield->hasTrait<OpTrait::ReturnLike>());
  auto terminator = dyn_cast<RegionBranchTerminatorOpInterface>(*yield);
  ASSERT_TRUE(terminator);
  RegionSuccessor parent(block, block->getResults());
  EXPECT_EQ(terminator.getSuccessorOperands(parent).size(), 1u);
}

TEST_F(NxOpsTest, StreamsAreNeverDead) {
  func::FuncOp func = function("use", {tensor({2})});
  auto outfeed =
      OutfeedOp::create(builder, builder.getUnknownLoc(), func.getArguments(),
                        builder.getStringAttr("s"));
  auto infeed =
      InfeedOp::create(builder, builder.getUnknownLoc(), TypeRange{tensor({2})},
                       builder.getStringAttr("s"));
  EXPECT_TRUE(verifies());
  EXPECT_FALSE(wouldOpBeTriviallyDead(outfeed));
  EXPECT_FALSE(wouldOpBeTriviallyDead(infeed));
  EXPECT_EQ(infeed.getStream(), "s");
}

TEST_F(NxOpsTest, CustomCallAliasesAndEffects) {
  func::FuncOp func = function("use", {tensor({2})});
  auto alias = OutputOperandAliasAttr::get(&context, {}, 0, {});
  auto call = CustomCallOp::create(
      builder, builder.getUnknownLoc(), TypeRange{tensor({2})},
      func.getArguments(), "target", /*has_side_effect=*/false,
      builder.getDictionaryAttr({}), /*api_version=*/4,
      /*called_computations=*/nullptr, /*operand_layouts=*/nullptr,
      /*result_layouts=*/nullptr, builder.getArrayAttr({alias}));
  EXPECT_TRUE(verifies());
  EXPECT_TRUE(wouldOpBeTriviallyDead(call));
  call.setHasSideEffect(true);
  EXPECT_FALSE(wouldOpBeTriviallyDead(call));
  EXPECT_TRUE(touchesHost(call));

  // api_version 4 demands a dictionary backend_config.
  call.setBackendConfigAttr(builder.getStringAttr("opaque"));
  EXPECT_FALSE(verifies());
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0], "'nx.custom_call' op expects a dictionary "
                            "backend_config with api_version 4 (typed FFI), "
                            "got \"opaque\"");
}

TEST_F(NxOpsTest, OutputOperandAliasAttrRoundTrips) {
  auto alias = OutputOperandAliasAttr::get(&context, {1}, 2, {});
  std::string text;
  llvm::raw_string_ostream os(text);
  Attribute(alias).print(os);
  EXPECT_EQ(text, "#nx.output_operand_alias<output_tuple_indices = [1], "
                  "operand_index = 2, operand_tuple_indices = []>");
  Attribute parsed = parseAttribute(text, &context);
  EXPECT_EQ(parsed, alias);
}

} // namespace
