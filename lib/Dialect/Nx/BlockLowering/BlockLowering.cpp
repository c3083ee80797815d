//===- BlockLowering.cpp - the nx.block lowering registry -----------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Built as the shared library libNxBlockLowering.so so that every object in
// the process (nx-opt or mlir-opt, libNxPlugin.so, third-party plugins) uses
// the one registry defined here. Depends on libMLIR.so only.
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/BlockLowering.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <mutex>

using namespace mlir;
using namespace mlir::nx;

struct BlockLoweringRegistry::Impl {
  mutable std::mutex mutex;
  llvm::StringMap<std::shared_ptr<const BlockLoweringFn>> lowerings;
};

BlockLoweringRegistry::BlockLoweringRegistry() : impl(new Impl) {}
BlockLoweringRegistry::~BlockLoweringRegistry() { delete impl; }

static void registerBuiltinsInto(BlockLoweringRegistry &registry);

BlockLoweringRegistry &BlockLoweringRegistry::get() {
  // Never destroyed: plugins may still hold implementations at exit, and
  // shared objects are unloaded in no particular order.
  static BlockLoweringRegistry *registry = [] {
    auto *r = new BlockLoweringRegistry();
    registerBuiltinsInto(*r);
    return r;
  }();
  return *registry;
}

bool BlockLoweringRegistry::registerLowering(StringRef kind, BlockLoweringFn fn,
                                             bool replace) {
  auto shared = std::make_shared<const BlockLoweringFn>(std::move(fn));
  std::lock_guard<std::mutex> lock(impl->mutex);
  auto [it, inserted] = impl->lowerings.try_emplace(kind, shared);
  if (!inserted && !replace)
    return false;
  it->second = std::move(shared);
  return true;
}

bool BlockLoweringRegistry::unregisterLowering(StringRef kind) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->lowerings.erase(kind);
}

bool BlockLoweringRegistry::contains(StringRef kind) const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->lowerings.count(kind);
}

std::vector<std::string> BlockLoweringRegistry::getKinds() const {
  std::vector<std::string> kinds;
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    for (const auto &entry : impl->lowerings)
      kinds.push_back(entry.getKey().str());
  }
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

std::optional<CustomCallSpec>
BlockLoweringRegistry::lookup(const BlockLoweringRequest &request) const {
  std::shared_ptr<const BlockLoweringFn> fn;
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    auto it = impl->lowerings.find(request.kind);
    if (it == impl->lowerings.end())
      return std::nullopt;
    fn = it->second;
  }
  if (!*fn)
    return std::nullopt;
  return (*fn)(request);
}

//===----------------------------------------------------------------------===//
// Built-in lowerings (EXLA's CPU LinAlg kernels)
//===----------------------------------------------------------------------===//

/// The host LinAlg kernels take one floating-point matrix (batched or not)
/// and return two results of the same element type. f32/f64 call the kernel
/// of that type; f16/bf16 go through the f32 kernel, and so do signless
/// integers, as in EXLA (their results are f32, or converted back to the
/// declared integer type). Anything else (complex, unsigned) skips.
static std::optional<CustomCallSpec>
lowerHostLinAlg(const BlockLoweringRequest &request, StringRef targetPrefix,
                bool requireSquare) {
  if (request.platform != "host" || request.inputTypes.size() != 1 ||
      request.resultTypes.size() != 2)
    return std::nullopt;
  auto input = dyn_cast<RankedTensorType>(request.inputTypes[0]);
  if (!input || input.getRank() < 2 || !input.hasStaticShape())
    return std::nullopt;
  ArrayRef<int64_t> shape = input.getShape();
  if (requireSquare && shape[shape.size() - 1] != shape[shape.size() - 2])
    return std::nullopt;
  Type element = input.getElementType();
  MLIRContext *context = element.getContext();
  Type f32 = Float32Type::get(context);
  auto floatType = dyn_cast<FloatType>(element);
  auto intType = dyn_cast<IntegerType>(element);
  bool viaF32Integer =
      intType && intType.isSignless() && intType.getWidth() > 1;
  if (!floatType && !viaF32Integer)
    return std::nullopt; // complex, i1, unsigned: the default implementation
  for (Type result : request.resultTypes) {
    auto resultTensor = dyn_cast<RankedTensorType>(result);
    if (!resultTensor)
      return std::nullopt;
    Type resultElement = resultTensor.getElementType();
    if (resultElement != element && !(viaF32Integer && resultElement == f32))
      return std::nullopt;
  }

  CustomCallSpec spec;
  if (viaF32Integer) {
    spec.callTargetName = (targetPrefix + "f32").str();
    spec.operandElementTypes = {f32};
    spec.resultElementTypes = {f32, f32};
  } else if (floatType.isF32() || floatType.isF64()) {
    spec.callTargetName =
        (targetPrefix + (floatType.isF32() ? "f32" : "f64")).str();
  } else if (floatType.isF16() || floatType.isBF16()) {
    spec.callTargetName = (targetPrefix + "f32").str();
    spec.operandElementTypes = {f32};
    spec.resultElementTypes = {f32, f32};
  } else {
    return std::nullopt;
  }
  if (request.config)
    llvm::append_range(spec.attributes, request.config.getValue());
  return spec;
}

static void registerBuiltinsInto(BlockLoweringRegistry &registry) {
  registry.registerLowering(kQRBlockKind, [](const BlockLoweringRequest &r) {
    return lowerHostLinAlg(r, "qr_cpu_custom_call_", /*requireSquare=*/false);
  });
  registry.registerLowering(kEighBlockKind, [](const BlockLoweringRequest &r) {
    return lowerHostLinAlg(r, "eigh_cpu_custom_call_", /*requireSquare=*/true);
  });
}

void mlir::nx::registerBuiltinBlockLowerings() {
  registerBuiltinsInto(BlockLoweringRegistry::get());
}
