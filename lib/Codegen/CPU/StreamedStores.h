//===- StreamedStores.h - non-temporal writes of unread outputs -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A large output that the program only returns (a transpose's, a
// concatenation's) is written once and not read again while it runs.
// Ordinary stores first read each of its cache lines (read for ownership),
// a third of a copy's memory traffic, and evict the input the next tiles
// read. Non-temporal stores of whole, aligned lines write it straight to
// memory instead: x86's MOVNT, which LLVM emits for `!nontemporal` stores
// of aligned vectors.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CODEGEN_CPU_STREAMEDSTORES_H
#define NX_LIB_CODEGEN_CPU_STREAMEDSTORES_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::nx {

/// Outputs smaller than this are written with ordinary stores: a caller may
/// read them from the cache right after the call. It is the size from which
/// libnxrt asks for huge pages too, twice a 2 MiB page.
inline constexpr int64_t kStreamedOutputBytes = int64_t{4} << 20;

/// Replaces every in-bounds `vector.transfer_write` of a 1-D or 2-D vector
/// under `root` by one non-temporal, aligned `vector.store` per row, where it
/// writes an output nothing reads: a `memref.alloc` of a public function,
/// of at least kStreamedOutputBytes, aligned to a vector row, whose other
/// uses (through views) only write, return or free it; and at a column
/// that is provably a multiple of the vector's row. Each thread's loop
/// nest that streamed then ends with `llvm.fence seq_cst`. Returns how
/// many writes it replaced.
int64_t streamUnreadOutputWrites(RewriterBase &rewriter, Operation *root);

} // namespace mlir::nx

#endif // NX_LIB_CODEGEN_CPU_STREAMEDSTORES_H
