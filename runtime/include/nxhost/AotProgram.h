//===- AotProgram.h - load an ahead-of-time compiled object -----*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Loads a shared object written by nx-compile (see nxrt/nxrt_aot.h): finds
// its `<prefix>_program` descriptor, checks its ABI and API versions against
// this host and the loaded libnxrt, then (initialize) registers its call
// sites (`<prefix>_nx_init`) into a new program of the given runtime, and
// calls its entry points through callEntry. Needs no LLVM or MLIR at run time.
//
//===----------------------------------------------------------------------===//

#ifndef NXHOST_AOTPROGRAM_H
#define NXHOST_AOTPROGRAM_H

#include "nxhost/EntryCall.h"

#include "nxrt/nxrt_aot.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace nxhost {

class AotProgram {
public:
  /// The symbol prefix nx-compile uses by default for `path`: its file name
  /// stem ("out/my-net.so" -> "my-net", "a.b.so" -> "a.b"),
  /// every character that cannot appear in a C identifier replaced by '_'
  /// ("my_net"), and a leading '_' added when it starts with a digit.
  static std::string defaultPrefix(llvm::StringRef path);

  /// dlopens `path` (RTLD_LOCAL) and reads the program its
  /// `<prefix>_program` describes, for a new nxrt program of `runtime`,
  /// which must outlive the AotProgram. Errors name the file, the symbol
  /// tried and, for a version mismatch, both versions.
  static llvm::Expected<std::unique_ptr<AotProgram>>
  load(llvm::StringRef path, llvm::StringRef prefix, nxrt_runtime_t *runtime);

  /// Registers the call sites (`<prefix>_nx_init`); once, before the first
  /// run (separate from load so that hosts can time or order it).
  llvm::Error initialize();

  ~AotProgram();
  AotProgram(const AotProgram &) = delete;
  AotProgram &operator=(const AotProgram &) = delete;

  /// The entry points, in the object's order.
  llvm::ArrayRef<EntrySignature> entries() const { return entrySignatures; }
  /// The nx.callback declarations' names.
  llvm::ArrayRef<std::string> callbackNames() const { return callbacks; }
  nxrt_program_t *program() const { return programHandle; }

  /// Runs `entry` on `inputs` (see callEntry) once initialized.
  /// Thread-safe.
  llvm::Expected<std::vector<HostTensor>>
  run(llvm::StringRef entry, llvm::ArrayRef<HostTensor> inputs,
      const RunOptions &options = {}) const;

private:
  AotProgram() = default;
  void *handle = nullptr;
  nxrt_runtime_t *runtime = nullptr;
  nxrt_program_t *programHandle = nullptr;
  std::vector<EntrySignature> entrySignatures;
  std::vector<PackedEntryFn> packed;
  std::vector<std::string> callbacks;
  nxrt_status_t *(*init)(nxrt_program_t *) = nullptr;
  bool initialized = false;
  std::string path, initSymbol;
};

} // namespace nxhost

#endif // NXHOST_AOTPROGRAM_H
