//===- ImportStableHLO.cpp - stablehlo.custom_call -> nx.custom_call ------===//

#include "StableHLOCommon.h"

#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Dialect/Nx/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

namespace mlir::nx {
#define GEN_PASS_DEF_NXIMPORTSTABLEHLO
#include "nx/Dialect/Nx/Transforms/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

namespace {

/// `#stablehlo.output_operand_alias<...>` (opaque, since the stablehlo
/// dialect is not loaded) -> `#nx.output_operand_alias<...>`.
FailureOr<Attribute> importAlias(Operation *op, Attribute attr, size_t index) {
  if (isa<OutputOperandAliasAttr>(attr))
    return attr;
  auto opaque = dyn_cast<OpaqueAttr>(attr);
  if (!opaque || opaque.getDialectNamespace() != kStableHLODialect ||
      !opaque.getAttrData().starts_with(kStableHLOAliasMnemonic))
    return op->emitOpError() << "expects output_operand_aliases #" << index
                             << " to be a #stablehlo.output_operand_alias, got "
                             << attr;
  // The body is StableHLO's syntax, which is also the nx attribute's.
  std::string text = ("#nx." + opaque.getAttrData()).str();
  // The parser reports at a location inside `text`, not at the op: keep its
  // message for the op's diagnostic instead.
  std::string problem;
  Attribute parsed;
  {
    ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &diag) {
      if (problem.empty())
        problem = diag.str();
      return success();
    });
    parsed = parseAttribute(text, op->getContext());
  }
  if (!isa_and_nonnull<OutputOperandAliasAttr>(parsed)) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "has a malformed output_operand_aliases #"
                              << index << ": " << attr;
    if (!problem.empty())
      diag << " (" << problem << ")";
    return diag;
  }
  return parsed;
}

/// Checks a `<name>` array<i64> / `<name>_size` ui64 byte-count pair.
LogicalResult checkWords(Operation *op, DictionaryAttr config, StringRef name,
                         bool required) {
  std::string sizeName = (name + "_size").str();
  Attribute words = config.get(name);
  Attribute size = config.get(sizeName);
  if (!words && !size) {
    if (required)
      return op->emitOpError() << "expects backend_config entry '" << name
                               << "' for target "
                               << op->getAttr("call_target_name");
    return success();
  }
  auto array = dyn_cast_or_null<DenseI64ArrayAttr>(words);
  if (!array)
    return op->emitOpError() << "expects backend_config entry '" << name
                             << "' to be an array<i64>, got " << words;
  auto count = dyn_cast_or_null<IntegerAttr>(size);
  if (!count || !count.getType().isUnsignedInteger(64))
    return op->emitOpError() << "expects backend_config entry '" << sizeName
                             << "' to be a ui64, got " << size;
  uint64_t bytes = count.getValue().getZExtValue();
  if (bytes > 8 * static_cast<uint64_t>(array.size()))
    return op->emitOpError()
           << "has " << sizeName << " " << bytes << ", but " << name
           << " holds only " << 8 * array.size() << " bytes";
  return success();
}

LogicalResult checkUI64(Operation *op, DictionaryAttr config, StringRef name,
                        StringRef where) {
  Attribute value = config.get(name);
  if (!value)
    return success();
  auto integer = dyn_cast<IntegerAttr>(value);
  if (!integer || !integer.getType().isUnsignedInteger(64))
    return op->emitOpError() << "expects " << where << " entry '" << name
                             << "' to be a ui64, got " << value;
  return success();
}

