//===- TestBlockPlugin.cpp - a block lowering plugin for the tests --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A third-party style plugin: loaded with --load-pass-plugin into nx-opt or
// (next to libNxPlugin.so) into upstream mlir-opt, it registers a lowering
// for the block kind "Test.Block.Scale" into the process-wide registry of
// libNxBlockLowering.so. It links that library and libMLIR.so, nothing of
// nx, and registers no passes.
//
//   Test.Block.Scale on host, f32 inputs      -> test_scale_f32
//   Test.Block.Scale on host, f16/bf16 inputs -> test_scale_f32 via converts
//   Test.Block.Scale on cuda                  -> test_scale_cuda
//   anything else                             -> skip
//   Test.Block.ToF32 on host  -> test_to_f32, every input and result as f32
//   Test.Block.BadArity       -> a spec with one operand element type too many
//   Test.Block.RmsNorm on host, f32 -> the XLA FFI handler test_ffi.rms_norm
//                                (TestFfiHandlers.c), the config's `eps` its
//                                attribute
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/BlockLowering.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;
using namespace mlir::nx;

static std::optional<CustomCallSpec>
lowerScale(const BlockLoweringRequest &request) {
  if (request.inputTypes.size() != 1 || request.resultTypes.size() != 1)
    return std::nullopt;
  auto input = dyn_cast<RankedTensorType>(request.inputTypes[0]);
  if (!input)
    return std::nullopt;
  Type element = input.getElementType();
  CustomCallSpec spec;
  if (request.platform == "cuda") {
    spec.callTargetName = "test_scale_cuda";
  } else if (request.platform == "host") {
    if (element.isF32()) {
      spec.callTargetName = "test_scale_f32";
    } else if (element.isF16() || element.isBF16()) {
      Type f32 = Float32Type::get(element.getContext());
      spec.callTargetName = "test_scale_f32";
      spec.operandElementTypes = {f32};
      spec.resultElementTypes = {f32};
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  Builder builder(element.getContext());
  spec.attributes.emplace_back(builder.getStringAttr("plugin"),
                               builder.getStringAttr("NxTestBlockPlugin"));
  if (request.config)
    if (Attribute factor = request.config.get("factor"))
      spec.attributes.emplace_back(builder.getStringAttr("factor"), factor);
  return spec;
}

static std::optional<CustomCallSpec>
lowerToF32(const BlockLoweringRequest &request) {
  if (request.platform != "host" || request.inputTypes.empty())
    return std::nullopt;
  Type f32 = Float32Type::get(request.inputTypes[0].getContext());
  CustomCallSpec spec;
  spec.callTargetName = "test_to_f32";
  spec.operandElementTypes.assign(request.inputTypes.size(), f32);
  spec.resultElementTypes.assign(request.resultTypes.size(), f32);
  return spec;
}

static std::optional<CustomCallSpec>
lowerBadArity(const BlockLoweringRequest &request) {
  if (request.inputTypes.empty())
    return std::nullopt;
  CustomCallSpec spec;
  spec.callTargetName = "test_bad_arity";
  spec.operandElementTypes.assign(
      request.inputTypes.size() + 1,
      Float32Type::get(request.inputTypes[0].getContext()));
  return spec;
}

/// A native kernel that is an XLA FFI handler: the spec names the handler,
/// and libnxrt binds the custom call to it when the program runs.
static std::optional<CustomCallSpec>
lowerRmsNorm(const BlockLoweringRequest &request) {
  if (request.platform != "host" || request.inputTypes.size() != 1 ||
      !getElementTypeOrSelf(request.inputTypes[0]).isF32() || !request.config)
    return std::nullopt;
  Attribute eps = request.config.get("eps");
  if (!eps)
    return std::nullopt;
  CustomCallSpec spec;
  spec.callTargetName = "test_ffi.rms_norm";
  spec.attributes.emplace_back(StringAttr::get(eps.getContext(), "eps"), eps);
  return spec;
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "NxTestBlockPlugin", LLVM_VERSION_STRING,
          [] {
            BlockLoweringRegistry::get().registerLowering(
                "Test.Block.Scale", lowerScale, /*replace=*/true);
            BlockLoweringRegistry::get().registerLowering(
                "Test.Block.ToF32", lowerToF32, /*replace=*/true);
            BlockLoweringRegistry::get().registerLowering(
                "Test.Block.BadArity", lowerBadArity, /*replace=*/true);
            BlockLoweringRegistry::get().registerLowering(
                "Test.Block.RmsNorm", lowerRmsNorm, /*replace=*/true);
          }};
}
