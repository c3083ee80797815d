//===- RuntimeSymbols.h - libnxrt symbols used by compiled code -*- C++ -*-===//
//
// Every symbol that code produced by convert-nx-to-llvm calls or defines, in
// one place; the protocol they implement is described in docs/Design.md
// ("Compiled code and the runtime"). Values of the runtime's enums come from
// include/nxrt/nxrt.h itself (a C header) so the two cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_NXTOLLVM_RUNTIMESYMBOLS_H
#define NX_CONVERSION_NXTOLLVM_RUNTIMESYMBOLS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::nx::runtime_symbols {

// Functions of libnxrt called by compiled code.
inline constexpr llvm::StringLiteral kRunCurrent = "nxrt_run_current";
inline constexpr llvm::StringLiteral kInvoke = "nxrt_invoke";
inline constexpr llvm::StringLiteral kRunFailed = "nxrt_run_failed";
inline constexpr llvm::StringLiteral kInvokeFailed = "nxrt_invoke_failed";
inline constexpr llvm::StringLiteral kProgramAddSite = "nxrt_program_add_site";
// MLIR's generic allocation functions, which nx-lower-to-cpu lowers heap
// allocations to and libnxrt defines (it records the buffers per run).
inline constexpr llvm::StringLiteral kGenericAlloc =
    "_mlir_memref_to_llvm_alloc";
inline constexpr llvm::StringLiteral kGenericAlignedAlloc =
    "_mlir_memref_to_llvm_aligned_alloc";
inline constexpr llvm::StringLiteral kGenericFree = "_mlir_memref_to_llvm_free";

// Defined by every module convert-nx-to-llvm produces:
//   nxrt_status_t *__nx_init(nxrt_program_t *program);
// The host calls it once after loading the module, before running anything;
// it resolves every call site of the module (callback and target names,
// decoded attributes) into `program`. Returns NULL on success.
inline constexpr llvm::StringLiteral kInitFunction = "__nx_init";

// Internal globals of those modules: the sites __nx_init adds, in program
// order (what compiled code passes to nxrt_invoke), and the table and
// string blob it adds them from.
inline constexpr llvm::StringLiteral kSiteSlots = "__nx_sites";
inline constexpr llvm::StringLiteral kSiteTable = "__nx_site_table";
inline constexpr llvm::StringLiteral kSiteStrings = "__nx_site_strings";

} // namespace mlir::nx::runtime_symbols

#endif // NX_CONVERSION_NXTOLLVM_RUNTIMESYMBOLS_H
