//===- RowChains.h - a run of row-wise ops in one OpenMP team ---*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A softmax or a layer norm, decomposed and bufferized, is a run of linalg
// ops over the same rows: a maximum, an exponential, a sum, a division, with
// fills and temporary buffers between them. Shared op by op, each forks its
// own team and streams the whole matrix through the cache again. When every
// buffer the run writes is touched by each of its ops only in the rows of
// the loop they all share, the rows are independent: one team can run the
// whole run on each tile of rows, which then stays in the core's cache from
// the first op to the last.
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_LINALGTOOPENMP_ROWCHAINS_H
#define NX_CONVERSION_LINALGTOOPENMP_ROWCHAINS_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class Operation;
class RewriterBase;
namespace linalg {
class LinalgOp;
} // namespace linalg
} // namespace mlir

namespace mlir::nx {

/// What nx-linalg-to-openmp's rules for a single op say about the ops of a
/// chain.
struct RowChainRules {
  /// Whether `op` may run in a chain's tiles: an op on buffers that the
  /// pass would share along its loop 0 (parallel, of an extent other than
  /// 1), tiled along rows like any other op.
  function_ref<bool(linalg::LinalgOp op)> mayJoin;
  /// Whether the pass, op by op, would fork a team for `op` itself (rather
  /// than leave it serial or run it in a neighbour's tiles).
  function_ref<bool(linalg::LinalgOp op)> formsOwnTeam;
  /// Rows of loop 0 per tile for a chain of `ops`.
  function_ref<int64_t(ArrayRef<linalg::LinalgOp> ops)> getRowsPerTile;
};

/// Runs each chain under `root` in one team: a run of consecutive ops of a
/// block, linalg ops that `rules.mayJoin` with the same extent of loop 0
/// (equal static sizes, or dynamic ones that upstream's value bounds prove
/// equal, as the sizes of allocations made with another buffer's), between
/// which only allocations, deallocations and side-effect free ops (views,
/// constants) stand. A chain qualifies when:
///
/// - every buffer a chain op writes is a fresh allocation, and each chain
///   op that touches it indexes its dimension 0 by loop 0, through views
///   whose row r is the buffer's row r (reshapes, casts and subviews that
///   keep that dimension with all its rows; not a reinterpret_cast);
/// - every other buffer a chain op reads is a function argument, an
///   allocation or a global, none of which is a view of those;
/// - op by op, the pass would fork at least two teams for it
///   (`rules.formsOwnTeam`), and its ops cover at least `minWork` points;
///   with dynamic sizes, the team's if clause compares their points with
///   `minWork` at run time, and runs them on one thread below it.
///
/// The allocations and side-effect free ops move before the team, the
/// deallocations after it, and each tile of `rules.getRowsPerTile` rows
/// runs every op of the chain on its rows, in order. The team is sized by
/// a call of `numThreadsFunction` when it is not empty. Returns the number
/// of chains rewritten, or failure (reported at the op) when an op of a
/// chain could not be tiled.
FailureOr<int64_t> shareRowChains(Operation *root, int64_t minWork,
                                  StringRef numThreadsFunction,
                                  const RowChainRules &rules,
                                  RewriterBase &rewriter);

} // namespace mlir::nx

#endif // NX_CONVERSION_LINALGTOOPENMP_ROWCHAINS_H
