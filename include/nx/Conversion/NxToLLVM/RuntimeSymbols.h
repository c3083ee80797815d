//===- RuntimeSymbols.h - libnxrt symbols used by compiled code -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every symbol that code produced by convert-nx-to-llvm calls or defines, in
// one place; the protocol they implement is described in docs/Design.md
// ("Compiled code and the runtime"). The libnxrt functions it calls come
// from runtime/include/nxrt/nxrt_symbols.def, the one list of them that the
// JIT binds and libnxrt exports: a name below that the list lacks does not
// compile. Values of the runtime's enums come from
// runtime/include/nxrt/nxrt.h itself (a C header) so the two cannot drift
// apart.
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_NXTOLLVM_RUNTIMESYMBOLS_H
#define NX_CONVERSION_NXTOLLVM_RUNTIMESYMBOLS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::nx::runtime_symbols {

/// One constant per NXRT_SYMBOL(fn) line of nxrt_symbols.def, named and
/// valued `fn`.
namespace entry_points {
#define NXRT_SYMBOL(fn) inline constexpr llvm::StringLiteral fn = #fn;
#include "nxrt/nxrt_symbols.def"
} // namespace entry_points

/// Every libnxrt function compiled code may call, in nxrt_symbols.def's
/// order.
inline constexpr llvm::StringLiteral kEntryPoints[] = {
#define NXRT_SYMBOL(fn) entry_points::fn,
#include "nxrt/nxrt_symbols.def"
};

// Functions of libnxrt called by compiled code, by their use.
inline constexpr llvm::StringLiteral kRunCurrent =
    entry_points::nxrt_run_current;
inline constexpr llvm::StringLiteral kInvoke = entry_points::nxrt_invoke;
inline constexpr llvm::StringLiteral kRunFailed = entry_points::nxrt_run_failed;
inline constexpr llvm::StringLiteral kInvokeFailed =
    entry_points::nxrt_invoke_failed;
// Reports a heap allocation that failed: (run, bytes, "file:line:col").
inline constexpr llvm::StringLiteral kOutOfMemory =
    entry_points::nxrt_out_of_memory;
inline constexpr llvm::StringLiteral kProgramAddSites =
    entry_points::nxrt_program_add_sites;
// Contractions (nx-linalg-to-blas): C += A B on f32 / f64 buffers.
inline constexpr llvm::StringLiteral kGemmF32 = entry_points::nxrt_gemm_f32;
inline constexpr llvm::StringLiteral kGemmF64 = entry_points::nxrt_gemm_f64;
// Compiles the f32 products' kernels: __nx_init calls it when the module
// has f32 products, so that their first run does not.
inline constexpr llvm::StringLiteral kGemmPrepare =
    entry_points::nxrt_gemm_prepare;
// Maps the pages of the buffers bf16, f16 and i8 products widen their
// operands into where the CPU widens them (the dtype, A's and B's floats,
// C's elements): __nx_init calls it once per dtype, with the largest
// products of constant sizes.
inline constexpr llvm::StringLiteral kGemmPrepareWidened =
    entry_points::nxrt_gemm_prepare_widened;
// Maps the pages of the buffer f32 products copy B into with padded rows,
// on CPUs that read B in place (B's floats): __nx_init calls it with the
// largest such product of constant sizes.
inline constexpr llvm::StringLiteral kGemmPreparePadded =
    entry_points::nxrt_gemm_prepare_padded;
// Make the oneDNN kernels of a bf16 or i8 product of constant sizes and
// strides (whether it is shared among the team, then its sizes, strides
// and accumulate flag): __nx_init calls them for each such product.
inline constexpr llvm::StringLiteral kGemmPrepareBf16F32 =
    entry_points::nxrt_gemm_prepare_bf16_f32;
inline constexpr llvm::StringLiteral kGemmPrepareI8I32 =
    entry_points::nxrt_gemm_prepare_i8_i32;
// Start the compute team, and fault in the heap a run holds at once
// (bytes): __nx_init calls them, so that the first run does not.
inline constexpr llvm::StringLiteral kThreadsPrepare =
    entry_points::nxrt_threads_prepare;
inline constexpr llvm::StringLiteral kHeapPrepare =
    entry_points::nxrt_heap_prepare;
