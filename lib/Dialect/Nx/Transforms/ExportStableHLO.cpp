//===- ExportStableHLO.cpp - nx.custom_call -> stablehlo.custom_call ------===//

#include "StableHLOCommon.h"

#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::nx {
#define GEN_PASS_DEF_NXEXPORTSTABLEHLO
#include "nx/Dialect/Nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

namespace {

/// `#nx.output_operand_alias<...>` -> `#stablehlo.output_operand_alias<...>`,
/// an opaque attribute of the (unloaded) stablehlo dialect whose body is the
/// nx attribute's own syntax, which is StableHLO's.
Attribute exportAlias(OutputOperandAliasAttr alias) {
  std::string body;
  llvm::raw_string_ostream os(body);
  os << "output_operand_alias";
  // The nx printer writes `<output_tuple_indices = [..], ...>`.
  std::string full;
  llvm::raw_string_ostream fullOs(full);
  fullOs << alias;
  StringRef text(full);
  text.consume_front("#nx.output_operand_alias");
  os << text;
  MLIRContext *context = alias.getContext();
  return OpaqueAttr::get(StringAttr::get(context, kStableHLODialect), body,
                         NoneType::get(context));
}

struct ExportStableHLOPass final
    : nx::impl::NxExportStableHLOBase<ExportStableHLOPass> {
  void runOnOperation() final {
    ModuleOp module = getOperation();
    SmallVector<CustomCallOp> calls;
    module.walk([&](CustomCallOp op) { calls.push_back(op); });
    if (calls.empty())
      return;
    if (!getContext().allowsUnregisteredDialects()) {
      calls.front().emitOpError()
          << "cannot be exported: the stablehlo dialect is not loaded, so "
             "nx-export-stablehlo emits unregistered ops; run with "
             "--allow-unregistered-dialect";
      return signalPassFailure();
    }
    for (CustomCallOp op : calls) {
      OpBuilder builder(op);
      OperationState state(op.getLoc(), kStableHLOCustomCall);
      state.addOperands(op.getInputs());
      state.addTypes(op.getResultTypes());
      // Inherent attributes (properties) and discardable ones alike.
      NamedAttrList attrs(op->getAttrDictionary());
      if (auto aliases = op.getOutputOperandAliasesAttr();
          aliases && !aliases.empty()) {
        SmallVector<Attribute> exported;
        for (Attribute alias : aliases)
          exported.push_back(exportAlias(cast<OutputOperandAliasAttr>(alias)));
        attrs.set("output_operand_aliases", builder.getArrayAttr(exported));
      }
      state.addAttributes(attrs);
      Operation *exported = builder.create(state);
      op->replaceAllUsesWith(exported->getResults());
      op->erase();
    }
  }
};

} // namespace
