//===- SegmentCallbacks.cpp - split functions at host callbacks -----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nx-segment-callbacks: turns every function that calls the host into a host
// orchestrator running pure device stages (private functions) and the host
// ops between them. See the pass description in Passes.td for the contract.
//
// Cost: every block is walked a constant number of times (a forward pass for
// the earliest stage of each op, a backward pass sinking pure ops, one pass
// moving ops), each use is visited a constant number of times, and all
// lookups are hash maps, so the pass is linear in the size of the function
// (times the nesting depth for captures of nested control flow).
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"
#include "nx/Support/PassOptions.h"
#include "nx/Support/PassStatistics.h"
#include "nx/Transforms/Outlining.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "nx-segment-callbacks"

namespace mlir::nx {
#define GEN_PASS_DEF_NXSEGMENTCALLBACKSPASS
#include "nx/Dialect/Nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

namespace {

/// Resources whose host ops keep their program order (beyond data
/// dependences): host state and host streams.
enum Chain : unsigned { kNoChain = 0, kHostChain = 1, kStreamChain = 2 };

/// Where a top-level op of a segmented block goes: a stage index for
/// computation, a boundary index for host ops. Boundary `b` runs after stage
/// `b` and before stage `b + 1`.
struct Placement {
  int index;
  bool isHost;
};

} // namespace

/// Control flow that may stay in the orchestrator around host ops: it runs
/// its regions in a defined sequential order.
static bool isOrchestrableRegionOp(Operation *op) {
  return isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::IndexSwitchOp,
             scf::ExecuteRegionOp>(op);
}

namespace {

/// Decides which ops must run on the host: callbacks, and calls of functions
/// that (transitively) contain callbacks.
class HostOpClassifier {
public:
  HostOpClassifier(ModuleOp module, SymbolTable &symbols, bool includeIo)
      : symbols(symbols), includeIo(includeIo) {
    // Functions calling host ops directly, then their callers, transitively.
    DenseMap<Operation *, SmallVector<Operation *>> callers;
    SmallVector<Operation *> worklist;
    for (auto function : module.getOps<func::FuncOp>()) {
      bool direct = false;
      function.walk([&](Operation *op) {
        if (isCallback(op))
          direct = true;
        else if (auto call = dyn_cast<func::CallOp>(op))
          if (Operation *callee = symbols.lookup(call.getCallee()))
            callers[callee].push_back(function);
      });
      if (direct && hostFunctions.insert(function).second)
        worklist.push_back(function);
    }
    while (!worklist.empty())
      for (Operation *caller : callers.lookup(worklist.pop_back_val()))
        if (hostFunctions.insert(caller).second)
          worklist.push_back(caller);
  }

  bool isHostOp(Operation *op) const {
    if (isCallback(op))
      return true;
    auto call = dyn_cast<func::CallOp>(op);
    return call && hostFunctions.contains(symbols.lookup(call.getCallee()));
  }

  bool isHostFunction(func::FuncOp function) const {
    return hostFunctions.contains(function);
  }

private:
  bool isCallback(Operation *op) const {
    if (isa<ElixirCallOp>(op))
      return true;
    return includeIo && isa<IoCallbackOp, InfeedOp, OutfeedOp>(op);
  }

  SymbolTable &symbols;
  bool includeIo;
  DenseSet<Operation *> hostFunctions;
};

/// Segments one function into stages and rewrites it into the orchestrator.
class FunctionSegmenter {
public:
  FunctionSegmenter(func::FuncOp function, SymbolTable &symbols,
                    const HostOpClassifier &classifier, StringAttr device)
      : function(function), symbols(symbols), classifier(classifier),
        device(device), transfers(device.getValue() != "host"),
        lastFunction(function) {}

  LogicalResult run() {
    if (failed(collectHostOps()))
      return failure();
    segmentBlock(function.getBody().front());
    function->removeAttr(NxDialect::getDeviceAttrName());
    function->setAttr(NxDialect::getHostOrchestratorAttrName(),
                      UnitAttr::get(function.getContext()));
    return success();
  }

  /// What run() made.
  unsigned numStages() const { return nextStage; }
  size_t numTransfers() const {
    return deviceCopies.size() + hostCopies.size();
  }

private:
  /// Where each top-level op of a block goes, and the ops in program order.
  struct BlockSchedule {
    DenseMap<Operation *, Placement> placement;
    SmallVector<Operation *> order;
    int lastStage = 0;
  };

