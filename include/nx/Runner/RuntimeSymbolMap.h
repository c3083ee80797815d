//===- RuntimeSymbolMap.h - libnxrt's symbols for the JIT -------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every libnxrt entry point compiled code may call (nxrt_symbols.def) and
// MLIR's memrefCopy (bound to nxrt_memref_copy), by address, so that a JIT
// resolves them however libnxrt was loaded (RTLD_LOCAL included). Pass it to
// ExecutionEngine::registerSymbols.
//
//===----------------------------------------------------------------------===//

#ifndef NX_RUNNER_RUNTIMESYMBOLMAP_H
#define NX_RUNNER_RUNTIMESYMBOLMAP_H

#include "llvm/ExecutionEngine/Orc/CoreContainers.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

namespace mlir::nx::runner {

llvm::orc::SymbolMap runtimeSymbolMap(llvm::orc::MangleAndInterner interner);

} // namespace mlir::nx::runner

#endif // NX_RUNNER_RUNTIMESYMBOLMAP_H
