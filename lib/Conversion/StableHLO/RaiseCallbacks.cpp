//===- RaiseCallbacks.cpp - JAX / EXLA callback custom calls -> nx --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nx-import-stablehlo{raise-callbacks}: the host callbacks JAX and EXLA emit
// as custom calls become nx.elixir_call / nx.io_callback, so that the
// program runs on nxrt with callbacks bound by name.
//
//===----------------------------------------------------------------------===//

#include "StableHLOCommon.h"

#include "nx/Conversion/NxToCustomCall/NxToCustomCall.h"
#include "nx/Conversion/StreamHandle.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::nx;

namespace {

/// What a recognized callback call means, independent of its protocol.
struct CallbackCall {
  std::string name;
  /// The callback's own arguments and results (no token, handle or id).
  SmallVector<Value> args;
  SmallVector<Value> results;
  /// A token threaded through the call: the operand the token result
  /// stands for once the call is raised (an `!nx.token`, or the `ui8`
  /// ordering tensor of nx's own ordered io_callbacks).
  Value tokenIn;
  OpResult tokenOut;
  bool ordered = false;
  bool io = false;
  bool pure = false;
  bool optional = false;
  DictionaryAttr staticArgs;
};

} // namespace

/// The integer elements of a constant (`arith.constant` or a generic
/// `stablehlo.constant`), if `value` is one.
static DenseIntElementsAttr getIntConstant(Value value) {
  Attribute attr;
  if (Operation *def = value.getDefiningOp()) {
    if (def->getName().getStringRef() == "stablehlo.constant") {
      attr = def->getAttr("value");
      if (!attr)
        if (auto props = dyn_cast_or_null<DictionaryAttr>(
                def->getPropertiesAsAttribute()))
          attr = props.get("value");
    } else {
      matchPattern(value, m_Constant(&attr));
    }
  }
  return dyn_cast_or_null<DenseIntElementsAttr>(attr);
}

/// The integer value of a scalar constant, if `value` is one.
static std::optional<uint64_t> getScalarConstant(Value value) {
  DenseIntElementsAttr dense = getIntConstant(value);
  if (!dense || !dense.isSplat() || dense.getType().getRank() != 0 ||
      dense.getElementType().getIntOrFloatBitWidth() > 64)
    return std::nullopt;
  return dense.getSplatValue<APInt>().getZExtValue();
}

/// The name of the callback an EXLA id selects: the nx.callback with that
/// id when nx wrote it (8 little-endian bytes), else a name made of the id's
/// bytes (EXLA's ids are serialized Erlang terms).
static std::string nameFromExlaId(ModuleOp module, ArrayRef<int64_t> words,
                                  uint64_t size) {
  SmallVector<uint8_t> bytes;
  for (int64_t word : words)
    for (int shift = 0; shift < 64; shift += 8)
      bytes.push_back(
          static_cast<uint8_t>(static_cast<uint64_t>(word) >> shift));
  bytes.resize(std::min<uint64_t>(size, bytes.size()));
  if (bytes.size() == 8) {
    int64_t id = 0;
    for (int index = 7; index >= 0; --index)
      id = (id << 8) | bytes[index];
    for (auto callback : module.getOps<CallbackOp>())
      if (callback.getId() == id)
        return callback.getSymName().str();
  }
  return "exla_callback_" + llvm::toHex(bytes, /*LowerCase=*/true);
}

static std::string nameFromExlaId(ModuleOp module, int64_t id) {
  return nameFromExlaId(module, {id}, 8);
}

namespace {

/// Which of a callback custom call's operands and results are the
/// callback's own: [firstArg, lastArg) and [firstResult, lastResult). Each
/// protocol puts its tokens, handles and ids around them.
struct CallbackSpan {
  explicit CallbackSpan(Operation *call)
      : lastArg(call->getNumOperands()), lastResult(call->getNumResults()) {}

  unsigned firstArg = 0, firstResult = 0;
  unsigned lastArg, lastResult;
};

} // namespace

