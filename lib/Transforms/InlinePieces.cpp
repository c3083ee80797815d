//===- InlinePieces.cpp - inline nx-split-functions pieces back -----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nx-inline-pieces: moves the body of every function nx-split-functions
// outlined (marked `nx.piece`) back in place of its call. See the pass
// description in Passes.td.
//
// Cost: one walk of the module to find the calls, and each piece's ops are
// spliced once, so the pass is linear in the size of the module.
//
//===----------------------------------------------------------------------===//

#include "nx/Support/PassStatistics.h"
#include "nx/Support/PieceMarker.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

#define DEBUG_TYPE "nx-inline-pieces"

namespace mlir::nx {
#define GEN_PASS_DEF_NXINLINEPIECESPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

/// Replaces `call` by the body of `piece`, moved. The call's operand types
/// are the piece's argument types (func.call verifies it), and the body is
/// one block ending in `ret`.
static void inlineCall(func::CallOp call, func::FuncOp piece,
                       func::ReturnOp ret) {
  Block &body = piece.getBody().front();
  for (auto [argument, operand] :
       llvm::zip_equal(body.getArguments(), call.getOperands()))
    argument.replaceAllUsesWith(operand);
  call->replaceAllUsesWith(ret.getOperands());
  call->getBlock()->getOperations().splice(Block::iterator(call),
                                           body.getOperations(), body.begin(),
                                           Block::iterator(ret));
  call.erase();
}

namespace {

struct NxInlinePiecesPass final
    : nx::impl::NxInlinePiecesPassBase<NxInlinePiecesPass> {
  void runOnOperation() final {
    ModuleOp module = getOperation();
    // In module order, so diagnostics are deterministic.
    SmallVector<func::FuncOp> ordered;
    DenseMap<StringAttr, func::FuncOp> pieces;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function->hasAttr(kPieceAttrName)) {
        ordered.push_back(function);
        pieces[function.getSymNameAttr()] = function;
      }
    }
    if (pieces.empty())
      return;

    DenseMap<Operation *, SmallVector<func::CallOp>> calls;
    module.walk([&](func::CallOp call) {
      if (func::FuncOp piece = pieces.lookup(call.getCalleeAttr().getAttr()))
        calls[piece].push_back(call);
    });

    // Splicing moves the calls a piece makes (to other pieces, should a
    // split function be split again) along with its body, so the order in
    // which pieces are inlined does not matter.
    SmallVector<std::tuple<func::CallOp, func::FuncOp, func::ReturnOp>> plan;
    for (func::FuncOp piece : ordered) {
      SmallVector<func::CallOp> &sites = calls[piece];
      if (sites.size() != 1) {
        piece.emitOpError() << "is a piece ('" << kPieceAttrName
                            << "') and must be called exactly once, got "
                            << sites.size() << " calls";
        return signalPassFailure();
      }
      if (!piece.getBody().hasOneBlock()) {
        piece.emitOpError() << "is a piece ('" << kPieceAttrName
                            << "') and must have one block, got "
                            << piece.getBody().getBlocks().size();
        return signalPassFailure();
      }
      auto ret = dyn_cast<func::ReturnOp>(piece.getBody().front().back());
      if (!ret) {
        piece.emitOpError() << "is a piece ('" << kPieceAttrName
                            << "') and must end in 'func.return'";
        return signalPassFailure();
      }
      plan.emplace_back(sites.front(), piece, ret);
    }
    // A piece called from itself, directly or through other pieces, has no
    // place to be inlined into.
    for (func::FuncOp piece : ordered) {
      func::FuncOp caller = piece;
      for (size_t depth = 0; depth <= pieces.size(); ++depth) {
        caller = calls[caller].front()->getParentOfType<func::FuncOp>();
        if (!caller || !pieces.count(caller.getSymNameAttr()))
          break;
        if (caller == piece) {
          piece.emitOpError()
              << "is a piece ('" << kPieceAttrName
              << "') and is called from itself, so it cannot be inlined";
          return signalPassFailure();
        }
      }
    }
    for (auto [call, piece, ret] : plan)
      inlineCall(call, piece, ret);
    nx::addStatistic(numInlined);
    for (func::FuncOp piece : ordered)
      piece.erase();
  }
};

} // namespace

#undef DEBUG_TYPE
