//===- FusedNeighbors.cpp - ops a oneDNN convolution call absorbs ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FusedNeighbors.h"

#include "nx/Conversion/LinalgToBlas/Epilogue.h"
#include "nx/Support/Buffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using mlir::nx::getRootBuffer;

namespace {

/// Whether `op` sets every element of `buffer` to +0.0 and does nothing
/// else: a `linalg.fill`, or the input-less `linalg.map` (or generic) a
/// bufferized `tensor.pad` fills its buffer with.
bool isZeroFillOf(Operation *op, Value buffer) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getOutputs().front() == buffer &&
           nx::isPositiveZeroConstant(fill.getInputs().front());
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumDpsInputs() != 0 ||
      linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getDpsInitOperand(0)->get() != buffer ||
      linalgOp.getNumReductionLoops() != 0 ||
      !linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0))
           .isIdentity())
    return false;
  Block *body = linalgOp.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  return body->getOperations().size() == 1 && yield.getNumOperands() == 1 &&
         nx::isPositiveZeroConstant(yield.getOperand(0));
}

/// Whether nothing `op` does can write the memory of `source`, a buffer
/// allocated before `copy`: its writes all go to buffers allocated after
/// `copy`. Deallocations of `source` are added to `earlyDeallocs`.
bool leavesSourceAlone(Operation *op, Value source, Operation *copy,
                       SmallVectorImpl<memref::DeallocOp> &earlyDeallocs) {
  if (isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &effect : instances) {
    if (isa<MemoryEffects::Allocate, MemoryEffects::Read>(effect.getEffect()))
      continue;
    Value target = effect.getValue();
    if (!target)
      return false;
    if (isa<MemoryEffects::Free>(effect.getEffect())) {
      if (target != source)
        continue;
      auto dealloc = dyn_cast<memref::DeallocOp>(op);
      if (!dealloc)
        return false;
      earlyDeallocs.push_back(dealloc);
      continue;
    }
    // A write: only into a buffer allocated after the copy, which cannot
    // be `source`'s memory.
    auto alloc = getRootBuffer(target).getDefiningOp<memref::AllocOp>();
    if (!alloc || alloc->getBlock() != copy->getBlock() ||
        !copy->isBeforeInBlock(alloc))
      return false;
  }
  return true;
}

} // namespace

linalg::FillOp nx::dnnl::findZeroFill(linalg::LinalgOp op) {
  Value output = op->getOperand(2);
  // A 1-D convolution's output is a reshape of the whole allocation (a unit
  // height inserted), and so is a 3-D one's plane by plane (batch and depth
  // as one): anything else that uses the allocation between the fill and
  // `op` counts as a use of the output.
  Value allocated = output;
  if (auto expand = output.getDefiningOp<memref::ExpandShapeOp>())
    allocated = expand.getSrc();
  if (auto collapse = output.getDefiningOp<memref::CollapseShapeOp>())
    allocated = collapse.getSrc();
  if (!allocated.getDefiningOp<memref::AllocOp>())
    return nullptr;
  if (allocated != output)
    for (Operation *user : allocated.getUsers())
      if (user != output.getDefiningOp() &&
          (user->getBlock() != op->getBlock() || user->isBeforeInBlock(op)))
        return nullptr;
  Block *block = op->getBlock();
  // The last fill of the whole output before `op`, in `op`'s block.
  linalg::FillOp fill;
  for (Operation *user : output.getUsers()) {
    // A use in another block cannot be ordered against `op`.
    if (!block->findAncestorOpInBlock(*user))
      return nullptr;
    auto candidate = dyn_cast<linalg::FillOp>(user);
    if (candidate && candidate->getBlock() == block &&
        candidate.getOutputs().front() == output &&
        candidate->isBeforeInBlock(op) &&
        (!fill || fill->isBeforeInBlock(candidate)))
      fill = candidate;
  }
  if (!fill)
    return nullptr;
  for (Operation *user : output.getUsers()) {
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    if (inBlock == op.getOperation() || inBlock == fill.getOperation())
      continue;
    if (fill->isBeforeInBlock(inBlock) && inBlock->isBeforeInBlock(op))
      return nullptr;
  }
  if (!isZeroFillOf(fill, output))
    return nullptr;
  return fill;
}

std::optional<nx::dnnl::ZeroPad>
nx::dnnl::findZeroPad(linalg::LinalgOp op, int rowDim, int columnDim) {
  Value padded = op->getOperand(0);
  auto alloc = padded.getDefiningOp<memref::AllocOp>();
  if (!alloc || op->getOperand(1) == padded || op->getOperand(2) == padded)
    return std::nullopt;
  Block *block = op->getBlock();
  Operation *fill = nullptr;
  memref::SubViewOp interior;
  SmallVector<Operation *> deallocs;
  for (Operation *user : padded.getUsers()) {
    if (user == op.getOperation())
      continue;
    if (isa<memref::DeallocOp>(user)) {
      deallocs.push_back(user);
      continue;
    }
    if (user->getBlock() != block)
      return std::nullopt;
    if (!fill && isZeroFillOf(user, padded)) {
      fill = user;
      continue;
    }
    auto subview = dyn_cast<memref::SubViewOp>(user);
    if (!subview || interior)
      return std::nullopt;
    interior = subview;
  }
  if (!fill || !interior || !interior->hasOneUse())
    return std::nullopt;
  auto copy = dyn_cast<memref::CopyOp>(*interior->user_begin());
  if (!copy || copy.getTarget() != interior.getResult() ||
      copy->getBlock() != block || !fill->isBeforeInBlock(copy) ||
      !copy->isBeforeInBlock(op))
    return std::nullopt;

  // The interior is the whole buffer but for rows and columns.
  MemRefType paddedType = alloc.getType();
  auto interiorType = cast<MemRefType>(interior.getType());
  if (interiorType.getRank() != paddedType.getRank() ||
      !llvm::all_of(interior.getStaticStrides(),
                    [](int64_t stride) { return stride == 1; }) ||
      ShapedType::isDynamicShape(interior.getStaticOffsets()))
    return std::nullopt;
  ArrayRef<int64_t> offsets = interior.getStaticOffsets();
  for (int64_t dim = 0; dim < paddedType.getRank(); ++dim) {
    if (dim == rowDim || dim == columnDim)
      continue;
    if (offsets[dim] != 0 || paddedType.isDynamicDim(dim) ||
        interiorType.getDimSize(dim) != paddedType.getDimSize(dim))
      return std::nullopt;
  }

  // oneDNN reads a source with gaps on its slow reference kernel.
  Value source = copy.getSource();
  if (!cast<MemRefType>(source.getType()).getLayout().isIdentity())
    return std::nullopt;
  ZeroPad pad{source, offsets[rowDim], offsets[columnDim], {}, {}};
  for (Operation *between = copy->getNextNode(); between != op.getOperation();
       between = between->getNextNode())
    if (!leavesSourceAlone(between, source, copy, pad.earlyDeallocs))
      return std::nullopt;
  pad.deadOps = {copy, interior, fill};
  llvm::append_range(pad.deadOps, deallocs);
  pad.deadOps.push_back(alloc);
  return pad;
}
