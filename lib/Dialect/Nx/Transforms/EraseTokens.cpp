//===- EraseTokens.cpp - drop !nx.token from function signatures ----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Tokens carry no data; on the CPU, compiled code runs its effects in
// program order, so a token passed into or out of a function has nothing
// left to order. Dropping them from signatures lets programs imported from
// JAX (whose entry functions take and return the ordered-effects token) be
// compiled and called with their data only.
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/BitVector.h"

#define DEBUG_TYPE "nx-erase-tokens"

namespace mlir::nx {
#define GEN_PASS_DEF_NXERASETOKENSPASS
#include "nx/Dialect/Nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

static llvm::BitVector tokenPositions(TypeRange types) {
  llvm::BitVector positions(types.size());
  for (auto [index, type] : llvm::enumerate(types))
    if (isa<TokenType>(type))
      positions.set(index);
  return positions;
}

/// A fresh token where a dropped one was used.
static Value createToken(OpBuilder &builder, Location loc) {
  return CreateTokenOp::create(builder, loc,
                               TokenType::get(builder.getContext()));
}

/// Drops the token arguments and results of `func` and of its calls.
/// Returns whether there were any. A function used other than by func.call
/// (a `func.constant`, say) is an error: its users would break, and
/// lowering would leave them pointing at a function it cannot convert.
static FailureOr<bool> eraseTokens(func::FuncOp func, ModuleOp module) {
  FunctionType type = func.getFunctionType();
  llvm::BitVector args = tokenPositions(type.getInputs());
  llvm::BitVector results = tokenPositions(type.getResults());
  if (args.none() && results.none())
    return false;
  SmallVector<func::CallOp> calls;
  std::optional<SymbolTable::UseRange> uses = func.getSymbolUses(module);
  if (!uses)
    return func.emitOpError()
           << "has !nx.token arguments or results, and its uses cannot be "
              "found to drop them";
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = dyn_cast<func::CallOp>(use.getUser());
    if (!call)
      return func.emitOpError()
             << "has !nx.token arguments or results, which cannot be "
                "dropped: it is used by '"
             << use.getUser()->getName() << "', not only by func.call";
    calls.push_back(call);
  }

  if (!func.isExternal()) {
    Block &entry = func.getBody().front();
    OpBuilder builder = OpBuilder::atBlockBegin(&entry);
    for (unsigned index : args.set_bits()) {
      BlockArgument arg = entry.getArgument(index);
      if (!arg.use_empty())
        arg.replaceAllUsesWith(createToken(builder, arg.getLoc()));
    }
    func.walk([&](func::ReturnOp ret) {
      SmallVector<Value> kept;
      for (auto [index, operand] : llvm::enumerate(ret.getOperands()))
        if (!results.test(index))
          kept.push_back(operand);
      ret->setOperands(kept);
    });
  }
  if (failed(func.eraseArguments(args)) || failed(func.eraseResults(results)))
    return func.emitOpError() << "cannot drop its !nx.token arguments or "
                                 "results";

  for (func::CallOp call : calls) {
    OpBuilder builder(call);
    SmallVector<Value> operands;
    for (auto [index, operand] : llvm::enumerate(call.getOperands()))
      if (!args.test(index))
        operands.push_back(operand);
    auto replacement =
        func::CallOp::create(builder, call.getLoc(), func, operands);
    replacement->setDiscardableAttrs(call->getDiscardableAttrDictionary());
    unsigned next = 0;
    for (auto [index, result] : llvm::enumerate(call.getResults())) {
      if (results.test(index))
        result.replaceAllUsesWith(createToken(builder, call.getLoc()));
      else
        result.replaceAllUsesWith(replacement.getResult(next++));
    }
    call.erase();
  }
  return true;
}

namespace {

struct EraseTokensPass final
    : nx::impl::NxEraseTokensPassBase<EraseTokensPass> {
  void runOnOperation() final {
    ModuleOp module = getOperation();
    for (auto func :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      FailureOr<bool> erased = eraseTokens(func, module);
      if (failed(erased))
        return signalPassFailure();
      if (*erased)
        nx::addStatistic(numFunctions);
    }
  }
};

} // namespace

#undef DEBUG_TYPE
