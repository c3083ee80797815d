//===- AotCompiler.h - ahead-of-time compilation of nx programs -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The library behind `nx-compile`: lowers a module with nx-lower-to-cpu, as
// the JIT of nx-runner does, and generates a relocatable object for a given
// CPU instead of JIT code. The object follows nxrt/nxrt_aot.h: every global
// symbol carries a prefix (P_<entry>, P_nx_init, P_program), everything
// else is internal, so several programs and a host with its own `main` link
// together.
//
//   AotOptions options;
//   options.prefix = "model";
//   auto object = compileAot(module, options);       // object->objectFile
//   std::string header = emitCHeader(*object, options.prefix);
//
//===----------------------------------------------------------------------===//

#ifndef NX_AOT_AOTCOMPILER_H
#define NX_AOT_AOTCOMPILER_H

#include "nx/Runner/Runner.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::nx::aot {

struct AotOptions {
  /// Prefix of every exported symbol: a C identifier.
  std::string prefix;
  /// The pipeline's options and the optimization level (CompileOptions's
  /// optLevel, lowering flags and timing; separateStages is not supported).
  runner::CompileOptions compile;
  /// LLVM CPU name to generate code for ("native": this machine's CPU and
  /// features, as the JIT does).
  std::string cpu = "native";
};

/// What compileAot produced.
struct AotObject {
  /// The relocatable object (ELF), position-independent.
  std::string objectFile;
  /// The entry points the object describes in P_program, in module order.
  std::vector<nxhost::EntrySignature> entries;
  /// Public functions left out of P_program (non-tensor signatures): still
  /// exported as P_<name>, with the reason in EntrySignature::unsupported.
  std::vector<nxhost::EntrySignature> unsupported;
  /// Whether the code calls LLVM's OpenMP runtime (parallel loop nests): the
  /// shared object must then depend on libomp.
  bool usesOpenMP = false;
};

/// Whether `prefix` can prefix C symbols: [A-Za-z_][A-Za-z0-9_]*.
bool isValidPrefix(llvm::StringRef prefix);

/// Lowers a copy of `module` (left untouched) and generates an object.
llvm::Expected<AotObject> compileAot(ModuleOp module,
                                     const AotOptions &options);

/// A C header declaring what the object exports: a typed memref descriptor
/// struct per element type and rank, the C interface of every entry point,
/// P_nx_init and P_program.
std::string emitCHeader(const AotObject &object, llvm::StringRef prefix);

} // namespace mlir::nx::aot

#endif // NX_AOT_AOTCOMPILER_H
