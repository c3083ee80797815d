//===- ParseDiagnostics.h - parse errors for tools --------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MLIR's parser suggests -allow-unregistered-dialect for an op of a dialect
// the context does not know: advice for mlir-opt, wrong for nx-runner,
// nxrt-run's compilers and nx-compile, which have no such flag and run only
// what they can lower.
//
//===----------------------------------------------------------------------===//

#ifndef NX_SUPPORT_PARSEDIAGNOSTICS_H
#define NX_SUPPORT_PARSEDIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::nx {

/// `message` with MLIR's -allow-unregistered-dialect advice replaced by what
/// `tool` can do about it; any other message as it is.
std::string rewordParseDiagnostic(llvm::StringRef message,
                                  llvm::StringRef tool);

} // namespace mlir::nx

#endif // NX_SUPPORT_PARSEDIAGNOSTICS_H
