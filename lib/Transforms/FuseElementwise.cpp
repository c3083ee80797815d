//===- FuseElementwise.cpp - elementwise tensor op trees to linalg --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Groups are formed bottom-up so that each op is visited once and cloned
// once: an op whose users all belong to one group is computed inside that
// group's body, anything else roots a group of its own. Upstream fusion
// merges one producer at a time instead, re-cloning the accumulated body at
// every step.
//
//===----------------------------------------------------------------------===//

#include "nx/Support/PassStatistics.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"

#define DEBUG_TYPE "nx-fuse-elementwise"

namespace mlir::nx {
#define GEN_PASS_DEF_NXFUSEELEMENTWISEPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;

/// The tensor type every operand and result of `op` shares the shape of, if
/// `op` can be computed elementwise inside a linalg.generic body.
static RankedTensorType getEligibleShape(Operation *op) {
  if (!op->hasTrait<OpTrait::Elementwise>() ||
      !op->hasTrait<OpTrait::Tensorizable>() || op->getNumResults() != 1 ||
      op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return nullptr;
  auto shapeType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!shapeType || !shapeType.hasStaticShape())
    return nullptr;
  auto matches = [&](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && !tensor.getEncoding() &&
           tensor.getShape() == shapeType.getShape() &&
           tensor.getElementType().isIntOrIndexOrFloat();
  };
  if (!llvm::all_of(op->getOperandTypes(), matches) ||
      !llvm::all_of(op->getResultTypes(), matches))
    return nullptr;
  return shapeType;
}

namespace {

/// Ops of one group: the root (whose result leaves the group) first, then
/// the others in reverse program order.
using Group = SmallVector<Operation *>;

} // namespace

static SmallVector<Group> formGroups(Block &block) {
  SmallVector<Group> groups;
  llvm::DenseMap<Operation *, unsigned> groupOf;
  for (Operation &op : llvm::reverse(block)) {
    if (!getEligibleShape(&op))
      continue;
    std::optional<unsigned> shared;
    bool joins = !op.use_empty();
    for (Operation *user : op.getUsers()) {
      auto it = groupOf.find(user);
      if (it == groupOf.end() || (shared && *shared != it->second)) {
        joins = false;
        break;
      }
      shared = it->second;
    }
    if (joins) {
      groupOf[&op] = *shared;
      groups[*shared].push_back(&op);
    } else {
      groupOf[&op] = groups.size();
      groups.push_back({&op});
    }
  }
  return groups;
}

static void rewriteGroup(const Group &group) {
  Operation *root = group.front();
  auto shapeType = getEligibleShape(root);
  llvm::SmallPtrSet<Operation *, 16> members(group.begin(), group.end());

  SmallVector<Value> inputs;
  llvm::DenseMap<Value, unsigned> inputIndex;
  for (Operation *op : llvm::reverse(group))
    for (Value operand : op->getOperands())
      if (!members.contains(operand.getDefiningOp()) &&
          inputIndex.try_emplace(operand, inputs.size()).second)
        inputs.push_back(operand);

  OpBuilder builder(root);
  Location loc = root->getLoc();
  Value init = tensor::EmptyOp::create(builder, loc, shapeType.getShape(),
                                       shapeType.getElementType());
  SmallVector<AffineMap> maps(
      inputs.size() + 1, builder.getMultiDimIdentityMap(shapeType.getRank()));
  SmallVector<utils::IteratorType> iterators(shapeType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      builder, loc, shapeType, inputs, init, maps, iterators,
      [&](OpBuilder &body, Location, ValueRange args) {
        IRMapping mapping;
        for (auto [input, arg] : llvm::zip(inputs, args))
          mapping.map(input, arg);
        // Clones keep each op's attributes and properties; only the result
        // type changes, from the tensor to its element type.
        for (Operation *op : llvm::reverse(group)) {
          Operation *scalar = body.clone(*op, mapping);
          Value result = scalar->getResult(0);
          result.setType(getElementTypeOrSelf(result.getType()));
        }
        linalg::YieldOp::create(body, loc, mapping.lookup(root->getResult(0)));
      });
  root->getResult(0).replaceAllUsesWith(generic.getResult(0));
  // Users come before their producers in `group`.
  for (Operation *op : group)
    op->erase();
}

namespace {

struct NxFuseElementwisePass final
    : nx::impl::NxFuseElementwisePassBase<NxFuseElementwisePass> {
  void runOnOperation() final {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      for (const Group &group : formGroups(*block))
        rewriteGroup(group);
  }
};

} // namespace

#undef DEBUG_TYPE