// A part of a product, one per thread of an OpenMP team.
inline constexpr llvm::StringLiteral kGemmPartF32 =
    entry_points::nxrt_gemm_part_f32;
inline constexpr llvm::StringLiteral kGemmPartF64 =
    entry_points::nxrt_gemm_part_f64;
// Products of bf16 into f32, whole or a part.
inline constexpr llvm::StringLiteral kGemmBf16F32 =
    entry_points::nxrt_gemm_bf16_f32;
inline constexpr llvm::StringLiteral kGemmPartBf16F32 =
    entry_points::nxrt_gemm_part_bf16_f32;
// Products of f16 into f32, whole or a part.
inline constexpr llvm::StringLiteral kGemmF16F32 =
    entry_points::nxrt_gemm_f16_f32;
inline constexpr llvm::StringLiteral kGemmPartF16F32 =
    entry_points::nxrt_gemm_part_f16_f32;
// Products of i8 into i32, whole or a part.
inline constexpr llvm::StringLiteral kGemmI8I32 =
    entry_points::nxrt_gemm_i8_i32;
inline constexpr llvm::StringLiteral kGemmPartI8I32 =
    entry_points::nxrt_gemm_part_i8_i32;
// A part of an f32 product, then the bias and ReLU that followed it.
inline constexpr llvm::StringLiteral kGemmPartEpilogueF32 =
    entry_points::nxrt_gemm_part_epilogue_f32;
// 2-D convolutions (nx-linalg-to-dnnl), on oneDNN.
inline constexpr llvm::StringLiteral kConv2dF32 = entry_points::nxrt_conv2d_f32;
// Makes a convolution's oneDNN kernel: __nx_init calls it for each
// convolution of constant sizes and strides, so that its first run does not.
inline constexpr llvm::StringLiteral kConv2dPrepareF32 =
    entry_points::nxrt_conv2d_prepare_f32;
// Parallel loop nests (nx-linalg-to-openmp): their team size.
inline constexpr llvm::StringLiteral kComputeThreads =
    entry_points::nxrt_compute_threads;
// MLIR's generic allocation functions, which nx-lower-to-cpu lowers heap
// allocations to and libnxrt defines (it records the buffers per run).
inline constexpr llvm::StringLiteral kGenericAlloc =
    entry_points::_mlir_memref_to_llvm_alloc;
inline constexpr llvm::StringLiteral kGenericAlignedAlloc =
    entry_points::_mlir_memref_to_llvm_aligned_alloc;
inline constexpr llvm::StringLiteral kGenericFree =
    entry_points::_mlir_memref_to_llvm_free;

// Defined by every module convert-nx-to-llvm produces:
//   nxrt_status_t *__nx_init(nxrt_program_t *program);
// The host calls it once after loading the module, before running anything;
// it resolves every call site of the module (callback and target names,
// decoded attributes) into `program`. Returns NULL on success.
/// MLIR's C runner utility that memref.copy between strided buffers lowers
/// to, and libnxrt's function of the same ABI that the JIT and ahead-of-time
/// objects bind it to (neither carries MLIR's runtime library).
inline constexpr llvm::StringLiteral kMlirMemrefCopy = "memrefCopy";
inline constexpr llvm::StringLiteral kMemrefCopy =
    entry_points::nxrt_memref_copy;

/// Prefix of the C interface MLIR's LLVM lowering gives each entry point
/// (`llvm.emit_c_interface`), which hosts call.
inline constexpr llvm::StringLiteral kCInterfacePrefix = "_mlir_ciface_";

inline constexpr llvm::StringLiteral kInitFunction = "__nx_init";

// Internal globals of those modules. Every call site has a record
// (nxrt_site_record_t followed by the site's constant bytes: dims, stream
// handle, name, location, attributes), `@__nx_site_<k>`; k only makes the
// names unique. `@__nx_sites` points to the first record of the list
// __nx_init hands to the runtime.
inline constexpr llvm::StringLiteral kSiteRecordPrefix = "__nx_site_";
inline constexpr llvm::StringLiteral kSiteList = "__nx_sites";

} // namespace mlir::nx::runtime_symbols

#endif // NX_CONVERSION_NXTOLLVM_RUNTIMESYMBOLS_H
