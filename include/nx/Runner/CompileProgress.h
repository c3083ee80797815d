//===- CompileProgress.h - Compile phases shown as they start ---*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_RUNNER_COMPILEPROGRESS_H
#define NX_RUNNER_COMPILEPROGRESS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::nx::runner {

/// When the compilers (nx-runner, nx-compile) show which phase they are in.
enum class ProgressMode {
  /// On a terminal: one status line, rewritten as each phase starts and
  /// erased when the compile ends, so that a long compile does not look
  /// hung and a short one leaves nothing behind.
  Auto,
  /// Always, as one "<tool>: <phase>" line per phase when the stream is not
  /// a terminal (for logs and tests).
  Always,
  Never,
};

/// Shows a compile's phases (parse, nx-lower-to-cpu, translation, LLVM
/// optimization, code generation, load, link) as they start.
class CompileProgress {
public:
  CompileProgress(llvm::StringRef tool, ProgressMode mode,
                  llvm::raw_fd_ostream &os = llvm::errs());
  ~CompileProgress() { finish(); }
  CompileProgress(const CompileProgress &) = delete;
  CompileProgress &operator=(const CompileProgress &) = delete;

  /// Phase `name` starts.
  void phase(llvm::StringRef name);
  /// The compile ended: erases the status line (call it before printing
  /// anything else to the stream).
  void finish();

private:
  std::string tool;
  llvm::raw_fd_ostream &os;
  bool enabled;
  /// A terminal: the status line is rewritten in place.
  bool inPlace;
  bool lineShown = false;
};

} // namespace mlir::nx::runner

#endif // NX_RUNNER_COMPILEPROGRESS_H
