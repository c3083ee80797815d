//===- ImportStableHLO.cpp - stablehlo.custom_call -> nx.custom_call ------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "StableHLOCommon.h"

#include "nx/Conversion/Passes.h"
#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#define DEBUG_TYPE "nx-import-stablehlo"

namespace mlir::nx {
#define GEN_PASS_DEF_NXIMPORTSTABLEHLOPASS
#include "nx/Conversion/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

/// `#stablehlo.output_operand_alias<...>` (opaque, since the stablehlo
/// dialect is not loaded) -> `#nx.output_operand_alias<...>`.
static FailureOr<Attribute> importAlias(Operation *op, Attribute attr,
                                        size_t index) {
  if (isa<OutputOperandAliasAttr>(attr))
    return attr;
  auto opaque = dyn_cast<OpaqueAttr>(attr);
  if (!opaque || opaque.getDialectNamespace() != kStableHLODialect ||
      !opaque.getAttrData().starts_with(kStableHLOAliasMnemonic))
    return op->emitOpError()
           << "expects output_operand_aliases #" << index
           << " to be a #stablehlo.output_operand_alias, got " << attr;
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
static LogicalResult checkWords(Operation *op, DictionaryAttr config,
                                StringRef name, bool required) {
  std::string sizeName = (name + "_size").str();
  Attribute words = config.get(name);
  Attribute size = config.get(sizeName);
  if (!words && !size) {
    if (required)
      return op->emitOpError()
             << "expects backend_config entry '" << name << "' for target "
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

static LogicalResult checkUI64(Operation *op, DictionaryAttr config,
                               StringRef name, StringRef where) {
  Attribute value = config.get(name);
  if (!value)
    return success();
  auto integer = dyn_cast<IntegerAttr>(value);
  if (!integer || !integer.getType().isUnsignedInteger(64))
    return op->emitOpError() << "expects " << where << " entry '" << name
                             << "' to be a ui64, got " << value;
  return success();
}

/// The first operand that is not a token: ordered calls take the token
/// first.
static RankedTensorType getFirstTensorOperand(Operation *op) {
  for (Type type : op->getOperandTypes())
    if (!isa<TokenType>(type))
      return dyn_cast<RankedTensorType>(type);
  return {};
}

/// Validates the callback protocols of EXLA and JAX (see the pass
/// description). Other targets are accepted as they are.
static LogicalResult checkProtocol(Operation *op, StringRef target,
                                   const NamedAttrList &attrs) {
  Attribute config = attrs.get("backend_config");
  auto dict = dyn_cast_or_null<DictionaryAttr>(config);
  if (isExlaCallbackTarget(target)) {
    // Without a backend_config the id travels as an operand.
    if (!config)
      return success();
    if (!dict)
      return op->emitOpError() << "expects a dictionary backend_config for "
                                  "target \""
                               << target << "\", got " << config;
    bool runtimeCallback = target == kExlaRuntimeCallback;
    if (failed(checkWords(op, dict, "callback_id", runtimeCallback)) ||
        failed(checkWords(op, dict, "callback_server_pid", false)) ||
        failed(
            checkUI64(op, dict, "num_aliased_data_outputs", "backend_config")))
      return failure();
    // Earlier EXLA versions carried the server's pid in backend_config
    // rather than a handle operand.
    if (runtimeCallback && !dict.get("callback_server_pid")) {
      RankedTensorType handle = getFirstTensorOperand(op);
      if (!handle || handle.getRank() != 1 ||
          !handle.getElementType().isUnsignedInteger(8))
        return op->emitOpError()
               << "expects the callback server handle, a 1-D ui8 tensor, as "
                  "its first tensor operand for target \""
               << target
               << "\" (or, as earlier EXLA versions wrote it, the server's "
                  "pid in backend_config 'callback_server_pid')";
    }
    return success();
  }
  if (isJaxFfiCallbackTarget(target)) {
    // JAX puts the dictionary in `mhlo.backend_config` (with api_version 1
    // and an empty string backend_config) or, with api_version 4, in
    // backend_config itself.
    StringRef where = "backend_config";
    if (!dict) {
      dict = dyn_cast_or_null<DictionaryAttr>(attrs.get("mhlo.backend_config"));
      where = "mhlo.backend_config";
    }
    if (!dict || !(dict.get("index") || dict.get("descriptor")))
      return op->emitOpError()
             << "expects an 'index' (or 'descriptor') entry in a "
                "backend_config or mhlo.backend_config dictionary for target "
                "\""
             << target << "\"";
    for (StringRef key : {"index", "descriptor"})
      if (Attribute value = dict.get(key); value && !isa<IntegerAttr>(value))
        return op->emitOpError() << "expects " << where << " entry '" << key
                                 << "' to be an integer, got " << value;
    return success();
  }
  if (target == kJaxLegacyCpuCallback) {
    auto descriptor = op->getNumOperands()
                          ? dyn_cast<RankedTensorType>(op->getOperandTypes()[0])
                          : RankedTensorType();
    if (!descriptor || descriptor.getRank() != 0 ||
        !descriptor.getElementType().isInteger(64) ||
        descriptor.getElementType().isSignedInteger())
      return op->emitOpError() << "expects the callback descriptor, a "
                                  "tensor<i64> or tensor<ui64>, as operand "
                                  "#0 of target \""
                               << target << "\"";
    return success();
  }
  return success();
}

/// A portable artifact (VHLO) has no `array<i64>`: a serialize/deserialize
/// round trip turns the id words into `dense<...> : tensor<Nxi64>`. Both
/// forms become the array nx and the runtime read.
static DictionaryAttr normalizeWords(DictionaryAttr config) {
  NamedAttrList entries(config);
  for (StringRef name : {"callback_id", "callback_server_pid"}) {
    auto dense = dyn_cast_or_null<DenseIntElementsAttr>(entries.get(name));
    if (!dense || dense.getType().getRank() != 1 ||
        !dense.getElementType().isSignlessInteger(64))
      continue;
    entries.set(name, DenseI64ArrayAttr::get(
                          config.getContext(),
                          llvm::to_vector(dense.getValues<int64_t>())));
  }
  return entries.getDictionary(config.getContext());
}

static FailureOr<CustomCallOp> importCall(Operation *op, NamedAttrList attrs) {
  if (op->getNumRegions() != 0)
    return op->emitOpError() << "has " << op->getNumRegions()
                             << " regions; nx.custom_call has none";
  auto isCallValue = [](Type type) {
    return isa<RankedTensorType, TokenType>(type);
  };
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
    if (!isCallValue(type))
      return op->emitOpError()
             << "operand #" << index << " has type " << type
             << "; nx.custom_call takes ranked tensors and tokens only";
  for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
    if (!isCallValue(type))
      return op->emitOpError()
             << "result #" << index << " has type " << type
             << "; nx.custom_call returns ranked tensors and tokens only";

  for (StringRef name : {"backend_config", "mhlo.backend_config"})
    if (auto config = dyn_cast_or_null<DictionaryAttr>(attrs.get(name)))
      attrs.set(name, normalizeWords(config));
  auto target = dyn_cast_or_null<StringAttr>(attrs.get("call_target_name"));
  if (!target)
    return op->emitOpError() << "expects a string call_target_name, got "
                             << attrs.get("call_target_name");
  if (Attribute version = attrs.get("api_version")) {
    auto integer = dyn_cast<IntegerAttr>(version);
    if (!integer || !integer.getType().isInteger(32))
      return op->emitOpError() << "expects an i32 api_version, got " << version;
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
  if (failed(checkProtocol(op, target.getValue(), attrs)))
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
  return cast<CustomCallOp>(call);
}

/// The attributes of a generic op: MLIR 22 prints inherent attributes as
/// properties (`<{...}>`), older printers and hand-written text put them in
/// the attribute dictionary. Either or both.
static FailureOr<NamedAttrList> getGenericAttributes(Operation *op) {
  NamedAttrList attrs;
  if (Attribute properties = op->getPropertiesAsAttribute()) {
    auto dict = dyn_cast<DictionaryAttr>(properties);
    if (!dict)
      return op->emitOpError() << "expects its properties to be a dictionary, "
                                  "got "
                               << properties;
    attrs.append(dict.getValue());
  }
  for (NamedAttribute attr : op->getAttrs()) {
    if (attrs.get(attr.getName()))
      return op->emitOpError() << "has '" << attr.getName().getValue()
                               << "' both as a property and as an attribute";
    attrs.push_back(attr);
  }
  return attrs;
}

/// `stablehlo.create_token` / `stablehlo.after_all` -> `nx.create_token` /
/// `nx.after_all`.
static LogicalResult importTokenOp(Operation *op, const NamedAttrList &attrs) {
  bool createToken = op->getName().getStringRef() == kStableHLOCreateToken;
  if (op->getNumRegions() != 0 || op->getNumResults() != 1 ||
      !isa<TokenType>(op->getResult(0).getType()) ||
      (createToken && op->getNumOperands() != 0))
    return op->emitOpError()
           << "expects " << (createToken ? "no operands" : "token operands")
           << " and one !stablehlo.token result";
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
    if (!isa<TokenType>(type))
      return op->emitOpError() << "operand #" << index << " has type " << type
                               << ", expected !stablehlo.token";
  OpBuilder builder(op);
  Operation *token;
  if (createToken)
    token = CreateTokenOp::create(builder, op->getLoc(),
                                  TokenType::get(op->getContext()));
  else
    token = AfterAllOp::create(builder, op->getLoc(), op->getOperands());
  token->setDiscardableAttrs(attrs.getDictionary(op->getContext()));
  op->replaceAllUsesWith(token->getResults());
  op->erase();
  return success();
}

/// Declares again the callbacks `nx-export-stablehlo` recorded in
/// `nx.callbacks`, in order, before the table's first op.
static LogicalResult restoreCallbacks(Operation *table) {
  StringLiteral name = NxDialect::getExportedCallbacksAttrName();
  auto records = table->getAttrOfType<ArrayAttr>(name);
  if (!records)
    return success();
  Block &body = table->getRegion(0).front();
  OpBuilder builder = OpBuilder::atBlockBegin(&body);
  for (Attribute record : records) {
    auto attrs = cast<DictionaryAttr>(record);
    auto symbol = attrs.getAs<StringAttr>("sym_name");
    if (SymbolTable::lookupSymbolIn(table, symbol))
      return table->emitOpError() << "declares @" << symbol.getValue()
                                  << " and records it in '" << name << "'";
    OperationState state(table->getLoc(), CallbackOp::getOperationName());
    state.addAttributes(attrs.getValue());
    Operation *callback = builder.create(state);
    if (failed(verify(callback)))
      return failure();
  }
  table->removeAttr(name);
  return success();
}

namespace {

struct ImportStableHLOPass final
    : nx::impl::NxImportStableHLOPassBase<ImportStableHLOPass> {
  using Base::Base;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    bool failed = false;
    module->walk([&](Operation *op) {
      if (op->hasTrait<OpTrait::SymbolTable>() && op->getNumRegions() == 1 &&
          !op->getRegion(0).empty())
        failed |= mlir::failed(restoreCallbacks(op));
    });
    if (failed)
      return signalPassFailure();

    // `!stablehlo.token` -> `!nx.token` everywhere: results, block
    // arguments, function types, unregistered ops that keep their names.
    Type token = TokenType::get(context);
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](OpaqueType type) -> std::optional<Type> {
      if (type.getDialectNamespace() == kStableHLODialect &&
          type.getTypeData() == kStableHLOTokenMnemonic)
        return token;
      return std::nullopt;
    });
    replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);

    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      StringRef name = op->getName().getStringRef();
      if (!op->isRegistered() &&
          (name == kStableHLOCustomCall || name == kStableHLOCreateToken ||
           name == kStableHLOAfterAll))
        ops.push_back(op);
    });
    SmallVector<CustomCallOp> calls;
    for (Operation *op : ops) {
      // Unregistered, the op may end its block as its terminator; the nx op
      // that replaces it cannot.
      Operation *parent = op->getParentOp();
      if (op == &op->getBlock()->back() && parent->isRegistered() &&
          !parent->hasTrait<OpTrait::NoTerminator>()) {
        op->emitOpError() << "ends its block, which would have no terminator "
                             "once the op is imported";
        failed = true;
        continue;
      }
      FailureOr<NamedAttrList> attrs = getGenericAttributes(op);
      if (mlir::failed(attrs)) {
        failed = true;
        continue;
      }
      if (op->getName().getStringRef() != kStableHLOCustomCall) {
        failed |= mlir::failed(importTokenOp(op, *attrs));
        continue;
      }
      FailureOr<CustomCallOp> call = importCall(op, std::move(*attrs));
      if (mlir::failed(call)) {
        failed = true;
        continue;
      }
      calls.push_back(*call);
      nx::addStatistic(numImported);
    }
    if (failed)
      return signalPassFailure();
    if (raiseCallbacks) {
      FailureOr<int64_t> raised =
          raiseCallbackCalls(module, calls, *jaxCallbackNames);
      if (mlir::failed(raised))
        return signalPassFailure();
      nx::addStatistic(numRaised, *raised);
    }
  }
};

} // namespace

#undef DEBUG_TYPE