/// Takes a leading !nx.token operand (at `operand`) and result, if `call`
/// has them, as the token of an ordered callback (JAX, EXLA).
static void takeLeadingToken(CustomCallOp call, unsigned operand,
                             CallbackCall &result, CallbackSpan &span) {
  if (call->getNumOperands() > operand && call->getNumResults() > 0 &&
      isa<TokenType>(call->getOperand(operand).getType()) &&
      isa<TokenType>(call->getResult(0).getType())) {
    result.tokenIn = call->getOperand(operand);
    result.tokenOut = call->getResult(0);
    result.ordered = true;
    span.firstArg = operand + 1;
    span.firstResult = 1;
  }
}

/// A JAX callback (FFI or legacy CPU): named by the index its descriptor
/// selects in `jaxNames`.
static LogicalResult recognizeJaxCallback(CustomCallOp call,
                                          DictionaryAttr config,
                                          ArrayRef<std::string> jaxNames,
                                          CallbackCall &result,
                                          CallbackSpan &span) {
  std::optional<uint64_t> index;
  if (call.getCallTargetName() == kJaxLegacyCpuCallback) {
    // The descriptor operand (checked on import) identifies the callback.
    index = getScalarConstant(call->getOperand(0));
    if (!index)
      return call.emitOpError()
             << "cannot be raised: its callback descriptor (operand #0) "
                "is not a constant";
    takeLeadingToken(call, 1, result, span);
    span.firstArg = std::max(span.firstArg, 1u);
  } else {
    if (!config)
      config = call->getAttrOfType<DictionaryAttr>("mhlo.backend_config");
    // `index` (today's JAX) wins over the older `descriptor`.
    for (StringRef key : {"descriptor", "index"})
      if (auto value = config ? config.getAs<IntegerAttr>(key) : nullptr)
        index = value.getValue().getLimitedValue();
    takeLeadingToken(call, 0, result, span);
  }
  result.name = *index < jaxNames.size()
                    ? jaxNames[*index]
                    : "jax_callback_" + std::to_string(*index);
  if (result.name.empty())
    return call.emitOpError() << "cannot be raised: jax-callback-names "
                                 "gives callback index "
                              << *index << " an empty name";
  result.pure = !call.getHasSideEffect();
  // JAX's io_callback returns new values; with none, it is a side effect
  // on its operands.
  result.io = call->getNumResults() == span.firstResult && !result.pure;
  return success();
}

/// The name of the callback an EXLA call selects: by the id in its
/// backend_config, or else by its last operand, a constant id, which is
/// then no argument.
static FailureOr<std::string> getExlaCallbackName(ModuleOp module,
                                                  CustomCallOp call,
                                                  DictionaryAttr config,
                                                  CallbackSpan &span) {
  if (config && config.get("callback_id")) {
    auto words = config.getAs<DenseI64ArrayAttr>("callback_id");
    auto size = config.getAs<IntegerAttr>("callback_id_size");
    return nameFromExlaId(module, words.asArrayRef(),
                          size.getValue().getZExtValue());
  }
  std::optional<uint64_t> id =
      span.lastArg > span.firstArg
          ? getScalarConstant(call->getOperand(span.lastArg - 1))
          : std::nullopt;
  if (!id)
    return call.emitOpError()
           << "cannot be raised: it has no backend_config callback_id "
              "and its last operand is not a constant id";
  --span.lastArg;
  return nameFromExlaId(module, static_cast<int64_t>(*id));
}

/// What an EXLA call's backend_config says beyond its id: static
/// arguments, whether the callback is optional, and whether it is one of
/// nx's own ordered io_callbacks, which thread a ui8 tensor as their last
/// operand and result.
static LogicalResult applyExlaBackendConfig(CustomCallOp call,
                                            DictionaryAttr config,
                                            CallbackCall &result,
                                            CallbackSpan &span) {
  result.staticArgs = config.getAs<DictionaryAttr>("static_args");
  if (auto optional = config.getAs<BoolAttr>("optional"))
    result.optional = optional.getValue();
  auto ordered = config.getAs<BoolAttr>("ordered");
  if (!ordered || !ordered.getValue() || result.ordered)
    return success();
  if (span.lastArg <= span.firstArg || span.lastResult <= span.firstResult)
    return call.emitOpError() << "cannot be raised: it is ordered but "
                                 "has no ordering token operand";
  result.tokenIn = call->getOperand(--span.lastArg);
  result.tokenOut = call->getResult(--span.lastResult);
  result.ordered = true;
  return success();
}

