//===- HooksToIoCallback.cpp - outfeed/token hooks -> nx.io_callback ------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See the pass description in Passes.td for the accepted protocol.
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/Passes.h"
#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "nx-hooks-to-io-callback"

namespace mlir::nx {
#define GEN_PASS_DEF_NXHOOKSTOIOCALLBACKPASS
#include "nx/Conversion/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

namespace {

constexpr StringLiteral kCreateToken = "stablehlo.create_token";
constexpr StringLiteral kOutfeed = "stablehlo.outfeed";
constexpr StringLiteral kConstant = "stablehlo.constant";

/// One hook of a chain: its flag, the tensors sent with it, and the outfeed
/// sending the last of them.
struct Hook {
  uint16_t flag;
  SmallVector<Value> tensors;
  Operation *lastOutfeed;
};

} // namespace

/// The flag of `value` if it is a constant scalar ui16 (from
/// "stablehlo.constant" or arith.constant).
static std::optional<uint16_t> getFlag(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() != 0 ||
      !type.getElementType().isUnsignedInteger(16))
    return std::nullopt;
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  DenseIntElementsAttr dense;
  if (def->getName().getStringRef() == kConstant)
    dense = dyn_cast_or_null<DenseIntElementsAttr>(def->getAttr("value"));
  else
    matchPattern(value, m_Constant(&dense));
  if (!dense)
    return std::nullopt;
  return static_cast<uint16_t>((*dense.value_begin<APInt>()).getZExtValue());
}

namespace {

struct HooksToIoCallbackPass final
    : nx::impl::NxHooksToIoCallbackPassBase<HooksToIoCallbackPass> {
  void runOnOperation() final {
    SmallVector<Operation *> chains;
    getOperation().walk([&](Operation *op) {
      if (!op->isRegistered() && op->getName().getStringRef() == kCreateToken)
        chains.push_back(op);
    });
    bool failed = false;
    for (Operation *start : chains)
      failed |= mlir::failed(migrateChain(start));
    if (failed)
      signalPassFailure();
  }

private:
  /// Follows the token from `start` and collects the hooks and chain ops.
  LogicalResult analyzeChain(Operation *start, SmallVectorImpl<Hook> &hooks,
                             SmallVectorImpl<Operation *> &chainOps);
  LogicalResult migrateChain(Operation *start);
  FailureOr<FlatSymbolRefAttr> getHookCallback(Operation *at, uint16_t flag,
                                               TypeRange types);
};

} // namespace

LogicalResult
HooksToIoCallbackPass::analyzeChain(Operation *start,
                                    SmallVectorImpl<Hook> &hooks,
                                    SmallVectorImpl<Operation *> &chainOps) {
  if (start->getNumOperands() != 0 || start->getNumResults() != 1)
    return start->emitOpError() << "expects no operands and one token result";
  // The chain is erased once migrated: an op of it that ends its block (an
  // unregistered op may be the terminator) would leave the block without one.
  auto endsBlock = [](Operation *op) {
    return op == &op->getBlock()->back() &&
           op->mightHaveTrait<OpTrait::IsTerminator>();
  };
  if (endsBlock(start))
    return start->emitOpError()
           << "ends its block, so the hook chain cannot be replaced";
  chainOps.push_back(start);
  Operation *last = start;
  Value token = start->getResult(0);
  std::optional<Hook> current;
  bool closed = false;
  while (!token.use_empty()) {
    if (!token.hasOneUse()) {
      InFlightDiagnostic diag =
          last->emitOpError()
          << "produces a hook token with "
          << std::distance(token.use_begin(), token.use_end())
          << " uses; a hook chain must thread its token linearly";
      return diag;
    }
    OpOperand &use = *token.use_begin();
    Operation *user = use.getOwner();
    if (user->getName().getStringRef() != kOutfeed ||
        user->getNumResults() != 1 ||
        use.getOperandNumber() != user->getNumOperands() - 1)
      return user->emitOpError()
             << "uses a hook token; hook chains may only pass their token as "
                "the last operand of '"
             << kOutfeed << "'";
    if (user->getBlock() != start->getBlock())
      return user->emitOpError()
             << "continues a hook chain started in another block";
    if (endsBlock(user))
      return user->emitOpError()
             << "ends its block, so the hook chain cannot be replaced";
    OperandRange data = user->getOperands().drop_back();
    if (data.empty())
      return user->emitOpError() << "sends no data in a hook chain";
    if (closed)
      return user->emitOpError()
             << "sends data after the hook chain was closed by flag 0";
    // Each hook becomes an nx.callback of its tensors' types, which only
    // takes what crosses the host boundary (a static shape, a host type).
    std::optional<uint16_t> flag = getFlag(data.front());
    for (auto [index, value] : llvm::enumerate(data.drop_front(flag ? 1 : 0)))
      if (failed(verifyHostTensorType(
              [&] { return user->emitOpError(); }, value.getType(),
              "sends hook tensor #" + Twine(index) + ", which")))
        return failure();
    if (flag) {
      if (current)
        hooks.push_back(std::move(*current));
      current.reset();
      if (*flag == 0) {
        if (data.size() != 1)
          return user->emitOpError()
                 << "sends flag 0 with " << data.size() - 1
                 << " tensors; the final flag closes the chain and carries "
                    "none";
        closed = true;
      } else {
        current = Hook{*flag, llvm::to_vector(data.drop_front()), user};
      }
    } else {
      if (!current)
        return user->emitOpError()
               << "sends " << data.front().getType()
               << " before any hook flag; a hook starts with a constant "
                  "tensor<ui16> flag";
      llvm::append_range(current->tensors, data);
      current->lastOutfeed = user;
    }
    chainOps.push_back(user);
    last = user;
    token = user->getResult(0);
  }
  if (!closed)
    return last->emitOpError()
           << "ends a hook chain without the final flag 0 outfeed";
  return success();
}

