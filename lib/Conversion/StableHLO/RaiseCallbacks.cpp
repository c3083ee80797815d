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

/// Splits `call`'s operands and results into token, handle and data for
/// the protocol of its target. Returns std::nullopt for calls that are not
/// host callbacks, and failure for callbacks whose shape is broken.
static FailureOr<std::optional<CallbackCall>>
recognize(ModuleOp module, CustomCallOp call, ArrayRef<std::string> jaxNames) {
  StringRef target = call.getCallTargetName();
  auto config = dyn_cast_or_null<DictionaryAttr>(call.getBackendConfigAttr());
  CallbackCall result;
  unsigned firstArg = 0, firstResult = 0;
  unsigned lastArg = call->getNumOperands();
  unsigned lastResult = call->getNumResults();
  // A leading !nx.token operand and result: ordered (JAX, EXLA).
  auto takeLeadingToken = [&](unsigned operand) {
    if (call->getNumOperands() > operand && call->getNumResults() > 0 &&
        isa<TokenType>(call->getOperand(operand).getType()) &&
        isa<TokenType>(call->getResult(0).getType())) {
      result.tokenIn = call->getOperand(operand);
      result.tokenOut = call->getResult(0);
      result.ordered = true;
      firstArg = operand + 1;
      firstResult = 1;
    }
  };

  if (isJaxFfiCallbackTarget(target) || target == kJaxLegacyCpuCallback) {
    std::optional<uint64_t> index;
    if (target == kJaxLegacyCpuCallback) {
      // The descriptor operand (checked on import) identifies the callback.
      index = getScalarConstant(call->getOperand(0));
      if (!index)
        return call.emitOpError()
               << "cannot be raised: its callback descriptor (operand #0) "
                  "is not a constant";
      takeLeadingToken(1);
      firstArg = std::max(firstArg, 1u);
    } else {
      if (!config)
        config = call->getAttrOfType<DictionaryAttr>("mhlo.backend_config");
      // `index` (today's JAX) wins over the older `descriptor`.
      for (StringRef key : {"descriptor", "index"})
        if (auto value = config ? config.getAs<IntegerAttr>(key) : nullptr)
          index = value.getValue().getLimitedValue();
      takeLeadingToken(0);
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
    result.io = call->getNumResults() == firstResult && !result.pure;
  } else if (isExlaCallbackTarget(target)) {
    takeLeadingToken(0);
    // Today's form passes the callback server handle as the first operand;
    // earlier EXLA versions carried the server's pid in backend_config.
    if (target == kExlaRuntimeCallback &&
        !(config && config.get("callback_server_pid")))
      ++firstArg;
    if (config && config.get("callback_id")) {
      auto words = config.getAs<DenseI64ArrayAttr>("callback_id");
      auto size = config.getAs<IntegerAttr>("callback_id_size");
      result.name = nameFromExlaId(module, words.asArrayRef(),
                                   size.getValue().getZExtValue());
    } else {
      // Operand encoding: the id is the last operand, a constant.
      std::optional<uint64_t> id =
          lastArg > firstArg ? getScalarConstant(call->getOperand(lastArg - 1))
                             : std::nullopt;
      if (!id)
        return call.emitOpError()
               << "cannot be raised: it has no backend_config callback_id "
                  "and its last operand is not a constant id";
      result.name = nameFromExlaId(module, static_cast<int64_t>(*id));
      --lastArg;
    }
    if (config) {
      result.staticArgs = config.getAs<DictionaryAttr>("static_args");
      if (auto optional = config.getAs<BoolAttr>("optional"))
        result.optional = optional.getValue();
      // nx's own ordered io_callbacks thread a ui8 tensor as the last
      // operand and result.
      if (auto ordered = config.getAs<BoolAttr>("ordered");
          ordered && ordered.getValue() && !result.ordered) {
        if (lastArg <= firstArg || lastResult <= firstResult)
          return call.emitOpError() << "cannot be raised: it is ordered but "
                                       "has no ordering token operand";
        result.tokenIn = call->getOperand(--lastArg);
        result.tokenOut = call->getResult(--lastResult);
        result.ordered = true;
      }
    }
    // What nx puts beside EXLA's backend_config on exla_runtime_callback.
    if (auto nxAttrs = call->getAttrOfType<DictionaryAttr>(
            NxDialect::getCallbackAttrsAttrName())) {
      if (!result.staticArgs)
        result.staticArgs = nxAttrs.getAs<DictionaryAttr>("static_args");
      if (auto optional = nxAttrs.getAs<BoolAttr>("optional"))
        result.optional |= optional.getValue();
      if (auto ordered = nxAttrs.getAs<BoolAttr>("ordered"))
        result.ordered |= ordered.getValue();
    }
    result.pure = !call.getHasSideEffect();
    result.io = target == kExlaIoCallback ||
                (target == kExlaRuntimeCallback && lastResult == firstResult);
    // EXLA's io_call: its results pass its arguments through, as many as
    // num_aliased_data_outputs says.
    auto aliased = config
                       ? config.getAs<IntegerAttr>("num_aliased_data_outputs")
                       : nullptr;
    if (target == kExlaRuntimeCallback && aliased &&
        aliased.getValue().getZExtValue() != 0) {
      uint64_t count = aliased.getValue().getZExtValue();
      if (count != lastResult - firstResult || count != lastArg - firstArg)
        return call.emitOpError()
               << "cannot be raised: num_aliased_data_outputs is " << count
               << " but it has " << lastArg - firstArg << " arguments and "
               << lastResult - firstResult
               << " results (an io_call passes every argument through)";
      result.io = true;
    }
  } else {
    return std::optional<CallbackCall>();
  }

  for (unsigned index = firstArg; index < lastArg; ++index)
    result.args.push_back(call->getOperand(index));
  for (unsigned index = firstResult; index < lastResult; ++index)
    result.results.push_back(call->getResult(index));
  // Callbacks exchange host tensors only.
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
  if (result.io) {
    // A passthrough: results, if any, are the arguments.
    if (!result.results.empty() && ValueRange(result.results).getTypes() !=
                                       ValueRange(result.args).getTypes())
      return call.emitOpError() << "cannot be raised as nx.io_callback: its "
                                   "results do not pass its arguments through";
  }
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
