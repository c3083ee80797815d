//===- NxToCustomCall.cpp - nx callbacks, streams, blocks -> custom_call --===//
//
// See the pass description in include/nx/Conversion/Passes.td for the IR
// before and after every case.
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/Passes.h"
#include "nx/Conversion/StreamHandle.h"
#include "nx/Dialect/Nx/BlockLowering.h"
#include "nx/Dialect/Nx/IR/NxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#define DEBUG_TYPE "convert-nx-to-custom-call"

namespace mlir::nx {
#define GEN_PASS_DEF_CONVERTNXTOCUSTOMCALLPASS
#include "nx/Conversion/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

namespace {


/// Packs bytes into little-endian i64 words (the last word zero-padded), as
/// EXLA's term_to_int64_list does.
SmallVector<int64_t> packWords(ArrayRef<uint8_t> bytes) {
  SmallVector<int64_t> words((bytes.size() + 7) / 8, 0);
  for (auto [i, byte] : llvm::enumerate(bytes))
    words[i / 8] = static_cast<int64_t>(static_cast<uint64_t>(words[i / 8]) |
                                        (static_cast<uint64_t>(byte)
                                         << (8 * (i % 8))));
  return words;
}

/// Appends `<name> = array<i64: words>` and `<name>_size = bytes : ui64`.
void appendWords(Builder &b, SmallVectorImpl<NamedAttribute> &config,
                 StringRef name, ArrayRef<uint8_t> bytes) {
  config.emplace_back(b.getStringAttr(name),
                      b.getDenseI64ArrayAttr(packWords(bytes)));
  config.emplace_back(
      b.getStringAttr((name + "_size").str()),
      b.getIntegerAttr(b.getIntegerType(64, /*isSigned=*/false),
                       static_cast<uint64_t>(bytes.size())));
}

/// One `#nx.output_operand_alias` per pair (result i, operand i), i < n,
/// with StableHLO's tuple indexing: [] for a single result, [i] otherwise.
SmallVector<Attribute> passthroughAliases(MLIRContext *context, unsigned n,
                                          unsigned numResults) {
  SmallVector<Attribute> aliases;
  for (unsigned i = 0; i < n; ++i) {
    SmallVector<int64_t> outputIndices;
    if (numResults != 1)
      outputIndices.push_back(i);
    aliases.push_back(
        OutputOperandAliasAttr::get(context, outputIndices, i, {}));
  }
  return aliases;
}

/// Converts `value` (a ranked tensor) to element type `to`, or returns null
/// when arith has no conversion between the two element types.
Value convertElementType(OpBuilder &b, Location loc, Value value, Type to) {
  auto type = cast<RankedTensorType>(value.getType());
  Type from = type.getElementType();
  if (from == to)
    return value;
  auto target = type.clone(to);
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, target, value);
    if (fromFloat.getWidth() > toFloat.getWidth())
      return arith::TruncFOp::create(b, loc, target, value);
    // Same width, different format (f16 <-> bf16): go through f32.
    Value wide = arith::ExtFOp::create(b, loc, type.clone(b.getF32Type()),
                                       value);
    return arith::TruncFOp::create(b, loc, target, wide);
  }
  bool signlessFrom = fromInt && fromInt.isSignless();
  bool signlessTo = toInt && toInt.isSignless();
  if (signlessFrom && signlessTo)
    return fromInt.getWidth() < toInt.getWidth()
               ? Value(arith::ExtSIOp::create(b, loc, target, value))
               : Value(arith::TruncIOp::create(b, loc, target, value));
  if (signlessFrom && toFloat)
    return arith::SIToFPOp::create(b, loc, target, value);
  if (fromFloat && signlessTo)
    return arith::FPToSIOp::create(b, loc, target, value);
  return nullptr;
}

