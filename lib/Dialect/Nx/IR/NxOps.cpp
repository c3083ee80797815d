//===- NxOps.cpp - nx dialect operations ----------------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/IR/NxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::nx;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// Prints the custom_call target as a symbol-like name: `@target`.
static void printCallTarget(OpAsmPrinter &printer, Operation *,
                            StringAttr target) {
  printer.printSymbolName(target.getValue());
}

static ParseResult parseCallTarget(OpAsmParser &parser, StringAttr &target) {
  return parser.parseSymbolName(target);
}

/// Prints `[visibility] @name`, the visibility as a bare keyword as on
/// func.func.
static void printVisibilityAndName(OpAsmPrinter &printer, Operation *,
                                   StringAttr visibility, StringAttr name) {
  if (visibility)
    printer << visibility.getValue() << ' ';
  printer.printSymbolName(name.getValue());
}

static ParseResult parseVisibilityAndName(OpAsmParser &parser,
                                          StringAttr &visibility,
                                          StringAttr &name) {
  StringRef keyword;
  if (succeeded(parser.parseOptionalKeyword(&keyword,
                                            {"public", "private", "nested"})))
    visibility = parser.getBuilder().getStringAttr(keyword);
  return parser.parseSymbolName(name);
}

/// Prints `(t0, t1)`, including `()` for an empty list.
static void printParenTypeList(OpAsmPrinter &printer, Operation *,
                               TypeRange types) {
  printer << '(';
  llvm::interleaveComma(types, printer);
  printer << ')';
}

static ParseResult parseParenTypeList(OpAsmParser &parser,
                                      SmallVectorImpl<Type> &types) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren, [&] {
    return parser.parseType(types.emplace_back());
  });
}

//===----------------------------------------------------------------------===//
// Callee resolution shared by elixir_call and io_callback
//===----------------------------------------------------------------------===//

/// Resolves `callee` to an nx.callback through the (cached) symbol table and
/// checks that `operands` match its inputs. Returns null after emitting a
/// diagnostic on failure.
static CallbackOp resolveCallback(Operation *op, FlatSymbolRefAttr callee,
                                  TypeRange operands,
                                  SymbolTableCollection &symbolTable) {
  Operation *symbol = symbolTable.lookupNearestSymbolFrom(op, callee);
  if (!symbol) {
    op->emitOpError() << "callee " << callee
                      << " does not reference a symbol; expected an "
                         "'nx.callback'";
    return {};
  }
  auto callback = dyn_cast<CallbackOp>(symbol);
  if (!callback) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "callee " << callee << " is a '"
                              << symbol->getName() << "', expected an "
                              << "'nx.callback'";
    diag.attachNote(symbol->getLoc()) << "symbol defined here";
    return {};
  }
  ArrayRef<Type> inputs = callback.getFunctionType().getInputs();
  if (inputs.size() != operands.size()) {
    op->emitOpError() << "expected " << inputs.size()
                      << " operands to match callback " << callee << ", got "
                      << operands.size();
    return {};
  }
  for (auto [index, expected, actual] : llvm::enumerate(inputs, operands)) {
    if (expected != actual) {
      op->emitOpError() << "operand #" << index << " has type " << actual
                        << ", but callback " << callee << " expects "
                        << expected;
      return {};
    }
  }
  return callback;
}

static void addHostEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), HostResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), HostResource::get());
}

//===----------------------------------------------------------------------===//
// CallbackOp
//===----------------------------------------------------------------------===//

LogicalResult CallbackOp::verify() {
  // `@""` parses, but prints as a name that does not parse back, and no
  // host could bind it.
  if (getSymName().empty())
    return emitOpError() << "expects a non-empty callback name";
  FunctionType type = getFunctionType();
  auto emit = [&] { return emitOpError(); };
  for (auto [index, input] : llvm::enumerate(type.getInputs()))
    if (failed(verifyHostTensorType(emit, input, "input #" + Twine(index))))
      return failure();
  for (auto [index, result] : llvm::enumerate(type.getResults()))
    if (failed(verifyHostTensorType(emit, result, "result #" + Twine(index))))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// ElixirCallOp
//===----------------------------------------------------------------------===//

LogicalResult ElixirCallOp::verify() {
  if (getPure() && getOrdered())
    return emitOpError() << "cannot be both pure and ordered: a pure call may "
                            "be removed or reordered";
  return success();
}

LogicalResult
ElixirCallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  CallbackOp callback = resolveCallback(*this, getCalleeAttr(),
                                        getArgs().getTypes(), symbolTable);
  if (!callback)
    return failure();
  ArrayRef<Type> results = callback.getFunctionType().getResults();
  if (results.size() != getNumResults())
    return emitOpError() << "expected " << results.size()
                         << " results to match callback " << getCalleeAttr()
                         << ", got " << getNumResults();
  for (auto [index, expected, actual] :
       llvm::enumerate(results, getResultTypes()))
    if (expected != actual)
      return emitOpError() << "result #" << index << " has type " << actual
                           << ", but callback " << getCalleeAttr()
                           << " returns " << expected;
  return success();
}

void ElixirCallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // A pure callback promises to be a function of its arguments, so it may be
  // CSE'd and removed; anything else may observe or change host state.
  if (!getPure())
    addHostEffects(effects);
}

//===----------------------------------------------------------------------===//
// IoCallbackOp
//===----------------------------------------------------------------------===//

LogicalResult
IoCallbackOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  CallbackOp callback = resolveCallback(*this, getCalleeAttr(),
                                        getArgs().getTypes(), symbolTable);
  if (!callback)
    return failure();
  if (unsigned numResults = callback.getFunctionType().getNumResults())
    return emitOpError() << "expects callback " << getCalleeAttr()
                         << " to have no results, got " << numResults;
  return success();
}

LogicalResult IoCallbackOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferredReturnTypes) {
  llvm::append_range(inferredReturnTypes, operands.getTypes());
  return success();
}

//===----------------------------------------------------------------------===//
// BlockOp
//===----------------------------------------------------------------------===//

YieldOp BlockOp::getYield() {
  return dyn_cast<YieldOp>(getBody().front().getTerminator());
}

void BlockOp::inlineDefaultImplementation(RewriterBase &rewriter) {
  // Read the yielded values after inlining: block arguments among them are
  // replaced by the inputs.
  YieldOp yield = getYield();
  rewriter.inlineBlockBefore(&getBody().front(), *this, getInputs());
  SmallVector<Value> results(yield.getValues());
  rewriter.replaceOp(*this, results);
  rewriter.eraseOp(yield);
}

LogicalResult BlockOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "expects " << getInputs().size()
                         << " region arguments to match the inputs, got "
                         << body.getNumArguments();
  for (auto [index, input, argument] :
       llvm::enumerate(getInputs().getTypes(), body.getArgumentTypes()))
    if (input != argument)
      return emitOpError() << "region argument #" << index << " has type "
                           << argument << ", but input #" << index
                           << " has type " << input;
  if (body.empty() || !isa<YieldOp>(body.back()))
    return emitOpError() << "expects the region to end with 'nx.yield'";
  YieldOp yield = getYield();
  if (yield.getValues().size() != getNumResults())
    return yield.emitOpError()
           << "yields " << yield.getValues().size() << " values, but "
           << "the enclosing 'nx.block' has " << getNumResults() << " results";
  for (auto [index, yielded, result] :
       llvm::enumerate(yield.getValues().getTypes(), getResultTypes()))
    if (yielded != result)
      return yield.emitOpError()
             << "value #" << index << " has type " << yielded
             << ", but result #" << index << " of the enclosing 'nx.block' "
             << "has type " << result;
  return success();
}

//===----------------------------------------------------------------------===//
// CustomCallOp
//===----------------------------------------------------------------------===//

/// The typed-FFI api_version: the one that takes a dictionary backend_config.

