//===- BlockLoweringTest.cpp - the block lowering registry API ------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/BlockLowering.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <thread>

using namespace mlir;
using namespace mlir::nx;

namespace {

class BlockLoweringTest : public ::testing::Test {
protected:
  MLIRContext context;
  Builder b{&context};

  RankedTensorType tensor(Type element, ArrayRef<int64_t> shape = {3, 3}) {
    return RankedTensorType::get(shape, element);
  }

  std::optional<CustomCallSpec> lower(StringRef kind, Type element,
                                      StringRef platform = "host",
                                      DictionaryAttr config = {}) {
    return lowerTypes(kind, {tensor(element)},
                      {tensor(element), tensor(element)}, platform, config);
  }

  std::optional<CustomCallSpec>
  lowerTypes(StringRef kind, ArrayRef<Type> inputs, ArrayRef<Type> results,
             StringRef platform = "host", DictionaryAttr config = {}) {
    BlockLoweringRequest request;
    request.kind = kind;
    request.config = config ? config : b.getDictionaryAttr({});
    request.inputTypes = inputs;
    request.resultTypes = results;
    request.platform = platform;
    return BlockLoweringRegistry::get().lookup(request);
  }
};

TEST_F(BlockLoweringTest, BuiltinsAreRegistered) {
  auto &registry = BlockLoweringRegistry::get();
  EXPECT_TRUE(registry.contains(kQRBlockKind));
  EXPECT_TRUE(registry.contains(kEighBlockKind));
  std::vector<std::string> kinds = registry.getKinds();
  EXPECT_TRUE(std::is_sorted(kinds.begin(), kinds.end()));
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), kQRBlockKind), kinds.end());
}

TEST_F(BlockLoweringTest, QRAndEighPickTheKernelOfTheElementType) {
  std::optional<CustomCallSpec> qr32 = lower(kQRBlockKind, b.getF32Type());
  ASSERT_TRUE(qr32);
  EXPECT_EQ(qr32->callTargetName, "qr_cpu_custom_call_f32");
  EXPECT_TRUE(qr32->operandElementTypes.empty());
  EXPECT_TRUE(qr32->resultElementTypes.empty());
  EXPECT_FALSE(qr32->hasSideEffect);

  std::optional<CustomCallSpec> qr64 = lower(kQRBlockKind, b.getF64Type());
  ASSERT_TRUE(qr64);
  EXPECT_EQ(qr64->callTargetName, "qr_cpu_custom_call_f64");

  std::optional<CustomCallSpec> eigh = lower(kEighBlockKind, b.getF64Type());
  ASSERT_TRUE(eigh);
  EXPECT_EQ(eigh->callTargetName, "eigh_cpu_custom_call_f64");
}

// f16/bf16 and signless integers (as in EXLA) run the f32 kernel.
TEST_F(BlockLoweringTest, HalfPrecisionAndIntegersGoThroughF32) {
  for (Type element :
       {Type(b.getF16Type()), Type(b.getBF16Type()), Type(b.getI8Type()),
        Type(b.getI32Type()), Type(b.getI64Type())}) {
    std::optional<CustomCallSpec> spec = lower(kQRBlockKind, element);
    ASSERT_TRUE(spec);
    EXPECT_EQ(spec->callTargetName, "qr_cpu_custom_call_f32");
    ASSERT_EQ(spec->operandElementTypes.size(), 1u);
    EXPECT_TRUE(spec->operandElementTypes[0].isF32());
    ASSERT_EQ(spec->resultElementTypes.size(), 2u);
    EXPECT_TRUE(spec->resultElementTypes[0].isF32());
    EXPECT_TRUE(spec->resultElementTypes[1].isF32());
  }
  // As Nx declares them: integer input, f32 results.
  std::optional<CustomCallSpec> spec =
      lowerTypes(kEighBlockKind, {tensor(b.getI32Type(), {3, 3})},
                 {tensor(b.getF32Type(), {3}), tensor(b.getF32Type(), {3, 3})});
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->callTargetName, "eigh_cpu_custom_call_f32");
}

TEST_F(BlockLoweringTest, BuiltinsSkipWhatTheyCannotRun) {
  EXPECT_FALSE(lower(kQRBlockKind, b.getF32Type(), "cuda"));
  EXPECT_FALSE(lower(kQRBlockKind, b.getI1Type()));
  EXPECT_FALSE(lower(kQRBlockKind,
                     IntegerType::get(&context, 32, IntegerType::Unsigned)));
  EXPECT_FALSE(lower(kQRBlockKind, ComplexType::get(b.getF32Type())));
  EXPECT_FALSE(lower(kEighBlockKind, b.getF32Type(), "rocm"));
  EXPECT_FALSE(lower("No.Such.Block", b.getF32Type()));

  // Eigh needs square matrices.
  EXPECT_FALSE(lowerTypes(
      kEighBlockKind, {tensor(b.getF32Type(), {3, 2})},
      {tensor(b.getF32Type(), {3}), tensor(b.getF32Type(), {3, 2})}));
}