struct ConvertNxToCustomCallPass final
    : nx::impl::ConvertNxToCustomCallPassBase<ConvertNxToCustomCallPass> {
  using Base::Base;

  void runOnOperation() final;

private:
  // Each returns failure after reporting an error on the op.
  LogicalResult lowerBlock(BlockOp op);
  LogicalResult lowerElixirCall(ElixirCallOp op);
  LogicalResult lowerIoCallback(IoCallbackOp op);
  LogicalResult lowerOutfeed(OutfeedOp op);
  LogicalResult lowerInfeed(InfeedOp op);

  LogicalResult checkPlatform(Operation *op);
  FailureOr<int64_t> getCallbackId(Operation *op, FlatSymbolRefAttr callee);
  /// Adds the callback id (and server handle) to `config` or `operands`.
  void encodeCallbackId(OpBuilder &b, Location loc, int64_t id,
                        SmallVectorImpl<NamedAttribute> &config,
                        SmallVectorImpl<Value> &operands);
  FailureOr<Value> getStreamHandle(OpBuilder &b, Operation *op,
                                   StringAttr stream);
  /// The ordering token the next ordered callback in `block` takes (the
  /// first one takes a zero `tensor<ui8>` constant).
  Value getOrderingToken(OpBuilder &b, Location loc, Block *block);
  CustomCallOp createCustomCall(OpBuilder &b, Location loc, StringRef target,
                                TypeRange resultTypes, ValueRange operands,
                                ArrayRef<NamedAttribute> config,
                                bool hasSideEffect,
                                ArrayRef<Attribute> aliases = {});

  /// Per-run state (passes must stay copyable).
  struct State {
    SymbolTableCollection symbolTables;
    /// The current ordering token / infeed tag of each block.
    DenseMap<Block *, Value> orderingTokens;
    DenseMap<Block *, Value> infeedTags;
  };
  State *state = nullptr;
};

} // namespace

CustomCallOp ConvertNxToCustomCallPass::createCustomCall(
    OpBuilder &b, Location loc, StringRef target, TypeRange resultTypes,
    ValueRange operands, ArrayRef<NamedAttribute> config, bool hasSideEffect,
    ArrayRef<Attribute> aliases) {
  SmallVector<NamedAttribute> attrs;
  attrs.emplace_back(b.getStringAttr("call_target_name"),
                     b.getStringAttr(target));
  attrs.emplace_back(b.getStringAttr("api_version"),
                     b.getI32IntegerAttr(kTypedFfiApiVersion));
  // Typed FFI always gets a dictionary, even an empty one: that is what
  // StableHLO and XLA expect for api_version 4, and what importers check.
  attrs.emplace_back(b.getStringAttr("backend_config"),
                     b.getDictionaryAttr(config));
  if (hasSideEffect)
    attrs.emplace_back(b.getStringAttr("has_side_effect"), b.getBoolAttr(true));
  if (!aliases.empty())
    attrs.emplace_back(b.getStringAttr("output_operand_aliases"),
                       b.getArrayAttr(aliases));
  return CustomCallOp::create(b, loc, resultTypes, operands, attrs);
}

LogicalResult ConvertNxToCustomCallPass::checkPlatform(Operation *op) {
  if (platform == Platform::Host)
    return success();
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (func && func->hasAttr(NxDialect::getHostOrchestratorAttrName()))
    return success();
  return op->emitOpError()
         << "cannot run on platform '" << stringifyPlatform(platform)
         << "': callbacks and streams run on the host; run "
            "nx-segment-callbacks first (it moves them into a host "
            "orchestrator function marked "
         << NxDialect::getHostOrchestratorAttrName() << ")";
}

FailureOr<int64_t>
ConvertNxToCustomCallPass::getCallbackId(Operation *op,
                                         FlatSymbolRefAttr callee) {
  auto callback =
      state->symbolTables.lookupNearestSymbolFrom<CallbackOp>(op, callee.getAttr());
  if (!callback)
    return op->emitOpError() << "references unknown callback " << callee;
  std::optional<int64_t> id = callback.getId();
  if (!id)
    return op->emitOpError() << "calls callback " << callee
                             << ", which has no id; run "
                                "nx-assign-callback-ids first";
  return *id;
}

