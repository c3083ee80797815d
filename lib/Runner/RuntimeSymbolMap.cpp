//===- RuntimeSymbolMap.cpp - libnxrt's symbols for the JIT ---------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Runner/RuntimeSymbolMap.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"

#include "nxrt/nxrt.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <dlfcn.h>

using namespace mlir;
using namespace mlir::nx;
using llvm::StringRef;

static void bindSymbol(llvm::orc::SymbolMap &map,
                       llvm::orc::MangleAndInterner &interner, StringRef name,
                       void *address) {
  map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                         llvm::JITSymbolFlags::Exported};
}

llvm::orc::SymbolMap
runner::runtimeSymbolMap(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap map;
#define NXRT_SYMBOL(fn)                                                        \
  bindSymbol(map, interner, #fn, reinterpret_cast<void *>(&fn));
#include "nxrt/nxrt_symbols.def"
  // memref.copy between strided buffers lowers to a call of MLIR's
  // `memrefCopy`; libnxrt defines it with the same ABI, so the JIT needs no
  // MLIR runtime library (and behaves as nx-compile's objects do).
  bindSymbol(map, interner, runtime_symbols::kMlirMemrefCopy,
             reinterpret_cast<void *>(&nxrt_memref_copy));
  return map;
}

std::vector<std::string>
runner::getUndefinedSymbols(const llvm::Module &module) {
  std::vector<std::string> names;
  for (const llvm::GlobalObject &object : module.global_objects()) {
    auto *function = llvm::dyn_cast<llvm::Function>(&object);
    if (object.isDeclaration() && !(function && function->isIntrinsic()))
      names.push_back(object.getName().str());
  }
  return names;
}

/// Where libnxrt is loaded: tells its own symbols from its dependencies'.
static void *getRuntimeBase() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&nxrt_runtime_create), &info))
    return nullptr;
  return info.dli_fbase;
}

llvm::orc::SymbolMap
runner::runtimeDependencySymbolMap(llvm::ArrayRef<std::string> names,
                                   llvm::orc::MangleAndInterner interner) {
  static void *const runtimeBase = getRuntimeBase();
  llvm::orc::SymbolMap map;
  for (const std::string &name : names) {
    if (name == runtime_symbols::kMlirMemrefCopy ||
        llvm::is_contained(runtime_symbols::kEntryPoints, name))
      continue;
    // Called from this library, dlsym(RTLD_DEFAULT) searches the global
    // scope and then this library's own dependencies, however it was
    // loaded: what a call of its own would find. The JIT's search of the
    // process stops at the global scope. libnxrt's own functions are the
    // list's to bind: one missing from it fails here, as in any host that
    // binds nxrt_symbols.def, instead of working in this JIT only.
    void *address = dlsym(RTLD_DEFAULT, name.c_str());
    Dl_info info;
    if (!address || !dladdr(address, &info) || info.dli_fbase == runtimeBase)
      continue;
    bindSymbol(map, interner, name, address);
  }
  return map;
}