/// Checks that `layouts` holds one minor-to-major permutation per type.
static LogicalResult verifyLayouts(Operation *op, ArrayAttr layouts,
                                   TypeRange types, StringRef kind) {
  if (layouts.size() != types.size())
    return op->emitOpError() << "expects " << types.size() << " " << kind
                             << " layouts, got " << layouts.size();
  for (auto [index, layout, type] : llvm::enumerate(layouts, types)) {
    auto dense = dyn_cast<DenseIntElementsAttr>(layout);
    if (!dense || dense.getType().getRank() != 1 ||
        !dense.getElementType().isIndex())
      return op->emitOpError()
             << "expects " << kind << " layout #" << index
             << " to be a 1-D dense elements attribute of index type, got "
             << layout;
    // A token's layout is empty, as in StableHLO.
    auto tensor = dyn_cast<RankedTensorType>(type);
    int64_t rank = tensor ? tensor.getRank() : 0;
    // A splat may stand for billions of values: a layout longer than any
    // rank is reported by its length, before its values are read.
    if (dense.getNumElements() > std::max<int64_t>(rank, 64))
      return op->emitOpError()
             << "expects " << kind << " layout #" << index
             << " to be a permutation of [0, " << rank << "), got "
             << dense.getNumElements() << " dimensions";
    SmallVector<int64_t> dims = llvm::to_vector(dense.getValues<int64_t>());
    SmallVector<int64_t> sorted = dims;
    llvm::sort(sorted);
    bool isPermutation = static_cast<int64_t>(dims.size()) == rank &&
                         llvm::equal(sorted, llvm::seq<int64_t>(0, rank));
    if (!isPermutation) {
      InFlightDiagnostic diag = op->emitOpError()
                                << "expects " << kind << " layout #" << index
                                << " to be a permutation of [0, " << rank
                                << "), got [";
      llvm::interleaveComma(dims, diag);
      return diag << "]";
    }
  }
  return success();
}

LogicalResult CustomCallOp::verify() {
  int32_t apiVersion = getApiVersion();
  if (Attribute config = getBackendConfigAttr()) {
    bool isDictionary = isa<DictionaryAttr>(config);
    if (apiVersion == kTypedFfiApiVersion && !isDictionary)
      return emitOpError() << "expects a dictionary backend_config with "
                              "api_version 4 (typed FFI), got "
                           << config;
    if (apiVersion != kTypedFfiApiVersion && isDictionary)
      return emitOpError() << "expects a string backend_config with "
                              "api_version "
                           << apiVersion
                           << "; dictionaries need api_version 4 (typed FFI)";
  }

  ArrayAttr operandLayouts = getOperandLayoutsAttr();
  ArrayAttr resultLayouts = getResultLayoutsAttr();
  if (static_cast<bool>(operandLayouts) != static_cast<bool>(resultLayouts))
    return emitOpError() << "expects either both operand_layouts and "
                            "result_layouts or neither";
  if (operandLayouts &&
      (failed(verifyLayouts(*this, operandLayouts, getInputs().getTypes(),
                            "operand")) ||
       failed(verifyLayouts(*this, resultLayouts, getResultTypes(), "result"))))
    return failure();

  // StableHLO views several results as one tuple: an alias then selects its
  // result with a one-element output_tuple_indices. nx tensors are never
  // tuples, so operand_tuple_indices is always empty.
  llvm::SmallDenseMap<int64_t, int64_t> aliasOfResult;
  for (auto [index, attr] : llvm::enumerate(getOutputOperandAliases())) {
    auto alias = cast<OutputOperandAliasAttr>(attr);
    int64_t operand = alias.getOperandIndex();
    if (operand < 0 || operand >= static_cast<int64_t>(getInputs().size()))
      return emitOpError() << "output_operand_alias #" << index
                           << " has operand_index " << operand
                           << ", expected one in [0, " << getInputs().size()
                           << ")";
    Type operandType = getInputs()[operand].getType();
    if (!alias.getOperandTupleIndices().empty())
      return emitOpError() << "output_operand_alias #" << index
                           << " has operand_tuple_indices, but operand #"
                           << operand << " of type " << operandType
                           << " is not a tuple";
    ArrayRef<int64_t> outputIndices = alias.getOutputTupleIndices();
    int64_t result;
    if (getNumResults() == 1) {
      if (!outputIndices.empty())
        return emitOpError() << "output_operand_alias #" << index
                             << " has output_tuple_indices, but the op has a "
                                "single, non-tuple result";
      result = 0;
    } else {
      if (outputIndices.size() != 1 || outputIndices[0] < 0 ||
          outputIndices[0] >= getNumResults()) {
        InFlightDiagnostic diag =
            emitOpError() << "output_operand_alias #" << index
                          << " must select one of the " << getNumResults()
                          << " results with output_tuple_indices = "
                             "[i], got [";
        llvm::interleaveComma(outputIndices, diag);
        return diag << "]";
      }
      result = outputIndices[0];
    }
    Type resultType = getResult(result).getType();
    if (resultType != operandType)
      return emitOpError() << "output_operand_alias #" << index
                           << " aliases result #" << result << " of type "
                           << resultType << " with operand #" << operand
                           << " of type " << operandType;
    auto [it, inserted] = aliasOfResult.try_emplace(result, index);
    if (!inserted)
      return emitOpError() << "result #" << result
                           << " is aliased by both output_operand_alias #"
                           << it->second << " and #" << index;
  }
  return success();
}