void ConvertNxToCustomCallPass::encodeCallbackId(
    OpBuilder &b, Location loc, int64_t id,
    SmallVectorImpl<NamedAttribute> &config, SmallVectorImpl<Value> &operands) {
  if (idEncoding == CallbackIdEncoding::BackendConfig) {
    SmallVector<uint8_t> bytes;
    for (int i = 0; i < 8; ++i)
      bytes.push_back(static_cast<uint8_t>(static_cast<uint64_t>(id) >> (8 * i)));
    appendWords(b, config, "callback_id", bytes);
  } else {
    auto type = RankedTensorType::get({}, b.getI64Type());
    operands.push_back(arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getI64IntegerAttr(id))));
  }
  if (!callbackServerHandle.empty())
    appendWords(b, config, "callback_server_pid",
                ArrayRef(reinterpret_cast<const uint8_t *>(
                             callbackServerHandle.data()),
                         callbackServerHandle.size()));
}

LogicalResult ConvertNxToCustomCallPass::lowerElixirCall(ElixirCallOp op) {
  if (failed(checkPlatform(op)))
    return failure();
  FailureOr<int64_t> id = getCallbackId(op, op.getCalleeAttr());
  if (failed(id))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> operands(op.getArgs());
  SmallVector<Type> resultTypes(op.getResultTypes());
  SmallVector<NamedAttribute> config;
  SmallVector<Attribute> aliases;
  if (op.getOrdered()) {
    // The token is the last argument and the last result, which aliases it.
    operands.push_back(getOrderingToken(b, loc, op->getBlock()));
    resultTypes.push_back(operands.back().getType());
    aliases.push_back(OutputOperandAliasAttr::get(
        &getContext(),
        resultTypes.size() == 1
            ? ArrayRef<int64_t>{}
            : ArrayRef<int64_t>{static_cast<int64_t>(resultTypes.size() - 1)},
        operands.size() - 1, {}));
  }
  encodeCallbackId(b, loc, *id, config, operands);
  if (op.getOrdered())
    config.emplace_back(b.getStringAttr("ordered"), b.getBoolAttr(true));
  if (DictionaryAttr staticArgs = op.getStaticArgsAttr())
    config.emplace_back(b.getStringAttr("static_args"), staticArgs);
  CustomCallOp call =
      createCustomCall(b, loc, callbackTarget, resultTypes, operands, config,
                       /*hasSideEffect=*/!op.getPure(), aliases);
  if (op.getOrdered())
    state->orderingTokens[op->getBlock()] = call.getResults().back();
  op.replaceAllUsesWith(call.getResults().take_front(op.getNumResults()));
  op.erase();
  return success();
}

Value ConvertNxToCustomCallPass::getOrderingToken(OpBuilder &b, Location loc,
                                                  Block *block) {
  Value &token = state->orderingTokens[block];
  if (!token) {
    auto type = RankedTensorType::get({}, b.getIntegerType(8, false));
    token = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, ArrayRef<uint8_t>{0}));
  }
  return token;
}

LogicalResult ConvertNxToCustomCallPass::lowerIoCallback(IoCallbackOp op) {
  if (failed(checkPlatform(op)))
    return failure();
  FailureOr<int64_t> id = getCallbackId(op, op.getCalleeAttr());
  if (failed(id))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> operands(op.getArgs());
  SmallVector<Type> resultTypes(op.getArgs().getTypes());
  SmallVector<NamedAttribute> config;
  Block *block = op->getBlock();
  if (op.getOrdered()) {
    operands.push_back(getOrderingToken(b, loc, block));
    resultTypes.push_back(operands.back().getType());
  }
  unsigned numAliased = operands.size();
  // The id operand (if any) comes last and is not passed through.
  encodeCallbackId(b, loc, *id, config, operands);
  if (op.getOrdered())
    config.emplace_back(b.getStringAttr("ordered"), b.getBoolAttr(true));
  if (DictionaryAttr staticArgs = op.getStaticArgsAttr())
    config.emplace_back(b.getStringAttr("static_args"), staticArgs);
  if (op.getOptional())
    config.emplace_back(b.getStringAttr("optional"), b.getBoolAttr(true));
  CustomCallOp call = createCustomCall(
      b, loc, ioCallbackTarget, resultTypes, operands, config,
      /*hasSideEffect=*/true,
      passthroughAliases(&getContext(), numAliased, resultTypes.size()));
  if (op.getOrdered())
    state->orderingTokens[block] = call.getResults().back();
  op.replaceAllUsesWith(call.getResults().take_front(op.getNumResults()));
  op.erase();
  return success();
}

