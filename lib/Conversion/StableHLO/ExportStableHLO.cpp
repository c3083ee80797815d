//===- ExportStableHLO.cpp - nx.custom_call -> stablehlo.custom_call ------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Produces a module a StableHLO consumer loads as it is: every nx op, type
// and attribute is either rewritten to its StableHLO form or rejected.
//
//===----------------------------------------------------------------------===//

#include "StableHLOCommon.h"

#include "nx/Conversion/Passes.h"
#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "nx-export-stablehlo"

namespace mlir::nx {
#define GEN_PASS_DEF_NXEXPORTSTABLEHLOPASS
#include "nx/Conversion/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

/// `#nx.output_operand_alias<...>` -> `#stablehlo.output_operand_alias<...>`,
/// an opaque attribute of the (unloaded) stablehlo dialect whose body is the
/// nx attribute's own syntax, which is StableHLO's.
static Attribute exportAlias(OutputOperandAliasAttr alias) {
  std::string full;
  llvm::raw_string_ostream os(full);
  os << alias;
  StringRef text(full);
  text.consume_front("#nx.");
  MLIRContext *context = alias.getContext();
  return OpaqueAttr::get(StringAttr::get(context, kStableHLODialect), text,
                         NoneType::get(context));
}

/// Why an nx op other than the exportable ones has no StableHLO form.
static StringRef whyNotExportable(Operation *op) {
  if (isa<ElixirCallOp, IoCallbackOp, InfeedOp, OutfeedOp, BlockOp, YieldOp>(
          op))
    return "it has no StableHLO form until convert-nx-to-custom-call lowers "
           "it to nx.custom_call; run that pass first";
  if (isa<InvokeOp>(op))
    return "it is the bufferized form of a host call, which StableHLO cannot "
           "express; export the module before bufferization";
  if (isa<ToDeviceOp, ToHostOp>(op))
    return "host-device transfers are placed by nx-segment-callbacks, whose "
           "output is not a StableHLO program; export the module before "
           "segmenting it";
  return "StableHLO has no such op";
}

/// Replaces `op` by the unregistered generic op `name` with the same
/// operands, results and attributes.
static Operation *replaceByGeneric(Operation *op, StringRef name,
                                   NamedAttrList attrs) {
  OpBuilder builder(op);
  OperationState state(op->getLoc(), name);
  state.addOperands(op->getOperands());
  state.addTypes(op->getResultTypes());
  state.addAttributes(attrs);
  Operation *exported = builder.create(state);
  op->replaceAllUsesWith(exported->getResults());
  op->erase();
  return exported;
}

static void exportCustomCall(CustomCallOp op) {
  // Inherent attributes (properties) and discardable ones alike.
  NamedAttrList attrs(op->getAttrDictionary());
  if (ArrayAttr aliases = op.getOutputOperandAliasesAttr();
      aliases && !aliases.empty()) {
    SmallVector<Attribute> exported;
    for (Attribute alias : aliases)
      exported.push_back(exportAlias(cast<OutputOperandAliasAttr>(alias)));
    attrs.set("output_operand_aliases",
              ArrayAttr::get(op.getContext(), exported));
  }
  replaceByGeneric(op, kStableHLOCustomCall, attrs);
}

/// Reports the first nx attribute left in `op`'s attributes. (nx's only
/// type, the token, has been replaced everywhere by then, attributes
/// included.)
static LogicalResult checkNoNxLeft(Operation *op, Dialect *nx) {
  for (NamedAttribute attr : op->getAttrs()) {
    bool found = false;
    attr.getValue().walk(
        [&](Attribute inner) { found |= &inner.getDialect() == nx; });
    if (found)
      return op->emitOpError()
             << "cannot be exported to StableHLO: attribute '"
             << attr.getName().getValue() << "' holds an nx attribute ("
             << attr.getValue() << "), which StableHLO consumers cannot load";
  }
  return success();
}

namespace {

struct ExportStableHLOPass final
    : nx::impl::NxExportStableHLOPassBase<ExportStableHLOPass> {
  void runOnOperation() final {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    Dialect *nx = context->getLoadedDialect<NxDialect>();

    // Reject what StableHLO cannot express before changing anything.
    SmallVector<Operation *> exportable;
    SmallVector<CallbackOp> callbacks;
    WalkResult walk = module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op->getDialect() != nx)
        return WalkResult::advance();
      if (auto callback = dyn_cast<CallbackOp>(op)) {
        // Its record goes on the symbol table it is declared in.
        if (!callback->getParentOp()->hasTrait<OpTrait::SymbolTable>()) {
          callback->emitOpError()
              << "cannot be exported: it is declared in '"
              << callback->getParentOp()->getName()
              << "', which is not a symbol table to record it on";
          return WalkResult::interrupt();
        }
        callbacks.push_back(callback);
        return WalkResult::advance();
      }
      if (isa<CustomCallOp, CreateTokenOp, AfterAllOp>(op)) {
        exportable.push_back(op);
        return WalkResult::advance();
      }
      op->emitOpError() << "cannot be exported to StableHLO: "
                        << whyNotExportable(op);
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    if (!exportable.empty() && !context->allowsUnregisteredDialects()) {
      exportable.front()->emitOpError()
          << "cannot be exported: the stablehlo dialect is not loaded, so "
             "nx-export-stablehlo emits unregistered ops; run with "
             "--allow-unregistered-dialect";
      return signalPassFailure();
    }

    for (Operation *op : exportable) {
      if (auto call = dyn_cast<CustomCallOp>(op)) {
        exportCustomCall(call);
        nx::addStatistic(numExported);
      } else if (isa<CreateTokenOp>(op)) {
        replaceByGeneric(op, kStableHLOCreateToken,
                         op->getDiscardableAttrDictionary().getValue());
      } else {
        replaceByGeneric(op, kStableHLOAfterAll,
                         op->getDiscardableAttrDictionary().getValue());
      }
    }
    nx::addStatistic(numCallbacks, callbacks.size());
    // The declarations are nx syntax, and every use was lowered (a
    // remaining call was rejected above). They become records in the
    // builtin attribute `nx.callbacks`, which StableHLO tools keep and
    // nx-import-stablehlo declares again; `nx.callback_ids` stays as it is.
    StringLiteral recordsName = NxDialect::getExportedCallbacksAttrName();
    llvm::MapVector<Operation *, SmallVector<Attribute>> records;
    for (CallbackOp callback : callbacks) {
      Operation *table = callback->getParentOp();
      auto [it, inserted] = records.try_emplace(table);
      if (inserted)
        if (auto existing = table->getAttrOfType<ArrayAttr>(recordsName))
          llvm::append_range(it->second, existing);
      it->second.push_back(callback->getAttrDictionary());
      callback.erase();
    }
    for (auto &[table, list] : records)
      table->setAttr(recordsName, ArrayAttr::get(context, list));

    // `!nx.token` -> `!stablehlo.token` everywhere: results, block
    // arguments, function types.
    Type token = OpaqueType::get(StringAttr::get(context, kStableHLODialect),
                                 kStableHLOTokenMnemonic);
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](TokenType) { return token; });
    replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);

    // An nx attribute left on another op would stop a StableHLO tool from
    // loading the module.
    if (module
            .walk([&](Operation *op) {
              return failed(checkNoNxLeft(op, nx)) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
            })
            .wasInterrupted())
      return signalPassFailure();
  }
};

} // namespace

#undef DEBUG_TYPE
