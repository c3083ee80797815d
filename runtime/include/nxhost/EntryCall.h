//===- EntryCall.h - call a compiled entry point ----------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Both runners call compiled entry points the same way, through MLIR's
// packed C interface: a JIT'd `_mlir_ciface_<entry>` (nx-runner) or an
// ahead-of-time object's nxrt_aot_entry_t::packed (nxrt-run). callEntry
// checks the inputs against the signature, passes copies of them as memref
// descriptors within an nxrt run, copies the results into host tensors and
// frees the buffers compiled code returned.
//
//===----------------------------------------------------------------------===//

#ifndef NXHOST_ENTRYCALL_H
#define NXHOST_ENTRYCALL_H

#include "nxhost/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace nxhost {

struct RunOptions {
  /// Deadline for the whole run in ms (<= 0: none).
  int64_t timeoutMs = 0;
  /// When set, receives the seconds the compiled entry itself ran (from
  /// nxrt_run_begin to nxrt_run_end): what a host that owns its buffers
  /// waits for, without the copies of inputs and results around it.
  double *entrySeconds = nullptr;
  /// When set, receives the page faults the process took while the entry
  /// ran (the whole process's: other threads' too): a first run that
  /// faults in its buffers' pages shows here.
  int64_t *entryPageFaults = nullptr;
  /// The entry reads the caller's tensors in place instead of copies of
  /// them, as a host that holds its buffers calls it. Only for programs
  /// that do not write their arguments: the caller checks that they did not.
  bool reuseInputs = false;
};

/// The host-visible type of an entry argument or result.
struct TensorSpec {
  nxrt_dtype_t dtype = NXRT_DTYPE_INVALID;
  /// A negative dim (MLIR's ShapedType::kDynamic, nxrt_aot.h's -1) is
  /// dynamic: any size matches it.
  llvm::SmallVector<int64_t, 4> shape;
  std::string type; // "tensor<4xf32>"
};

struct EntrySignature {
  std::string name;
  std::vector<TensorSpec> args, results;
  /// Set when the function cannot be called by the runner (non-tensor
  /// arguments, unsupported element types): the reason.
  std::string unsupported;
};

/// The packed C interface of an entry point: `args[0]` points to a `void *`
/// holding the results' descriptor (only when it has results), then one
/// `void *` per argument descriptor.
using PackedEntryFn = void (*)(void **args);

/// Runs `fn`, whose signature is `signature`, on copies of `inputs` (compiled
/// code may update its arguments in place) within a run of `runtime`
/// (nxrt_run_begin on the calling thread, nxrt_run_end). Errors: a signature
/// that is unsupported, a wrong argument count or type, and a failed run
/// (its message). Thread-safe as far as `fn` is.
llvm::Expected<std::vector<HostTensor>>
callEntry(const EntrySignature &signature, PackedEntryFn fn,
          llvm::ArrayRef<HostTensor> inputs, nxrt_runtime_t *runtime,
          const RunOptions &options = {});

/// Whether `inputs` fit `signature`, as callEntry checks before a run: an
/// unsupported signature, a wrong argument count or type is an error.
llvm::Error checkEntryInputs(const EntrySignature &signature,
                             llvm::ArrayRef<HostTensor> inputs);

/// "no public function @name in the program (available: @a, @b)".
llvm::Error noSuchEntryError(llvm::StringRef name,
                             llvm::ArrayRef<EntrySignature> entries);

} // namespace nxhost

#endif // NXHOST_ENTRYCALL_H