/// Validates the callback protocols of EXLA and JAX (see the pass
/// description). Other targets are accepted as they are.
LogicalResult checkProtocol(Operation *op, StringRef target, Attribute config,
                            int64_t apiVersion) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(config);
  if (target == "exla_runtime_callback" || target == "exla_io_callback" ||
      target == "exla_elixir_callback") {
    if (!dict)
      return op->emitOpError() << "expects a dictionary backend_config for "
                                  "target \""
                               << target << "\"";
    bool runtimeCallback = target == "exla_runtime_callback";
    if (failed(checkWords(op, dict, "callback_id", runtimeCallback)) ||
        failed(checkWords(op, dict, "callback_server_pid", false)) ||
        failed(checkUI64(op, dict, "num_aliased_data_outputs",
                         "backend_config")))
      return failure();
    if (runtimeCallback) {
      auto handle = op->getNumOperands()
                        ? dyn_cast<RankedTensorType>(op->getOperand(0).getType())
                        : RankedTensorType();
      if (!handle || handle.getRank() != 1 ||
          !handle.getElementType().isUnsignedInteger(8))
        return op->emitOpError()
               << "expects the callback server handle, a 1-D ui8 tensor, as "
                  "operand #0 of target \""
               << target << "\"";
    }
    return success();
  }
  if (target == "xla_ffi_python_cpu_callback") {
    StringRef where = "backend_config";
    if (apiVersion != 4) {
      dict = op->getAttrOfType<DictionaryAttr>("mhlo.backend_config");
      where = "mhlo.backend_config";
    }
    if (!dict || !(dict.get("index") || dict.get("descriptor")))
      return op->emitOpError()
             << "expects an 'index' (or 'descriptor') entry in its " << where
             << " dictionary for target \"" << target << "\"";
    for (StringRef key : {"index", "descriptor"})
      if (Attribute value = dict.get(key); value && !isa<IntegerAttr>(value))
        return op->emitOpError() << "expects " << where << " entry '" << key
                                 << "' to be an integer, got " << value;
    return success();
  }
  if (target == "xla_python_cpu_callback") {
    auto descriptor =
        op->getNumOperands()
            ? dyn_cast<RankedTensorType>(op->getOperand(0).getType())
            : RankedTensorType();
    if (!descriptor || descriptor.getRank() != 0 ||
        !descriptor.getElementType().isSignlessInteger(64))
      return op->emitOpError() << "expects the callback descriptor, a "
                                  "tensor<i64>, as operand #0 of target \""
                               << target << "\"";
    return success();
  }
  return success();
}

LogicalResult importCall(Operation *op) {
  if (op->getNumRegions() != 0)
    return op->emitOpError() << "has " << op->getNumRegions()
                             << " regions; nx.custom_call has none";
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
    if (!isa<RankedTensorType>(type))
      return op->emitOpError() << "operand #" << index << " has type " << type
                               << "; nx.custom_call takes ranked tensors only";
  for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
    if (!isa<RankedTensorType>(type))
      return op->emitOpError() << "result #" << index << " has type " << type
                               << "; nx.custom_call returns ranked tensors only";

  NamedAttrList attrs(op->getAttrDictionary());
  auto target = dyn_cast_or_null<StringAttr>(attrs.get("call_target_name"));
  if (!target)
    return op->emitOpError() << "expects a string call_target_name, got "
                             << attrs.get("call_target_name");
  int64_t apiVersion = 1;
  if (Attribute version = attrs.get("api_version")) {
    auto integer = dyn_cast<IntegerAttr>(version);
    if (!integer || !integer.getType().isInteger(32))
      return op->emitOpError() << "expects an i32 api_version, got " << version;
    apiVersion = integer.getInt();
  }
  if (Attribute aliases = attrs.get("output_operand_aliases")) {
    auto array = dyn_cast<ArrayAttr>(aliases);
    if (!array)
      return op->emitOpError()
             << "expects an array of output_operand_aliases, got " << aliases;
    SmallVector<Attribute> imported;
    for (auto [index, alias] : llvm::enumerate(array)) {
      FailureOr<Attribute> attr = importAlias(op, alias, index);
      if (failed(attr))
        return failure();
      imported.push_back(*attr);
    }
    attrs.set("output_operand_aliases",
              ArrayAttr::get(op->getContext(), imported));
  }
  if (failed(checkProtocol(op, target.getValue(), attrs.get("backend_config"),
                           apiVersion)))
    return failure();

  OpBuilder builder(op);
  OperationState state(op->getLoc(), CustomCallOp::getOperationName());
  state.addOperands(op->getOperands());
  state.addTypes(op->getResultTypes());
  state.addAttributes(attrs);
  Operation *call = builder.create(state);
  if (failed(verify(call))) {
    call->erase();
    return op->emitOpError() << "cannot be imported as nx.custom_call";
  }
  op->replaceAllUsesWith(call->getResults());
  op->erase();
  return success();
}

struct ImportStableHLOPass final
    : nx::impl::NxImportStableHLOBase<ImportStableHLOPass> {
  void runOnOperation() final {
    SmallVector<Operation *> calls;
    getOperation().walk([&](Operation *op) {
      if (!op->isRegistered() &&
          op->getName().getStringRef() == kStableHLOCustomCall)
        calls.push_back(op);
    });
    bool failed = false;
    for (Operation *op : calls)
      failed |= mlir::failed(importCall(op));
    if (failed)
      signalPassFailure();
  }
};

} // namespace