/// What nx puts beside EXLA's backend_config on exla_runtime_callback, whose
/// handler takes no other entries.
static void applyNxCallbackAttrs(CustomCallOp call, CallbackCall &result) {
  auto nxAttrs = call->getAttrOfType<DictionaryAttr>(
      NxDialect::getCallbackAttrsAttrName());
  if (!nxAttrs)
    return;
  if (!result.staticArgs)
    result.staticArgs = nxAttrs.getAs<DictionaryAttr>("static_args");
  if (auto optional = nxAttrs.getAs<BoolAttr>("optional"))
    result.optional |= optional.getValue();
  if (auto ordered = nxAttrs.getAs<BoolAttr>("ordered"))
    result.ordered |= ordered.getValue();
}

/// Whether an EXLA call is an io_callback, which returns nothing new. An
/// exla_runtime_callback with num_aliased_data_outputs is EXLA's io_call:
/// its results pass its arguments through, as many as that says.
static FailureOr<bool> isExlaIoCallback(CustomCallOp call,
                                        DictionaryAttr config,
                                        const CallbackSpan &span) {
  StringRef target = call.getCallTargetName();
  bool io = target == kExlaIoCallback || (target == kExlaRuntimeCallback &&
                                          span.lastResult == span.firstResult);
  auto aliased =
      config ? config.getAs<IntegerAttr>("num_aliased_data_outputs") : nullptr;
  if (target != kExlaRuntimeCallback || !aliased ||
      aliased.getValue().getZExtValue() == 0)
    return io;
  uint64_t count = aliased.getValue().getZExtValue();
  unsigned numArgs = span.lastArg - span.firstArg;
  unsigned numResults = span.lastResult - span.firstResult;
  if (count != numResults || count != numArgs)
    return call.emitOpError()
           << "cannot be raised: num_aliased_data_outputs is " << count
           << " but it has " << numArgs << " arguments and " << numResults
           << " results (an io_call passes every argument through)";
  return true;
}

/// An EXLA callback (elixir_callback, io_callback or runtime_callback):
/// named by its id.
static LogicalResult recognizeExlaCallback(ModuleOp module, CustomCallOp call,
                                           DictionaryAttr config,
                                           CallbackCall &result,
                                           CallbackSpan &span) {
  StringRef target = call.getCallTargetName();
  takeLeadingToken(call, 0, result, span);
  // Today's form passes the callback server handle as the first operand;
  // earlier EXLA versions carried the server's pid in backend_config.
  if (target == kExlaRuntimeCallback &&
      !(config && config.get("callback_server_pid")))
    ++span.firstArg;
  FailureOr<std::string> name = getExlaCallbackName(module, call, config, span);
  if (failed(name))
    return failure();
  result.name = std::move(*name);
  if (config && failed(applyExlaBackendConfig(call, config, result, span)))
    return failure();
  applyNxCallbackAttrs(call, result);
  result.pure = !call.getHasSideEffect();
  FailureOr<bool> io = isExlaIoCallback(call, config, span);
  if (failed(io))
    return failure();
  result.io = *io;
  return success();
}

/// Checks that a recognized callback exchanges host tensors only, that its
/// token result is its token operand's type and that an io_callback's
/// results, if any, pass its arguments through.
static LogicalResult verifyRaisable(CustomCallOp call,
                                    const CallbackCall &result) {
  auto emitError = [&]() -> InFlightDiagnostic {
    InFlightDiagnostic diag = call.emitOpError();
    diag << "cannot be raised: ";
    return diag;
  };
  for (auto [index, value] : llvm::enumerate(result.args))
    if (failed(verifyHostTensorType(emitError, value.getType(),
                                    "callback argument #" + Twine(index))))
      return failure();
  for (auto [index, value] : llvm::enumerate(result.results))
    if (failed(verifyHostTensorType(emitError, value.getType(),
                                    "callback result #" + Twine(index))))
      return failure();
  if (result.tokenIn && result.tokenIn.getType() != result.tokenOut.getType())
    return call.emitOpError()
           << "cannot be raised: its token operand has type "
           << result.tokenIn.getType() << " but its token result "
           << result.tokenOut.getType();
  if (result.io && !result.results.empty() &&
      ValueRange(result.results).getTypes() !=
          ValueRange(result.args).getTypes())
    return call.emitOpError() << "cannot be raised as nx.io_callback: its "
                                 "results do not pass its arguments through";
  return success();
}

