//===- NxPlugin.cpp - nx as an mlir-opt plugin -----------------------------===//

#include "nx/InitNx.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "NxDialect", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::nx::registerNxDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "NxPasses", LLVM_VERSION_STRING,
          [] { mlir::nx::registerNxPasses(); }};
}
