//===- RuntimeSymbolMap.h - libnxrt's symbols for the JIT -------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a JIT binds by address so that compiled code links however libnxrt
// was loaded, RTLD_LOCAL included: a JIT resolves anything else in the
// process's global scope only. Pass the maps to
// ExecutionEngine::registerSymbols.
//
//===----------------------------------------------------------------------===//

#ifndef NX_RUNNER_RUNTIMESYMBOLMAP_H
#define NX_RUNNER_RUNTIMESYMBOLMAP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ExecutionEngine/Orc/CoreContainers.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::nx::runner {

/// Every libnxrt entry point compiled code may call (nxrt_symbols.def, the
/// one list of them) and MLIR's memrefCopy, bound to nxrt_memref_copy.
llvm::orc::SymbolMap runtimeSymbolMap(llvm::orc::MangleAndInterner interner);

/// The functions and variables `module` uses without defining them
/// (intrinsics aside), by name.
std::vector<std::string> getUndefinedSymbols(const llvm::Module &module);

/// The symbols among `names` (getUndefinedSymbols) that runtimeSymbolMap
/// does not bind and that code of the library holding NxRunner would
/// resolve to a library other than libnxrt: above all the OpenMP runtime's
/// __kmpc_* functions that parallel loop nests call, whose set LLVM's
/// OpenMP lowering decides. libnxrt's own functions are never bound here,
/// so that nxrt_symbols.def stays the whole list of them.
llvm::orc::SymbolMap
runtimeDependencySymbolMap(llvm::ArrayRef<std::string> names,
                           llvm::orc::MangleAndInterner interner);

} // namespace mlir::nx::runner

#endif // NX_RUNNER_RUNTIMESYMBOLMAP_H
