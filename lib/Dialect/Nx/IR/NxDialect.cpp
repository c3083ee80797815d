//===- NxDialect.cpp - nx dialect -----------------------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/IR/NxDialect.h"

#include "nx/Dialect/Nx/IR/NxAttrs.h"
#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Dialect/Nx/Platform.h"
#include "nx/Support/PieceMarker.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>

using namespace mlir;
using namespace mlir::nx;

#include "nx/Dialect/Nx/IR/NxDialect.cpp.inc"

void NxDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "nx/Dialect/Nx/IR/NxOps.cpp.inc"
      >();
  registerAttributes();
  registerTypes();
}

/// How a callback's id reads in a diagnostic.
static std::string describeId(Attribute id) {
  if (!id)
    return "<none>";
  if (auto integer = dyn_cast<IntegerAttr>(id))
    return std::to_string(integer.getInt());
  std::string text;
  llvm::raw_string_ostream os(text);
  os << id;
  return text;
}

/// The record of callback `name` in `op`'s `nx.callbacks`, if any.
static DictionaryAttr findExportedCallback(Operation *op, StringRef name) {
  auto records =
      op->getAttrOfType<ArrayAttr>(NxDialect::getExportedCallbacksAttrName());
  if (!records)
    return {};
  // Runs before the records themselves may have been verified.
  for (Attribute attr : records)
    if (auto record = dyn_cast<DictionaryAttr>(attr))
      if (auto symbol = record.getAs<StringAttr>("sym_name");
          symbol && symbol.getValue() == name)
        return record;
  return {};
}

/// `nx.callbacks`: on a symbol table, an array of `nx.callback` attribute
/// dictionaries, each with a string `sym_name` and a function `function_type`.
static LogicalResult verifyExportedCallbacks(Operation *op, Attribute value) {
  StringLiteral name = NxDialect::getExportedCallbacksAttrName();
  if (!op->hasTrait<OpTrait::SymbolTable>())
    return op->emitError() << "'" << name
                           << "' must be on a symbol table operation";
  auto records = dyn_cast<ArrayAttr>(value);
  if (!records)
    return op->emitError() << "'" << name << "' must be an array, got "
                           << value;
  for (auto [index, attr] : llvm::enumerate(records)) {
    auto record = dyn_cast<DictionaryAttr>(attr);
    auto type = record ? record.getAs<TypeAttr>("function_type") : TypeAttr();
    auto symbol = record ? record.getAs<StringAttr>("sym_name") : StringAttr();
    if (!record || !symbol || !type || !isa<FunctionType>(type.getValue()))
      return op->emitError()
             << "'" << name << "' entry #" << index
             << " must be a dictionary with a string 'sym_name' and a "
                "function type 'function_type', got "
             << attr;
    // nx-import-stablehlo declares it again as an nx.callback, which needs
    // a name.
    if (symbol.getValue().empty())
      return op->emitError() << "'" << name << "' entry #" << index
                             << " has an empty 'sym_name'";
    // nx-import-stablehlo declares it again; a mistyped id would be lost.
    if (Attribute id = record.get("id");
        id && !(isa<IntegerAttr>(id) &&
                cast<IntegerAttr>(id).getType().isSignlessInteger(64)))
      return op->emitError() << "'" << name << "' entry #" << index
                             << " has id " << id << ", expected an i64";
  }
  return success();
}

/// Checks `nx.callback_attrs`: a dictionary of `ordered` / `optional`
/// bools and a `static_args` dictionary, on a custom call.
static LogicalResult verifyCallbackAttrs(Operation *op, Attribute value) {
  StringLiteral name = NxDialect::getCallbackAttrsAttrName();
  StringRef opName = op->getName().getStringRef();
  if (opName != "nx.custom_call" && opName != "stablehlo.custom_call")
    return op->emitError() << "'" << name << "' must be on a custom call, got '"
                           << opName << "'";
  auto entries = dyn_cast<DictionaryAttr>(value);
  if (!entries)
    return op->emitError() << "'" << name << "' must be a dictionary, got "
                           << value;
  for (NamedAttribute entry : entries) {
    StringRef key = entry.getName().getValue();
    bool valid =
        (key == "ordered" || key == "optional")
            ? isa<BoolAttr>(entry.getValue())
            : key == "static_args" && isa<DictionaryAttr>(entry.getValue());
    if (!valid)
      return op->emitError()
             << "'" << name << "' takes bool 'ordered' and 'optional' and a "
             << "dictionary 'static_args', got '" << key
             << "' = " << entry.getValue();
  }
  return success();
}

