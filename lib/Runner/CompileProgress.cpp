//===- CompileProgress.cpp - Compile phases shown as they start -----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Runner/CompileProgress.h"

using namespace mlir::nx::runner;

// Carriage return, then "erase to the end of the line" (ECMA-48 EL).
static constexpr llvm::StringLiteral kClearLine = "\r\x1b[K";

CompileProgress::CompileProgress(llvm::StringRef tool, ProgressMode mode,
                                 llvm::raw_fd_ostream &os)
    : tool(tool.str()), os(os) {
  bool terminal = os.is_displayed();
  enabled =
      mode == ProgressMode::Always || (mode == ProgressMode::Auto && terminal);
  inPlace = enabled && terminal;
}

void CompileProgress::phase(llvm::StringRef name) {
  if (!enabled)
    return;
  if (inPlace) {
    os << kClearLine << tool << ": " << name << "...";
    lineShown = true;
  } else {
    os << tool << ": " << name << "\n";
  }
  os.flush();
}

void CompileProgress::finish() {
  if (!lineShown)
    return;
  os << kClearLine;
  os.flush();
  lineShown = false;
}