/// Splits `call`'s operands and results into token, handle and data for
/// the protocol of its target. Returns std::nullopt for calls that are not
/// host callbacks, and failure for callbacks whose shape is broken.
static FailureOr<std::optional<CallbackCall>>
recognize(ModuleOp module, CustomCallOp call, ArrayRef<std::string> jaxNames) {
  StringRef target = call.getCallTargetName();
  auto config = dyn_cast_or_null<DictionaryAttr>(call.getBackendConfigAttr());
  CallbackCall result;
  CallbackSpan span(call);
  if (isJaxFfiCallbackTarget(target) || target == kJaxLegacyCpuCallback) {
    if (failed(recognizeJaxCallback(call, config, jaxNames, result, span)))
      return failure();
  } else if (isExlaCallbackTarget(target)) {
    if (failed(recognizeExlaCallback(module, call, config, result, span)))
      return failure();
  } else {
    return std::optional<CallbackCall>();
  }
  for (unsigned index = span.firstArg; index < span.lastArg; ++index)
    result.args.push_back(call->getOperand(index));
  for (unsigned index = span.firstResult; index < span.lastResult; ++index)
    result.results.push_back(call->getResult(index));
  if (failed(verifyRaisable(call, result)))
    return failure();
  return std::optional<CallbackCall>(std::move(result));
}

/// Declares `@name` with `type`, or checks an existing declaration.
static FailureOr<FlatSymbolRefAttr>
declareCallback(OpBuilder &declarations, SymbolTable &symbols, Operation *user,
                StringRef name, FunctionType type) {
  Operation *existing = symbols.lookup(name);
  if (auto callback = dyn_cast_or_null<CallbackOp>(existing)) {
    if (callback.getFunctionType() != type)
      return user->emitOpError()
             << "cannot be raised: callback @" << name << " is used as " << type
             << " here but declared as " << callback.getFunctionType();
  } else if (existing) {
    return user->emitOpError()
           << "cannot be raised: @" << name << " is already a '"
           << existing->getName() << "'";
  } else {
    auto callback =
        CallbackOp::create(declarations, user->getLoc(), name, type);
    symbols.insert(callback);
  }
  return FlatSymbolRefAttr::get(user->getContext(), name);
}

/// The stream a stream custom call's handle operand (#0) names.
static FailureOr<std::string> getStreamName(CustomCallOp call) {
  auto fail = [&]() {
    return call.emitOpError()
           << "cannot be raised: its stream handle (operand #0) is not a "
              "constant handle of nxrt's encoding";
  };
  if (call->getNumOperands() == 0)
    return fail();
  DenseIntElementsAttr handle = getIntConstant(call->getOperand(0));
  if (!handle || handle.getType().getRank() != 1 ||
      handle.getElementType().getIntOrFloatBitWidth() != 8)
    return fail();
  SmallVector<uint8_t> bytes;
  for (const APInt &byte : handle.getValues<APInt>())
    bytes.push_back(static_cast<uint8_t>(byte.getZExtValue()));
  std::optional<std::string> name = decodeStreamHandle(bytes);
  if (!name)
    return fail();
  return *name;
}