FailureOr<Value> ConvertNxToCustomCallPass::getStreamHandle(OpBuilder &b,
                                                           Operation *op,
                                                           StringAttr stream) {
  StringRef name = stream ? stream.getValue() : StringRef(streamName);
  if (name.empty())
    return op->emitOpError()
           << "has no stream; set its stream attribute or the stream-name "
              "option of convert-nx-to-custom-call";
  std::optional<SmallVector<uint8_t>> bytes = encodeStreamHandle(name);
  if (!bytes)
    return op->emitOpError() << "has a stream name of " << name.size()
                             << " bytes, expected at most "
                             << NXRT_STREAM_NAME_MAX;
  auto type = RankedTensorType::get({static_cast<int64_t>(bytes->size())},
                                    b.getIntegerType(8, /*isSigned=*/false));
  return arith::ConstantOp::create(
             b, op->getLoc(), DenseElementsAttr::get(type, ArrayRef(*bytes)))
      .getResult();
}

LogicalResult ConvertNxToCustomCallPass::lowerOutfeed(OutfeedOp op) {
  if (failed(checkPlatform(op)))
    return failure();
  OpBuilder b(op);
  FailureOr<Value> handle = getStreamHandle(b, op, op.getStreamAttr());
  if (failed(handle))
    return failure();
  SmallVector<Value> operands{*handle};
  llvm::append_range(operands, op.getInputs());
  auto flagType = RankedTensorType::get({}, b.getIntegerType(8, false));
  createCustomCall(b, op.getLoc(), "exla_beam_outfeed", flagType, operands,
                   /*config=*/{}, /*hasSideEffect=*/true);
  op.erase();
  return success();
}

LogicalResult ConvertNxToCustomCallPass::lowerInfeed(InfeedOp op) {
  if (failed(checkPlatform(op)))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  FailureOr<Value> handle = getStreamHandle(b, op, op.getStreamAttr());
  if (failed(handle))
    return failure();
  Value &tag = state->infeedTags[op->getBlock()];
  auto tagType =
      RankedTensorType::get({kStreamTagSize}, b.getIntegerType(8, false));
  if (!tag) {
    SmallVector<uint8_t> zero(kStreamTagSize, 0);
    tag = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tagType, ArrayRef<uint8_t>(zero)));
  }
  SmallVector<Type> resultTypes{tagType};
  llvm::append_range(resultTypes, op.getResultTypes());
  CustomCallOp call =
      createCustomCall(b, loc, "exla_beam_infeed", resultTypes,
                       ValueRange{*handle, tag}, /*config=*/{},
                       /*hasSideEffect=*/true);
  tag = call.getResult(0);
  op.replaceAllUsesWith(call.getResults().drop_front());
  op.erase();
  return success();
}

