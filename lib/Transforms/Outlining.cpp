//===- Outlining.cpp - move a run of ops into a function ------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Transforms/Outlining.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

nx::Outlined nx::outlineIntoFunction(ArrayRef<Operation *> ops, Block &block,
                                     StringRef name, SymbolTable &symbols,
                                     Operation *functionPosition,
                                     OpBuilder &callBuilder,
                                     function_ref<Value(Value)> mapOperand) {
  MLIRContext *context = block.getParentOp()->getContext();
  DenseSet<Operation *> members(ops.begin(), ops.end());

  // Live-ins: values the ops use but do not define, each once, in order of
  // first use; uses are recorded so rewiring does not rescan use lists.
  SmallVector<Value> liveIns;
  DenseMap<Value, unsigned> liveInIndex;
  SmallVector<std::pair<OpOperand *, unsigned>> liveInUses;
  SmallVector<Operation *> constants;
  DenseMap<Operation *, unsigned> constantIndex;
  SmallVector<std::pair<OpOperand *, unsigned>> constantUses;
  for (Operation *top : ops) {
    top->walk([&](Operation *nested) {
      for (OpOperand &use : nested->getOpOperands()) {
        Value value = use.get();
        Block *owner = value.getParentBlock();
        Operation *producer = value.getDefiningOp();
        if (owner == &block) {
          if (producer && members.contains(producer))
            continue;
        } else if (top->isAncestor(owner->getParentOp())) {
          continue; // Defined inside `top`.
        }
        if (producer && isRematerializable(producer)) {
          auto [it, inserted] =
              constantIndex.try_emplace(producer, constants.size());
          if (inserted)
            constants.push_back(producer);
          constantUses.emplace_back(&use, it->second);
          continue;
        }
        auto [it, inserted] = liveInIndex.try_emplace(value, liveIns.size());
        if (inserted)
          liveIns.push_back(value);
        liveInUses.emplace_back(&use, it->second);
      }
    });
  }

  // Live-outs: results used outside the ops, each once, in op order.
  SmallVector<Value> liveOuts;
  SmallVector<std::pair<OpOperand *, unsigned>> liveOutUses;
  for (Operation *top : ops) {
    for (OpResult result : top->getResults()) {
      unsigned index = liveOuts.size();
      bool escapes = false;
      for (OpOperand &use : result.getUses()) {
        if (members.contains(block.findAncestorOpInBlock(*use.getOwner())))
          continue;
        escapes = true;
        liveOutUses.emplace_back(&use, index);
      }
      if (escapes)
        liveOuts.push_back(result);
    }
  }

  Location loc = ops.front()->getLoc();
  OpBuilder builder(context);
  auto type = FunctionType::get(context, ValueRange(liveIns).getTypes(),
                                ValueRange(liveOuts).getTypes());
  auto function = func::FuncOp::create(builder, loc, name, type);
  function.setPrivate();
  symbols.insert(function, std::next(Block::iterator(functionPosition)));

  Block *body = function.addEntryBlock();
  builder.setInsertionPointToStart(body);
  SmallVector<Operation *> clones;
  for (Operation *constant : constants)
    clones.push_back(builder.clone(*constant));
  for (auto [use, index] : constantUses)
    use->set(
        clones[index]->getResult(cast<OpResult>(use->get()).getResultNumber()));
  for (Operation *op : ops)
    op->moveBefore(body, body->end());
  for (auto [use, index] : liveInUses)
    use->set(body->getArgument(index));
  builder.setInsertionPointToEnd(body);
  func::ReturnOp::create(builder, loc, liveOuts);

  SmallVector<Value> operands;
  operands.reserve(liveIns.size());
  for (Value value : liveIns)
    operands.push_back(mapOperand(value));
  auto call = func::CallOp::create(callBuilder, loc, function, operands);
  for (auto [use, index] : liveOutUses)
    use->set(call.getResult(index));
  return {function, call};
}
