//===- SplitFunctions.cpp - bounded-size pieces of large functions --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nx-split-functions: outlines runs of a large function's top-level ops into
// private functions of at most `max-ops` ops each, so that every later
// function pass works on a piece that stays in the cache for the whole
// nested pipeline (and pieces can be compiled in parallel). See the pass
// description in Passes.td for the contract.
//
// Cost: each function is walked a constant number of times (to size and
// classify its top-level ops, to find where tensors are live, to outline
// each run) and each use is visited a constant number of times; lookups are
// hash maps, so the pass is linear in the size of the module.
//
//===----------------------------------------------------------------------===//

#include "FreshAllocation.h"
#include "nx/Support/PassStatistics.h"
#include "nx/Support/PieceMarker.h"
#include "nx/Transforms/Outlining.h"
#include "nx/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#define DEBUG_TYPE "nx-split-functions"

namespace mlir::nx {
#define GEN_PASS_DEF_NXSPLITFUNCTIONSPASS
#include "nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

/// Whether `op` allocates memory that lives until `function` returns (an
/// `Allocate` effect on the automatic allocation scope, e.g. memref.alloca,
/// not nested in a scope of its own): moved into another function, the
/// memory would be freed when that function returns.
static bool allocatesInFrameOf(Operation *op, Operation *function) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  bool onStack = llvm::any_of(instances, [](auto &instance) {
    return isa<MemoryEffects::Allocate>(instance.getEffect()) &&
           isa<SideEffects::AutomaticAllocationScopeResource>(
               instance.getResource());
  });
  return onStack &&
         op->getParentWithTrait<OpTrait::AutomaticAllocationScope>() ==
             function;
}

namespace {

/// How a top-level op takes part in splitting. Pieces are written so that
/// buffer deallocation, which runs after the split, needs no copies and
/// frees each buffer where it would have without the split: a piece returns
/// no buffer except those its calls return (which the caller owns).
enum class Role {
  /// Moves into a piece.
  Movable,
  /// Stays; cloned into the pieces that use it.
  Constant,
  /// `memref.alloc()`-like: moves into the piece of its run unless its
  /// buffer is used after the run; then it stays in front of the call, so
  /// the caller owns it and frees it after its last use.
  Allocation,
  /// Stays and ends the run: the op allocates in the function's frame, or
  /// returns a buffer it did not allocate (a view, a global, a loop-carried
  /// buffer), or allocates with operands that may come from the run.
  Pinned,
};

/// An op's role and its size, counting nested ops (0 for ops that stay).
struct Classified {
  Role role;
  int64_t size;
};

} // namespace

static Classified classify(Operation &op, Operation *function) {
  if (isRematerializable(&op))
    return {Role::Constant, 0};
  bool allocatesFresh = false, returnsUnowned = false;
  for (Value result : op.getResults()) {
    if (!isa<BaseMemRefType>(result.getType()))
      continue;
    if (getAllocatingOp(result) == &op)
      allocatesFresh = true;
    else if (!isa<CallOpInterface>(op))
      returnsUnowned = true;
  }
  if (returnsUnowned)
    return {Role::Pinned, 0};
  int64_t size = 0;
  WalkResult frame = op.walk([&](Operation *nested) {
    ++size;
    return allocatesInFrameOf(nested, function) ? WalkResult::interrupt()
                                                : WalkResult::advance();
  });
  if (frame.wasInterrupted())
    return {Role::Pinned, 0};
  if (allocatesFresh)
    return op.getNumOperands() == 0 && op.getNumRegions() == 0
               ? Classified{Role::Allocation, size}
               : Classified{Role::Pinned, 0};
  return {Role::Movable, size};
}