  LogicalResult collectHostOps();
  void segmentBlock(Block &block);
  void eraseDeadOps(Block &block);
  BlockSchedule placeEarliest(Block &block) const;
  static void sinkPureComputation(Block &block, BlockSchedule &schedule);
  void emitSchedule(Block &block, const BlockSchedule &schedule);
  void emitStage(ArrayRef<Operation *> ops, Block &block);
  Value toDevice(Value value, Operation *user);
  Value toHost(Value value, Operation *user);

  func::FuncOp function;
  SymbolTable &symbols;
  const HostOpClassifier &classifier;
  StringAttr device;
  /// False when the stages run on the host: no copies to make explicit.
  bool transfers;
  /// Host ops and every op (inside the function) containing one.
  DenseSet<Operation *> hostOps;
  /// Orchestrator values resident on the device (stage results, copies).
  DenseSet<Value> onDevice;
  /// One copy per value and direction.
  DenseMap<Value, Value> deviceCopies, hostCopies;
  /// Stage functions are inserted after this one, in order.
  Operation *lastFunction;
  unsigned nextStage = 0;
};

} // namespace

/// Why host ops cannot be orchestrated inside `parent`.
static StringRef getUnsupportedReason(Operation *parent) {
  if (isa<scf::ParallelOp, scf::ForallOp>(parent))
    return "parallel iterations give host callbacks no order; use scf.for";
  if (isa<BlockOp>(parent))
    return "the default implementation of a block must be pure computation";
  return "only scf.if, scf.for, scf.while, scf.index_switch and "
         "scf.execute_region can run on the host around callbacks";
}

/// Checks that every host op sits in single-block regions of orchestrable
/// control flow, and marks the host ops and their ancestors.
LogicalResult FunctionSegmenter::collectHostOps() {
  WalkResult result = function.walk([&](Operation *op) {
    if (!classifier.isHostOp(op))
      return WalkResult::advance();
    for (Operation *child = op;;) {
      Region *region = child->getParentRegion();
      Operation *parent = region->getParentOp();
      if (!region->hasOneBlock()) {
        InFlightDiagnostic diag = op->emitOpError()
                                  << "cannot be segmented inside a region of '"
                                  << parent->getName() << "' with "
                                  << region->getBlocks().size()
                                  << " blocks; nx-segment-callbacks needs "
                                     "structured control flow (scf)";
        diag.attachNote(parent->getLoc())
            << "enclosing '" << parent->getName() << "' is here";
        return WalkResult::interrupt();
      }
      // The block is rebuilt in front of its terminator, which an
      // unregistered op cannot be known to be.
      if (Operation &last = region->front().back();
          !last.hasTrait<OpTrait::IsTerminator>()) {
        InFlightDiagnostic diag = op->emitOpError()
                                  << "cannot be segmented in a block that ends "
                                     "in '"
                                  << last.getName()
                                  << "', which is not a known terminator";
        diag.attachNote(last.getLoc()) << "the block ends here";
        return WalkResult::interrupt();
      }
      if (parent == function.getOperation())
        break;
      if (!isOrchestrableRegionOp(parent)) {
        InFlightDiagnostic diag = op->emitOpError()
                                  << "cannot be segmented inside '"
                                  << parent->getName() << "'; "
                                  << getUnsupportedReason(parent);
        diag.attachNote(parent->getLoc())
            << "enclosing '" << parent->getName() << "' is here";
        return WalkResult::interrupt();
      }
      child = parent;
    }
    // Ancestors of an already marked op are marked: amortized linear.
    for (Operation *marked = op;
         marked != function.getOperation() && hostOps.insert(marked).second;
         marked = marked->getParentOp()) {
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The resources whose program order a host op keeps.
static unsigned getChains(Operation *op) {
  if (auto call = dyn_cast<ElixirCallOp>(op))
    return call.getPure() ? kNoChain : kHostChain;
  if (auto call = dyn_cast<IoCallbackOp>(op))
    return call.getOrdered() ? kHostChain : kNoChain;
  if (isa<InfeedOp, OutfeedOp>(op))
    return kStreamChain;
  // Calls of host functions and control flow containing host ops may touch
  // anything.
  return kHostChain | kStreamChain;
}

void FunctionSegmenter::segmentBlock(Block &block) {
  eraseDeadOps(block);
  BlockSchedule schedule = placeEarliest(block);
  sinkPureComputation(block, schedule);
  emitSchedule(block, schedule);
  // Constants whose uses all moved into stages.
  for (Operation &op : llvm::make_early_inc_range(block.without_terminator()))
    if (isRematerializable(&op) && op.use_empty())
      op.erase();
}

/// Dead ops would only make stages bigger; users precede producers in
/// reverse order, so one backward walk removes dead chains.
void FunctionSegmenter::eraseDeadOps(Block &block) {
  for (Operation *op = block.getTerminator()->getPrevNode(); op;) {
    Operation *previous = op->getPrevNode();
    if (isOpTriviallyDead(op)) {
      if (hostOps.contains(op))
        op->walk([&](Operation *nested) { hostOps.erase(nested); });
      op->erase();
    }
    op = previous;
  }
}

/// The earliest index of an op (a host op when `isHost`) that uses `used`,
/// its operands and the values its regions capture: none before the values'
/// producers. A host op's results are ready at its own boundary for other
/// host ops and in the next stage for computation.
static int getReadyIndex(const DenseMap<Operation *, Placement> &placement,
                         const SetVector<Value> &used, bool isHost) {
  int index = 0;
  for (Value value : used) {
    Operation *producer = value.getDefiningOp();
    auto it = producer ? placement.find(producer) : placement.end();
    if (it == placement.end())
      continue; // Block argument, outer value or constant: ready at once.
    int ready = it->second.index + (it->second.isHost && !isHost ? 1 : 0);
    index = std::max(index, ready);
  }
  return index;
}

/// Forward: the earliest stage of computation, the boundary of host ops.
FunctionSegmenter::BlockSchedule
FunctionSegmenter::placeEarliest(Block &block) const {
  BlockSchedule schedule;
  int hostChain = 0, streamChain = 0, effectChain = 0, lastBoundary = -1;
  SetVector<Value> used;
  for (Operation &op : block.without_terminator()) {
    if (isRematerializable(&op))
      continue;
    bool isHost = hostOps.contains(&op);
    used.clear();
    used.insert(op.operand_begin(), op.operand_end());
    if (op.getNumRegions() != 0)
      getUsedValuesDefinedAbove(op.getRegions(), used);
    int index = getReadyIndex(schedule.placement, used, isHost);
    if (isHost) {
      unsigned chains = getChains(&op);
      if (chains & kHostChain)
        index = std::max(index, hostChain);
      if (chains & kStreamChain)
        index = std::max(index, streamChain);
      if (chains & kHostChain)
        hostChain = index;
      if (chains & kStreamChain)
        streamChain = index;
      lastBoundary = std::max(lastBoundary, index);
    } else if (!isMemoryEffectFree(&op)) {
      // Other side effects stay in program order among themselves.
      index = std::max(index, effectChain);
      effectChain = index;
    }
    schedule.placement[&op] = {index, isHost};
    schedule.order.push_back(&op);
  }
  schedule.lastStage = lastBoundary + 1;
  return schedule;
}

/// Backward: sink pure computation to the earliest stage of its users, so a
/// stage before a callback computes only what it needs.
void FunctionSegmenter::sinkPureComputation(Block &block,
                                            BlockSchedule &schedule) {
  for (Operation *op : llvm::reverse(schedule.order)) {
    Placement &place = schedule.placement.find(op)->second;
    if (place.isHost || !isMemoryEffectFree(op))
      continue;
    int latest = schedule.lastStage;
    // A user with no placement is the terminator: the last stage.
    for (Operation *user : op->getUsers()) {
      auto it = schedule.placement.find(block.findAncestorOpInBlock(*user));
      if (it != schedule.placement.end())
        latest = std::min(latest, it->second.index);
    }
    place.index = latest;
  }
}

/// Rebuilds the block in execution order in front of its terminator: each
/// stage a call of its own function, each boundary's host ops on host
/// values, with the blocks of their regions segmented in turn.
void FunctionSegmenter::emitSchedule(Block &block,
                                     const BlockSchedule &schedule) {
  int lastStage = schedule.lastStage;
  SmallVector<SmallVector<Operation *>> stages(lastStage + 1);
  SmallVector<SmallVector<Operation *>> boundaries(lastStage);
  for (Operation *op : schedule.order) {
    Placement place = schedule.placement.lookup(op);
    (place.isHost ? boundaries : stages)[place.index].push_back(op);
  }
  Operation *terminator = block.getTerminator();
  for (int stage = 0; stage <= lastStage; ++stage) {
    if (!stages[stage].empty())
      emitStage(stages[stage], block);
    if (stage == lastStage)
      break;
    for (Operation *op : boundaries[stage]) {
      op->moveBefore(terminator);
      for (OpOperand &operand : op->getOpOperands())
        operand.set(toHost(operand.get(), op));
      for (Region &region : op->getRegions())
        for (Block &nested : region)
          segmentBlock(nested);
    }
  }
  for (OpOperand &operand : terminator->getOpOperands())
    operand.set(toHost(operand.get(), terminator));
}

void FunctionSegmenter::emitStage(ArrayRef<Operation *> ops, Block &block) {
  // The call, fed from device copies of host values, goes last: the block is
  // being rebuilt in execution order in front of its terminator.
  OpBuilder callBuilder(block.getTerminator());
  std::string name =
      (function.getSymName() + "_stage" + Twine(nextStage++)).str();
  auto [stage, call] = outlineIntoFunction(
      ops, block, name, symbols, lastFunction, callBuilder,
      [&](Value value) { return toDevice(value, block.getTerminator()); });
  stage->setAttr(NxDialect::getDeviceAttrName(), device);
  lastFunction = stage;
  for (Value result : call.getResults())
    onDevice.insert(result);
}

/// Where to copy `value` for `user`: right before the ancestor of `user` in
/// the block defining `value`, so copies leave loops and are made once.
static Operation *getCopyPoint(Value value, Operation *user) {
  Block *owner = value.getParentBlock();
  Operation *point = user;
  while (point->getBlock() != owner)
    point = point->getParentOp();
  return point;
}

Value FunctionSegmenter::toDevice(Value value, Operation *user) {
  if (!transfers || onDevice.contains(value))
    return value;
  if (Value copy = deviceCopies.lookup(value))
    return copy;
  OpBuilder builder(getCopyPoint(value, user));
  Value copy = ToDeviceOp::create(builder, value.getLoc(), value.getType(),
                                  value, device);
  onDevice.insert(copy);
  deviceCopies[value] = copy;
  return copy;
}

Value FunctionSegmenter::toHost(Value value, Operation *user) {
  if (!transfers || !onDevice.contains(value))
    return value;
  if (Value copy = hostCopies.lookup(value))
    return copy;
  OpBuilder builder(getCopyPoint(value, user));
  Value copy =
      ToHostOp::create(builder, value.getLoc(), value.getType(), value, device);
  hostCopies[value] = copy;
  return copy;
}

namespace {

struct SegmentCallbacksPass final
    : nx::impl::NxSegmentCallbacksPassBase<SegmentCallbacksPass> {
  using Base::Base;

  // One clear error for a device the option does not take, before LLVM's
  // command-line parser prints its own.
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) final {
    if (failed(
            checkEnumPassOption(getArgument(), options, device, errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void runOnOperation() final {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    SymbolTable symbols(module);
    HostOpClassifier classifier(module, symbols, includeIo);
    SmallVector<func::FuncOp> functions;
    for (auto function : module.getOps<func::FuncOp>())
      if (!function.isDeclaration() && classifier.isHostFunction(function) &&
          !function->hasAttr(NxDialect::getHostOrchestratorAttrName()))
        functions.push_back(function);
    StringAttr defaultDevice =
        StringAttr::get(context, stringifyPlatform(device));
    for (func::FuncOp function : functions) {
      auto functionDevice =
          function->getAttrOfType<StringAttr>(NxDialect::getDeviceAttrName());
      FunctionSegmenter segmenter(function, symbols, classifier,
                                  functionDevice ? functionDevice
                                                 : defaultDevice);
      if (failed(segmenter.run()))
        return signalPassFailure();
      nx::addStatistic(numOrchestrators);
      nx::addStatistic(numStages, segmenter.numStages());
      nx::addStatistic(numTransfers, segmenter.numTransfers());
    }
  }
};

} // namespace

#undef DEBUG_TYPE