LogicalResult
CustomCallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  ArrayAttr computations = getCalledComputationsAttr();
  if (!computations)
    return success();
  for (auto [index, ref] :
       llvm::enumerate(computations.getAsRange<FlatSymbolRefAttr>())) {
    Operation *symbol = symbolTable.lookupNearestSymbolFrom(*this, ref);
    if (!symbol)
      return emitOpError() << "called computation #" << index << " " << ref
                           << " does not reference a symbol";
    if (!isa<FunctionOpInterface>(symbol))
      return emitOpError() << "called computation #" << index << " " << ref
                           << " is a '" << symbol->getName()
                           << "', expected a function";
  }
  return success();
}

void CustomCallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // As in StableHLO: only has_side_effect makes a custom call effectful.
  if (getHasSideEffect())
    addHostEffects(effects);
}

//===----------------------------------------------------------------------===//
// InvokeOp
//===----------------------------------------------------------------------===//

/// Token positions are increasing and within the target's list, which holds
/// the buffers and the tokens.
static LogicalResult verifyTokenPositions(InvokeOp op,
                                          DenseI64ArrayAttr positions,
                                          StringRef name, size_t buffers) {
  if (!positions)
    return success();
  int64_t size = static_cast<int64_t>(buffers + positions.size());
  int64_t previous = -1;
  for (int64_t position : positions.asArrayRef()) {
    if (position <= previous || position >= size)
      return op.emitOpError() << name << " must be increasing positions in [0, "
                              << size << "), got " << position;
    previous = position;
  }
  return success();
}

LogicalResult InvokeOp::verify() {
  auto checkBuffers = [&](ValueRange buffers, StringRef kind) -> LogicalResult {
    for (auto [index, buffer] : llvm::enumerate(buffers)) {
      auto type = cast<MemRefType>(buffer.getType());
      if (!type.hasStaticShape() || !type.getLayout().isIdentity())
        return emitOpError()
               << kind << " #" << index
               << " must be a statically shaped memref with the identity "
                  "layout, got "
               << type;
    }
    return success();
  };
  if (failed(checkBuffers(getInputs(), "input")) ||
      failed(checkBuffers(getOutputs(), "output")))
    return failure();
  InvokeKind kind = getKind();
  bool passesThrough = kind == InvokeKind::IoCallback ||
                       kind == InvokeKind::OptionalIoCallback ||
                       kind == InvokeKind::Outfeed;
  if (passesThrough && !getOutputs().empty())
    return emitOpError() << "of kind " << stringifyInvokeKind(kind)
                         << " expects no outputs, got " << getOutputs().size();
  if (kind == InvokeKind::Infeed && !getInputs().empty())
    return emitOpError() << "of kind infeed expects no inputs, got "
                         << getInputs().size();
  if ((getTokenInputs() || getTokenOutputs()) && kind != InvokeKind::CustomCall)
    return emitOpError() << "of kind " << stringifyInvokeKind(kind)
                         << " takes no tokens; only custom_call targets do";
  if (failed(verifyTokenPositions(*this, getTokenInputsAttr(), "token_inputs",
                                  getInputs().size())) ||
      failed(verifyTokenPositions(*this, getTokenOutputsAttr(), "token_outputs",
                                  getOutputs().size())))
    return failure();
  return success();
}

void InvokeOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &input : getInputsMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &input,
                         SideEffects::DefaultResource::get());
  for (OpOperand &output : getOutputsMutable())
    effects.emplace_back(MemoryEffects::Write::get(), &output,
                         SideEffects::DefaultResource::get());
  if (getHasSideEffect())
    addHostEffects(effects);
}

#include "nx/Dialect/Nx/IR/NxEnums.cpp.inc"

#define GET_OP_CLASSES
#include "nx/Dialect/Nx/IR/NxOps.cpp.inc"