FailureOr<FlatSymbolRefAttr>
HooksToIoCallbackPass::getHookCallback(Operation *at, uint16_t flag,
                                       TypeRange types) {
  ModuleOp module = getOperation();
  std::string name = "hook_" + std::to_string(flag);
  auto type = FunctionType::get(&getContext(), types, {});
  Operation *existing = SymbolTable::lookupSymbolIn(module, name);
  if (auto callback = dyn_cast_or_null<CallbackOp>(existing)) {
    if (callback.getFunctionType() != type)
      return at->emitOpError()
             << "sends hook flag " << flag << " with types " << type
             << ", but @" << name << " is declared as "
             << callback.getFunctionType();
    return FlatSymbolRefAttr::get(callback.getSymNameAttr());
  }
  if (existing)
    return at->emitOpError()
           << "needs callback @" << name << " for hook flag " << flag
           << ", but that symbol is a '" << existing->getName() << "'";
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto callback = CallbackOp::create(builder, at->getLoc(), name, type);
  return FlatSymbolRefAttr::get(callback.getSymNameAttr());
}

LogicalResult HooksToIoCallbackPass::migrateChain(Operation *start) {
  SmallVector<Hook> hooks;
  SmallVector<Operation *> chainOps;
  if (failed(analyzeChain(start, hooks, chainOps)))
    return failure();

  DominanceInfo &dominance = getAnalysis<DominanceInfo>();
  // The passthrough value that replaces each tensor after earlier hooks: a
  // later hook on the same tensor takes it, chaining the hooks by data.
  DenseMap<Value, Value> latest;
  for (Hook &hook : hooks) {
    Operation *at = hook.lastOutfeed;
    for (Value &tensor : hook.tensors)
      if (Value replacement = latest.lookup(tensor))
        tensor = replacement;
    FailureOr<FlatSymbolRefAttr> callee =
        getHookCallback(at, hook.flag, ValueRange(hook.tensors).getTypes());
    if (failed(callee))
      return failure();
    OpBuilder builder(at);
    auto call = IoCallbackOp::create(
        builder, at->getLoc(), ValueRange(hook.tensors).getTypes(), *callee,
        hook.tensors, builder.getUnitAttr(),
        /*static_args=*/DictionaryAttr(),
        /*optional=*/UnitAttr());
    // Later work reads the passthrough values, so it depends on the hook.
    for (auto [tensor, result] : llvm::zip(hook.tensors, call.getResults())) {
      for (auto &[original, current] : latest)
        if (current == tensor)
          current = result;
      latest.try_emplace(tensor, result);
      tensor.replaceUsesWithIf(result, [&](OpOperand &use) {
        Operation *user = use.getOwner();
        return user != call && !llvm::is_contained(chainOps, user) &&
               dominance.properlyDominates(call.getOperation(), user);
      });
    }
  }

  // Flag constants can feed several outfeeds: collect each once.
  llvm::SetVector<Operation *> flags;
  for (Operation *op : llvm::reverse(chainOps)) {
    for (Value operand : op->getOperands())
      if (getFlag(operand))
        flags.insert(operand.getDefiningOp());
    op->erase();
  }
  for (Operation *flag : flags)
    if (flag->use_empty())
      flag->erase();
  nx::addStatistic(numHooks, hooks.size());
  LLVM_DEBUG(llvm::dbgs() << "migrated a token chain of " << hooks.size()
                          << " hooks\n");
  return success();
}

#undef DEBUG_TYPE