TEST_F(BlockLoweringTest, ConfigBecomesBackendConfigEntries) {
  DictionaryAttr config =
      b.getDictionaryAttr({b.getNamedAttr("mode", b.getStringAttr("reduced"))});
  std::optional<CustomCallSpec> spec =
      lower(kQRBlockKind, b.getF32Type(), "host", config);
  ASSERT_TRUE(spec);
  ASSERT_EQ(spec->attributes.size(), 1u);
  EXPECT_EQ(spec->attributes[0].getName().getValue(), "mode");
  EXPECT_EQ(spec->attributes[0].getValue(), b.getStringAttr("reduced"));
}

TEST_F(BlockLoweringTest, RegisterReplaceAndUnregister) {
  auto &registry = BlockLoweringRegistry::get();
  const char *kind = "Test.Unit.Block";
  ASSERT_FALSE(registry.contains(kind));
  EXPECT_TRUE(registry.registerLowering(kind, [](const BlockLoweringRequest &) {
    CustomCallSpec spec;
    spec.callTargetName = "first";
    return std::optional<CustomCallSpec>(spec);
  }));
  // A second registration does not replace the first unless asked to.
  EXPECT_FALSE(registry.registerLowering(
      kind, [](const BlockLoweringRequest &) { return std::nullopt; }));
  std::optional<CustomCallSpec> spec = lower(kind, b.getF32Type());
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->callTargetName, "first");

  EXPECT_TRUE(registry.registerLowering(
      kind,
      [](const BlockLoweringRequest &request) -> std::optional<CustomCallSpec> {
        if (request.platform != "cuda")
          return std::nullopt;
        CustomCallSpec spec;
        spec.callTargetName = "second";
        return spec;
      },
      /*replace=*/true));
  EXPECT_FALSE(lower(kind, b.getF32Type(), "host"));
  ASSERT_TRUE(lower(kind, b.getF32Type(), "cuda"));
  EXPECT_EQ(lower(kind, b.getF32Type(), "cuda")->callTargetName, "second");

  EXPECT_TRUE(registry.unregisterLowering(kind));
  EXPECT_FALSE(registry.unregisterLowering(kind));
  EXPECT_FALSE(registry.contains(kind));
  EXPECT_FALSE(lower(kind, b.getF32Type(), "cuda"));
}

TEST_F(BlockLoweringTest, ImplementationsMayUseTheRegistry) {
  // lookup() runs implementations without holding the registry lock.
  auto &registry = BlockLoweringRegistry::get();
  const char *kind = "Test.Unit.Delegating";
  registry.registerLowering(kind, [](const BlockLoweringRequest &request) {
    BlockLoweringRequest qr = request;
    qr.kind = kQRBlockKind;
    return BlockLoweringRegistry::get().lookup(qr);
  });
  std::optional<CustomCallSpec> spec = lower(kind, b.getF64Type());
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->callTargetName, "qr_cpu_custom_call_f64");
  registry.unregisterLowering(kind);
}

TEST_F(BlockLoweringTest, BuiltinsCanBeRestored) {
  auto &registry = BlockLoweringRegistry::get();
  ASSERT_TRUE(registry.unregisterLowering(kQRBlockKind));
  EXPECT_FALSE(lower(kQRBlockKind, b.getF32Type()));
  registerBuiltinBlockLowerings();
  registerBuiltinBlockLowerings(); // idempotent
  EXPECT_TRUE(lower(kQRBlockKind, b.getF32Type()));
}

TEST_F(BlockLoweringTest, ConcurrentRegistrationAndLookup) {
  auto &registry = BlockLoweringRegistry::get();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&registry, t] {
      std::string kind = "Test.Unit.Concurrent" + std::to_string(t);
      for (int i = 0; i < 200; ++i) {
        registry.registerLowering(
            kind, [](const BlockLoweringRequest &) { return std::nullopt; },
            /*replace=*/true);
        (void)registry.contains(kQRBlockKind);
        registry.unregisterLowering(kind);
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < 4; ++t)
    EXPECT_FALSE(registry.contains("Test.Unit.Concurrent" + std::to_string(t)));
}

} // namespace