/// Turns an outfeed's or an infeed's custom call back into nx.outfeed /
/// nx.infeed. Infeeds thread a tag from one to the next: a raised infeed's
/// next-tag result stands for the tag it took, so the chain collapses onto
/// its first tag, which goes with the last infeed. Returns whether `call`
/// was a stream's.
static FailureOr<bool> raiseStreamCall(CustomCallOp call) {
  StringRef target = call.getCallTargetName();
  bool outfeed = target == kOutfeedTarget;
  if (!outfeed && target != kInfeedTarget)
    return false;
  FailureOr<std::string> stream = getStreamName(call);
  if (failed(stream))
    return failure();
  auto emitError = [&]() -> InFlightDiagnostic {
    InFlightDiagnostic diag = call.emitOpError();
    diag << "cannot be raised: ";
    return diag;
  };
  OpBuilder builder(call);
  StringAttr name = builder.getStringAttr(*stream);
  if (outfeed) {
    if (call->getNumResults() != 1 || !call->getResult(0).use_empty())
      return emitError() << "an outfeed has one result, its success flag, "
                            "and nothing may use it";
    ValueRange inputs = call->getOperands().drop_front();
    for (auto [index, value] : llvm::enumerate(inputs))
      if (failed(verifyHostTensorType(emitError, value.getType(),
                                      "outfeed operand #" + Twine(index + 1))))
        return failure();
    OutfeedOp::create(builder, call.getLoc(), inputs, name);
  } else {
    if (call->getNumOperands() != 2 || call->getNumResults() < 1 ||
        call->getOperand(1).getType() != call->getResult(0).getType())
      return emitError() << "an infeed takes a stream handle and a tag, and "
                            "returns the next tag first";
    ResultRange payload = call->getResults().drop_front();
    for (auto [index, value] : llvm::enumerate(payload))
      if (failed(verifyHostTensorType(emitError, value.getType(),
                                      "infeed result #" + Twine(index + 1))))
        return failure();
    auto infeed =
        InfeedOp::create(builder, call.getLoc(), payload.getTypes(), name);
    payload.replaceAllUsesWith(infeed.getResults());
    call->getResult(0).replaceAllUsesWith(call->getOperand(1));
  }
  return true;
}

FailureOr<int64_t> nx::raiseCallbackCalls(ModuleOp module,
                                          ArrayRef<CustomCallOp> calls,
                                          ArrayRef<std::string> jaxNames) {
  SymbolTable symbols(module);
  // New declarations go first in the module, in the order of their calls.
  OpBuilder declarations = OpBuilder::atBlockBegin(module.getBody());
  int64_t raised = 0;
  // Drops the constants (ids, descriptors, handles, tags) the protocol
  // needed once the call that used them is gone.
  auto eraseWithDeadInputs = [](Operation *call) {
    llvm::SetVector<Operation *> inputs;
    for (Value operand : call->getOperands())
      if (Operation *def = operand.getDefiningOp())
        inputs.insert(def);
    call->erase();
    for (Operation *def : inputs)
      if (def->use_empty() && isOpTriviallyDead(def))
        def->erase();
  };
  for (CustomCallOp call : calls) {
    FailureOr<bool> stream = raiseStreamCall(call);
    if (failed(stream))
      return failure();
    if (*stream) {
      eraseWithDeadInputs(call);
      ++raised;
      continue;
    }
    FailureOr<std::optional<CallbackCall>> recognized =
        recognize(module, call, jaxNames);
    if (failed(recognized))
      return failure();
    if (!*recognized)
      continue;
    CallbackCall &callback = **recognized;
    MLIRContext *context = call.getContext();
    TypeRange argTypes = ValueRange(callback.args).getTypes();
    SmallVector<Type> resultTypes(ValueRange(callback.results).getTypes());
    FunctionType type = FunctionType::get(
        context, argTypes, callback.io ? TypeRange() : TypeRange(resultTypes));
    FailureOr<FlatSymbolRefAttr> callee =
        declareCallback(declarations, symbols, call, callback.name, type);
    if (failed(callee))
      return failure();

    OpBuilder builder(call);
    Operation *replacement;
    auto unit = [&](bool set) {
      return set ? builder.getUnitAttr() : UnitAttr();
    };
    if (callback.io)
      replacement = IoCallbackOp::create(
          builder, call.getLoc(), argTypes, *callee, callback.args,
          unit(callback.ordered), callback.staticArgs, unit(callback.optional));
    else
      replacement = ElixirCallOp::create(
          builder, call.getLoc(), resultTypes, *callee, callback.args,
          callback.staticArgs, unit(callback.pure),
          unit(callback.ordered && !callback.pure));
    for (auto [old, now] :
         llvm::zip(callback.results, replacement->getResults()))
      old.replaceAllUsesWith(now);
    // The raised op keeps its place in program order (`ordered`); ops that
    // waited on its token now wait on what it waited on.
    if (callback.tokenOut)
      callback.tokenOut.replaceAllUsesWith(callback.tokenIn);
    eraseWithDeadInputs(call);
    ++raised;
  }
  return raised;
}