LogicalResult ConvertNxToCustomCallPass::lowerBlock(BlockOp op) {
  BlockLoweringRequest request;
  request.kind = op.getName();
  request.config = op.getConfig();
  request.inputTypes = op.getInputs().getTypes();
  request.resultTypes = op.getResultTypes();
  request.platform = stringifyPlatform(platform);
  request.op = op;
  std::optional<CustomCallSpec> spec =
      BlockLoweringRegistry::get().lookup(request);
  IRRewriter rewriter(op);

  if (!spec) {
    // Skip: the default implementation replaces the block.
    op.inlineDefaultImplementation(rewriter);
    ++numInlinedBlocks;
    return success();
  }

  if (spec->callTargetName.empty())
    return op.emitOpError() << "block lowering for \"" << op.getName()
                            << "\" returned an empty call_target_name";
  auto checkTypes = [&](ArrayRef<Type> elementTypes, TypeRange types,
                        StringRef what) -> LogicalResult {
    for (auto [index, type] : llvm::enumerate(types))
      if (!isa<RankedTensorType>(type))
        return op.emitOpError() << "cannot lower to custom call \""
                                << spec->callTargetName << "\": " << what
                                << " #" << index << " has type " << type
                                << ", expected a ranked tensor";
    if (!elementTypes.empty() && elementTypes.size() != types.size())
      return op.emitOpError()
             << "block lowering for \"" << op.getName() << "\" gave "
             << elementTypes.size() << " " << what << " element types, expected "
             << types.size();
    return success();
  };
  if (failed(checkTypes(spec->operandElementTypes, op.getInputs().getTypes(),
                        "input")) ||
      failed(checkTypes(spec->resultElementTypes, op.getResultTypes(),
                        "result")))
    return failure();

  Location loc = op.getLoc();
  auto convert = [&](Value value, Type to, StringRef what,
                     size_t index) -> FailureOr<Value> {
    Value converted = convertElementType(rewriter, loc, value, to);
    if (!converted)
      return op.emitOpError()
             << "cannot convert " << what << " #" << index << " from "
             << cast<RankedTensorType>(value.getType()).getElementType()
             << " to " << to << " for custom call \"" << spec->callTargetName
             << "\"";
    return converted;
  };

  SmallVector<Value> operands;
  for (auto [index, input] : llvm::enumerate(op.getInputs())) {
    if (spec->operandElementTypes.empty()) {
      operands.push_back(input);
      continue;
    }
    FailureOr<Value> converted =
        convert(input, spec->operandElementTypes[index], "input", index);
    if (failed(converted))
      return failure();
    operands.push_back(*converted);
  }
  SmallVector<Type> resultTypes;
  for (auto [index, type] : llvm::enumerate(op.getResultTypes()))
    resultTypes.push_back(spec->resultElementTypes.empty()
                              ? type
                              : cast<RankedTensorType>(type).clone(
                                    spec->resultElementTypes[index]));
  CustomCallOp call =
      createCustomCall(rewriter, loc, spec->callTargetName, resultTypes,
                       operands, spec->attributes, spec->hasSideEffect);
  // createCustomCall omits an empty backend_config; a block custom call
  // always carries its (possibly empty) dictionary, as EXLA's do.
  if (spec->attributes.empty())
    call.setBackendConfigAttr(rewriter.getDictionaryAttr({}));
  SmallVector<Value> results;
  for (auto [index, result] : llvm::enumerate(call.getResults())) {
    Type wanted =
        cast<RankedTensorType>(op.getResult(index).getType()).getElementType();
    FailureOr<Value> converted = convert(result, wanted, "result", index);
    if (failed(converted))
      return failure();
    results.push_back(*converted);
  }
  rewriter.replaceOp(op, results);
  ++numNativeBlocks;
  return success();
}

void ConvertNxToCustomCallPass::runOnOperation() {
  ModuleOp module = getOperation();

  State runState;
  state = &runState;
  auto resetState = llvm::make_scope_exit([&] { state = nullptr; });

  // Blocks first, innermost first, so callbacks inside inlined default
  // implementations are lowered below like any other.
  SmallVector<BlockOp> blocks;
  module.walk([&](BlockOp op) { blocks.push_back(op); });
  bool failed = false;
  for (BlockOp op : blocks)
    failed |= mlir::failed(lowerBlock(op));
  if (failed)
    return signalPassFailure();
  if (blocksOnly)
    return;

  // Program order within each block matters for token and tag threading:
  // the walk visits each block's ops in order.
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<ElixirCallOp, IoCallbackOp, OutfeedOp, InfeedOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    // Counted first: lowering erases the op.
    if (isa<ElixirCallOp, IoCallbackOp>(op))
      ++numCallbacks;
    else
      ++numStreamOps;
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case([&](ElixirCallOp call) { return lowerElixirCall(call); })
            .Case([&](IoCallbackOp call) { return lowerIoCallback(call); })
            .Case([&](OutfeedOp feed) { return lowerOutfeed(feed); })
            .Case([&](InfeedOp feed) { return lowerInfeed(feed); });
    failed |= mlir::failed(result);
  }
  if (failed)
    signalPassFailure();
}