/// Whether `value`, a tensor result of a top-level op, bufferizes to a
/// buffer with the identity layout (a fresh allocation, a global, a function
/// argument or call result under One-Shot Bufferize's identity-layout
/// function boundaries, or a destination of one of these written in place).
/// Pieces take and return identity-layout buffers, so a tensor passed
/// across a piece boundary that bufferizes to a view would be copied: cuts
/// are not made where such a tensor is live. `known` holds the answers for
/// earlier values of the block. Ops of other dialects answer through their
/// bufferization model: a result that bufferizes to an allocation, or to
/// the very buffer of one operand (host calls returning fresh tensors or
/// passing their operands through), needs no op-specific knowledge here.
static bool hasIdentityBuffer(OpResult value,
                              const DenseMap<Value, bool> &known,
                              const bufferization::AnalysisState &state) {
  Operation *op = value.getOwner();
  auto lookup = [&](Value operand) {
    if (isa<BlockArgument>(operand))
      return true; // An argument of the function being split.
    Operation *producer = operand.getDefiningOp();
    return isRematerializable(producer) || known.lookup(operand);
  };
  if (isRematerializable(op) ||
      isa<tensor::EmptyOp, tensor::FromElementsOp, tensor::GenerateOp,
          tensor::PadOp, bufferization::AllocTensorOp, CallOpInterface>(op))
    return true;
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
    return lookup(dps.getTiedOpOperand(value)->get());
  auto bufferizable = dyn_cast<bufferization::BufferizableOpInterface>(op);
  if (!bufferizable)
    return false;
  if (bufferizable.bufferizesToAllocation(value))
    return true;
  bufferization::AliasingOpOperandList aliases =
      state.getAliasingOpOperands(value);
  if (aliases.getNumAliases() != 1)
    return false;
  const bufferization::AliasingOpOperand &alias = *aliases.begin();
  return alias.relation == bufferization::BufferRelation::Equivalent &&
         lookup(alias.opOperand->get());
}

namespace {

/// Splits one function's body into runs of consecutive top-level ops of at
/// most `maxOps` ops (counting nested ones) and outlines each run that has
/// at least half that many.
class FunctionSplitter {
  /// An op of the current run; allocations stay out of the piece when their
  /// buffer is used after the run.
  struct RunOp {
    Operation *op;
    bool isAllocation;
  };

public:
  FunctionSplitter(func::FuncOp function, SymbolTable &symbols, int64_t maxOps)
      : function(function), symbols(symbols), maxOps(maxOps),
        lastFunction(function) {}

  /// How many pieces run() outlined.
  unsigned numPieces() const { return nextPart; }

  void run() {
    Block &block = function.getBody().front();
    SmallVector<Operation *> ops =
        llvm::to_vector(llvm::make_pointer_range(block.without_terminator()));
    SmallVector<bool> cuttable = findCuttablePositions(block, ops);
    SmallVector<RunOp> run;
    int64_t runOps = 0;
    for (auto [index, op] : llvm::enumerate(ops)) {
      Classified classified = classify(*op, function);
      if (classified.role == Role::Constant)
        continue;
      if (classified.role == Role::Pinned) {
        flush(run, runOps, block);
        continue;
      }
      if (runOps + classified.size > maxOps && cuttable[index])
        flush(run, runOps, block);
      run.push_back({op, classified.role == Role::Allocation});
      runOps += classified.size;
    }
    flush(run, runOps, block);

    // Constants whose uses all moved into pieces.
    for (Operation &op : llvm::make_early_inc_range(block.without_terminator()))
      if (isRematerializable(&op) && op.use_empty())
        op.erase();
  }

private:
  /// Whether a run may end before `ops[i]`: no tensor whose buffer may be a
  /// view is defined before it and used at or after it. Linear: one interval
  /// per such tensor, summed with a difference array.
  SmallVector<bool> findCuttablePositions(Block &block,
                                          ArrayRef<Operation *> ops) {
    DenseMap<Operation *, int64_t> position;
    for (auto [index, op] : llvm::enumerate(ops))
      position[op] = index;
    int64_t end = ops.size(); // The terminator.
    SmallVector<int64_t> crossing(ops.size() + 2, 0);
    DenseMap<Value, bool> identity;
    bufferization::BufferizationOptions options;
    bufferization::AnalysisState state(options);
    for (auto [index, op] : llvm::enumerate(ops)) {
      for (OpResult result : op->getResults()) {
        if (!isa<TensorType>(result.getType()))
          continue;
        bool plain = hasIdentityBuffer(result, identity, state);
        identity[result] = plain;
        if (plain)
          continue;
        int64_t lastUse = index;
        for (Operation *user : result.getUsers()) {
          Operation *top = block.findAncestorOpInBlock(*user);
          lastUse = std::max(lastUse, position.lookup_or(top, end));
        }
        ++crossing[index + 1];
        --crossing[lastUse + 1];
      }
    }
    SmallVector<bool> cuttable(ops.size());
    int64_t live = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
      live += crossing[i];
      cuttable[i] = live == 0;
    }
    return cuttable;
  }