/// Checks `nx.callback_ids` on a symbol table: a dictionary from callback
/// name to a distinct non-negative id that agrees with each callback's own
/// `id`, so hosts can trust the map.
LogicalResult NxDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  // Written by nx-segment-callbacks: the device of a stage function, and
  // the marker of the host function orchestrating stages and callbacks.
  if (attr.getName() == getDeviceAttrName()) {
    auto device = dyn_cast<StringAttr>(attr.getValue());
    if (!device || device.getValue().empty())
      return op->emitError()
             << "'" << getDeviceAttrName()
             << "' must be a non-empty string, got " << attr.getValue();
    if (!symbolizePlatform(device.getValue()))
      return op->emitError()
             << "'" << getDeviceAttrName() << "' must be one of "
             << kPlatformNames << ", got " << device;
    return success();
  }
  // Unit markers of functions: the orchestrator nx-segment-callbacks
  // writes, and the pieces nx-split-functions outlines.
  for (StringLiteral name : {getHostOrchestratorAttrName(), kPieceAttrName}) {
    if (attr.getName() != name)
      continue;
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name << "' must be a unit attribute, got "
             << attr.getValue();
    if (!isa<FunctionOpInterface>(op))
      return op->emitError() << "'" << name << "' must be on a function, got '"
                             << op->getName() << "'";
    return success();
  }
  if (attr.getName() == getExportedCallbacksAttrName())
    return verifyExportedCallbacks(op, attr.getValue());
  if (attr.getName() == getCallbackAttrsAttrName())
    return verifyCallbackAttrs(op, attr.getValue());
  if (attr.getName() != getCallbackIdsAttrName())
    return op->emitError() << "unknown nx dialect attribute '"
                           << attr.getName().getValue() << "'";
  auto ids = dyn_cast<DictionaryAttr>(attr.getValue());
  if (!ids)
    return op->emitError() << "'" << getCallbackIdsAttrName()
                           << "' must be a dictionary, got " << attr.getValue();
  // Symbol tables are looked up in the first block of their one region,
  // which a malformed op may lack.
  if (!op->hasTrait<OpTrait::SymbolTable>() || op->getNumRegions() != 1 ||
      op->getRegion(0).empty())
    return op->emitError() << "'" << getCallbackIdsAttrName()
                           << "' must be on a symbol table operation";
  // Ids come from the input, so any int64_t may be a key: DenseMap reserves
  // two values (INT64_MAX and INT64_MAX - 1) as markers, std::map none.
  std::map<int64_t, StringAttr> seen;
  for (NamedAttribute entry : ids) {
    auto id = dyn_cast<IntegerAttr>(entry.getValue());
    if (!id || !id.getType().isSignlessInteger(64) || id.getInt() < 0)
      return op->emitError()
             << "'" << getCallbackIdsAttrName() << "' entry '"
             << entry.getName().getValue()
             << "' must be a non-negative i64, got " << entry.getValue();
    auto [it, inserted] = seen.try_emplace(id.getInt(), entry.getName());
    if (!inserted)
      return op->emitError()
             << "'" << getCallbackIdsAttrName() << "' gives id " << id.getInt()
             << " to both '" << it->second.getValue() << "' and '"
             << entry.getName().getValue() << "'";
    // The callback is declared, or recorded by nx-export-stablehlo.
    Attribute declaredId;
    if (auto callback = dyn_cast_or_null<CallbackOp>(
            SymbolTable::lookupSymbolIn(op, entry.getName())))
      declaredId = callback.getIdAttr();
    else if (DictionaryAttr record =
                 findExportedCallback(op, entry.getName().getValue()))
      declaredId = record.get("id");
    else
      return op->emitError()
             << "'" << getCallbackIdsAttrName() << "' entry '"
             << entry.getName().getValue() << "' does not name an nx.callback";
    if (declaredId != id)
      return op->emitError()
             << "'" << getCallbackIdsAttrName() << "' gives @"
             << entry.getName().getValue() << " id " << id.getInt()
             << ", but the callback has id " << describeId(declaredId);
  }
  return success();
}
