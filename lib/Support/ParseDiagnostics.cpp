//===- ParseDiagnostics.cpp - parse errors worded for tools without flags -===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Support/ParseDiagnostics.h"

#include "llvm/ADT/Twine.h"

std::string mlir::nx::rewordParseDiagnostic(llvm::StringRef message,
                                            llvm::StringRef tool) {
  static constexpr llvm::StringLiteral kAdvice =
      ". If this is intended, please use -allow-unregistered-dialect with the "
      "MLIR tool used";
  size_t at = message.find(kAdvice);
  if (at == llvm::StringRef::npos)
    return message.str();
  return (llvm::Twine(message.take_front(at)) + " (" + tool +
          " knows upstream MLIR's dialects and nx's, and compiles no other)" +
          message.drop_front(at + kAdvice.size()))
      .str();
}