  /// Outlines `run` if it is big enough to be worth a call, and starts a new
  /// one. Smaller runs stay in the function.
  void flush(SmallVectorImpl<RunOp> &run, int64_t &runOps, Block &block) {
    if (!run.empty() && 2 * runOps >= maxOps) {
      DenseSet<Operation *> members;
      for (RunOp entry : run)
        members.insert(entry.op);
      auto usedAfterRun = [&](Operation *op) {
        return llvm::any_of(op->getUsers(), [&](Operation *user) {
          return !members.contains(block.findAncestorOpInBlock(*user));
        });
      };
      SmallVector<Operation *> moved;
      for (RunOp entry : run)
        if (!(entry.isAllocation && usedAfterRun(entry.op)))
          moved.push_back(entry.op);
      // A run of allocations that all outlive it leaves nothing to move.
      if (moved.empty()) {
        run.clear();
        runOps = 0;
        return;
      }
      // Every live-in is defined before the call (or is a constant, cloned)
      // and every outside use follows it: the call takes the run's place.
      OpBuilder callBuilder(run.back().op->getNextNode());
      std::string name =
          (function.getSymName() + "_part" + Twine(nextPart++)).str();
      func::FuncOp piece =
          outlineIntoFunction(moved, block, name, symbols, lastFunction,
                              callBuilder, [](Value value) { return value; })
              .function;
      piece->setAttr(kPieceAttrName, UnitAttr::get(function.getContext()));
      lastFunction = piece;
    }
    run.clear();
    runOps = 0;
  }

  func::FuncOp function;
  SymbolTable &symbols;
  int64_t maxOps;
  /// Pieces are inserted after this function, in order.
  Operation *lastFunction;
  unsigned nextPart = 0;
};

struct NxSplitFunctionsPass final
    : nx::impl::NxSplitFunctionsPassBase<NxSplitFunctionsPass> {
  using Base::Base;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    if (maxOps < 2) {
      // Reported at the module's location without the module attached: the
      // option is wrong, not the IR.
      mlir::emitError(module.getLoc())
          << "nx-split-functions expects 'max-ops' to be at least 2, got "
          << static_cast<int64_t>(maxOps);
      return signalPassFailure();
    }
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions;
    for (auto function : module.getOps<func::FuncOp>()) {
      // Multi-block bodies (unstructured control flow) are left alone: a run
      // of one block could not be outlined without its successors. So are
      // bodies that do not end in a known terminator (an unregistered op may
      // end one): the pieces' calls go in front of the terminator.
      if (function.isDeclaration() || !function.getBody().hasOneBlock() ||
          !function.getBody().front().back().hasTrait<OpTrait::IsTerminator>())
        continue;
      int64_t size = 0;
      function.getBody().walk([&](Operation *) { ++size; });
      if (size > maxOps)
        functions.push_back(function);
    }
    for (func::FuncOp function : functions) {
      FunctionSplitter splitter(function, symbols, maxOps);
      splitter.run();
      nx::addStatistic(numPieces, splitter.numPieces());
    }
  }
};

} // namespace

#undef DEBUG_TYPE
