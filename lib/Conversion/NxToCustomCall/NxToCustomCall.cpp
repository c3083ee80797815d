//===- NxToCustomCall.cpp - nx callbacks, streams, blocks -> custom_call --===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See the pass description in include/nx/Conversion/Passes.td for the IR
// before and after every case.
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/NxToCustomCall/NxToCustomCall.h"
#include "nx/Conversion/Passes.h"
#include "nx/Conversion/StreamHandle.h"
#include "nx/Dialect/Nx/BlockLowering.h"
#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Support/PassOptions.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/TypeSwitch.h"

#define DEBUG_TYPE "convert-nx-to-custom-call"

namespace mlir::nx {
#define GEN_PASS_DEF_CONVERTNXTOCUSTOMCALLPASS
#include "nx/Conversion/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;

/// Packs bytes into little-endian i64 words (the last word zero-padded), as
/// EXLA's term_to_int64_list does.
static SmallVector<int64_t> packWords(ArrayRef<uint8_t> bytes) {
  SmallVector<int64_t> words((bytes.size() + 7) / 8, 0);
  for (auto [i, byte] : llvm::enumerate(bytes))
    words[i / 8] =
        static_cast<int64_t>(static_cast<uint64_t>(words[i / 8]) |
                             (static_cast<uint64_t>(byte) << (8 * (i % 8))));
  return words;
}

/// Appends `<name> = array<i64: words>` and `<name>_size = bytes : ui64`.
static void appendWords(Builder &b, SmallVectorImpl<NamedAttribute> &config,
                        StringRef name, ArrayRef<uint8_t> bytes) {
  config.emplace_back(b.getStringAttr(name),
                      b.getDenseI64ArrayAttr(packWords(bytes)));
  config.emplace_back(b.getStringAttr((name + "_size").str()),
                      b.getIntegerAttr(b.getIntegerType(64, /*isSigned=*/false),
                                       static_cast<uint64_t>(bytes.size())));
}

/// The `#nx.output_operand_alias` of result `result` of `numResults` to
/// operand `operand`, with StableHLO's tuple indexing: [] for a single
/// result, [result] otherwise.
static Attribute getOutputOperandAlias(MLIRContext *context, unsigned result,
                                       unsigned numResults, unsigned operand) {
  SmallVector<int64_t> outputIndices;
  if (numResults != 1)
    outputIndices.push_back(result);
  return OutputOperandAliasAttr::get(context, outputIndices, operand, {});
}

/// One `#nx.output_operand_alias` per pair (result i, operand i), i < n.
static SmallVector<Attribute>
passthroughAliases(MLIRContext *context, unsigned n, unsigned numResults) {
  SmallVector<Attribute> aliases;
  for (unsigned i = 0; i < n; ++i)
    aliases.push_back(getOutputOperandAlias(context, i, numResults, i));
  return aliases;
}

/// Converts `value` (a ranked tensor) to element type `to`, or returns null
/// when arith has no conversion between the two element types.
static Value convertElementType(OpBuilder &b, Location loc, Value value,
                                Type to) {
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
    Value wide =
        arith::ExtFOp::create(b, loc, type.clone(b.getF32Type()), value);
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

static CustomCallOp createCustomCall(OpBuilder &b, Location loc,
                                     StringRef target, TypeRange resultTypes,
                                     ValueRange operands,
                                     ArrayRef<NamedAttribute> config,
                                     bool hasSideEffect,
                                     ArrayRef<Attribute> aliases = {}) {
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

/// The ordering token `op` leaves for the next ordered callback of its
/// block (its last result), if it is an ordered callback's custom call.
static Value orderingTokenOf(Operation *op) {
  auto call = dyn_cast<CustomCallOp>(op);
  if (!call || call->getNumResults() == 0)
    return {};
  auto config =
      dyn_cast_if_present<DictionaryAttr>(call.getBackendConfigAttr());
  if (!config || !config.get("ordered"))
    return {};
  return call->getResults().back();
}

/// The infeed tag `op` leaves for the next infeed of its block (its first
/// result), if it is an infeed's custom call.
static Value infeedTagOf(Operation *op) {
  auto call = dyn_cast<CustomCallOp>(op);
  if (!call || call.getCallTargetName() != kInfeedTarget)
    return {};
  return call->getResult(0);
}

/// The value the latest op before `op` in its block left, by `valueOf`, or
/// null. Each search stops at the previous op of its chain, so the searches
/// of one block's ops in program order visit each op once per chain.
static Value findThreadedValue(Operation *op, Value (*valueOf)(Operation *)) {
  for (Operation *previous = op->getPrevNode(); previous;
       previous = previous->getPrevNode())
    if (Value value = valueOf(previous))
      return value;
  return {};
}

/// The ordering token the ordered callback `op` takes: the last one of its
/// block, or a zero `tensor<ui8>` for the first.
static Value getOrderingToken(OpBuilder &b, Operation *op) {
  if (Value token = findThreadedValue(op, orderingTokenOf))
    return token;
  auto type = RankedTensorType::get({}, b.getIntegerType(8, false));
  return arith::ConstantOp::create(
      b, op->getLoc(), DenseElementsAttr::get(type, ArrayRef<uint8_t>{0}));
}

static LogicalResult checkPlatform(Operation *op, Platform platform) {
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

/// The callback `callee` names from `op`, or null.
static CallbackOp lookupCallback(Operation *op, FlatSymbolRefAttr callee,
                                 SymbolTableCollection *symbolTables) {
  if (symbolTables)
    return symbolTables->lookupNearestSymbolFrom<CallbackOp>(op,
                                                             callee.getAttr());
  return SymbolTable::lookupNearestSymbolFrom<CallbackOp>(op, callee.getAttr());
}

static LogicalResult checkCallbackId(Operation *op, FlatSymbolRefAttr callee,
                                     SymbolTableCollection &symbolTables) {
  CallbackOp callback = lookupCallback(op, callee, &symbolTables);
  if (!callback)
    return op->emitOpError() << "references unknown callback " << callee;
  if (!callback.getId())
    return op->emitOpError() << "calls callback " << callee
                             << ", which has no id; run "
                                "nx-assign-callback-ids first";
  return success();
}

/// The stream a stream op uses: its own, else the options' default.
static StringRef streamOf(StringAttr stream,
                          const NxToCustomCallOptions &options) {
  return stream ? stream.getValue() : StringRef(options.streamName);
}

static LogicalResult checkStream(Operation *op, StringAttr stream,
                                 const NxToCustomCallOptions &options) {
  StringRef name = streamOf(stream, options);
  if (name.empty())
    return op->emitOpError()
           << "has no stream; set its stream attribute or the stream-name "
              "option of convert-nx-to-custom-call";
  if (!encodeStreamHandle(name))
    return op->emitOpError()
           << "has a stream name of " << name.size()
           << " bytes, expected at most " << NXRT_STREAM_NAME_MAX;
  return success();
}

LogicalResult
nx::checkLowerableToCustomCall(Operation *op,
                               const NxToCustomCallOptions &options,
                               SymbolTableCollection &symbolTables) {
  if (failed(checkPlatform(op, options.platform)))
    return failure();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](ElixirCallOp call) {
        return checkCallbackId(op, call.getCalleeAttr(), symbolTables);
      })
      .Case([&](IoCallbackOp call) {
        return checkCallbackId(op, call.getCalleeAttr(), symbolTables);
      })
      .Case([&](OutfeedOp feed) {
        return checkStream(op, feed.getStreamAttr(), options);
      })
      .Case([&](InfeedOp feed) {
        return checkStream(op, feed.getStreamAttr(), options);
      })
      .Default([](Operation *) { return success(); });
}

namespace {

/// What the callback and stream patterns share: the options, and where
/// they look callbacks up.
template <typename OpTy>
class HostOpLowering : public OpConversionPattern<OpTy> {
public:
  HostOpLowering(MLIRContext *context, const NxToCustomCallOptions &options,
                 SymbolTableCollection *symbolTables)
      : OpConversionPattern<OpTy>(context), options(options),
        symbolTables(symbolTables) {}

protected:
  /// Checks what checkLowerableToCustomCall reports, without reporting:
  /// patterns only decline to match.
  LogicalResult matchHostOp(Operation *op, PatternRewriter &rewriter) const {
    if (options.platform != Platform::Host) {
      auto func = op->getParentOfType<FunctionOpInterface>();
      if (!func || !func->hasAttr(NxDialect::getHostOrchestratorAttrName()))
        return rewriter.notifyMatchFailure(op, "not on the host");
    }
    return success();
  }

  /// The id of the callback `op` calls, when the pattern applies.
  FailureOr<int64_t> matchCallback(Operation *op, FlatSymbolRefAttr callee,
                                   PatternRewriter &rewriter) const {
    if (failed(matchHostOp(op, rewriter)))
      return failure();
    CallbackOp callback = lookupCallback(op, callee, symbolTables);
    if (!callback || !callback.getId())
      return rewriter.notifyMatchFailure(op, "no callback id");
    return *callback.getId();
  }

  /// The backend_config entries of an ordered callback, of one with static
  /// arguments and of an optional one.
  static void appendCallConfig(Builder &b, bool ordered,
                               DictionaryAttr staticArgs, bool optional,
                               SmallVectorImpl<NamedAttribute> &config) {
    if (ordered)
      config.emplace_back(b.getStringAttr("ordered"), b.getBoolAttr(true));
    if (staticArgs)
      config.emplace_back(b.getStringAttr("static_args"), staticArgs);
    if (optional)
      config.emplace_back(b.getStringAttr("optional"), b.getBoolAttr(true));
  }

  /// A callback id's 8 little-endian bytes.
  static SmallVector<uint8_t> idBytes(int64_t id) {
    SmallVector<uint8_t> bytes;
    for (int i = 0; i < 8; ++i)
      bytes.push_back(
          static_cast<uint8_t>(static_cast<uint64_t>(id) >> (8 * i)));
    return bytes;
  }

  /// Adds the callback id (and server handle) to `config` or `operands`.
  void encodeCallbackId(OpBuilder &b, Location loc, int64_t id,
                        SmallVectorImpl<NamedAttribute> &config,
                        SmallVectorImpl<Value> &operands) const {
    if (options.idEncoding == CallbackIdEncoding::BackendConfig) {
      appendWords(b, config, "callback_id", idBytes(id));
    } else {
      auto type = RankedTensorType::get({}, b.getI64Type());
      operands.push_back(arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(type, b.getI64IntegerAttr(id))));
    }
    if (!options.callbackServerHandle.empty())
      appendWords(b, config, "callback_server_pid",
                  ArrayRef(reinterpret_cast<const uint8_t *>(
                               options.callbackServerHandle.data()),
                           options.callbackServerHandle.size()));
  }

  /// An `exla_runtime_callback` of callback `id` on `args`: the server
  /// operand first, then `args`; results `resultTypes`, the first
  /// `numAliased` of which alias the arguments of the same index. What
  /// EXLA's backend_config has no entry for goes into
  /// `nx.callback_attrs`: EXLA's handler takes exactly its three entries.
  CustomCallOp createRuntimeCallback(OpBuilder &b, Location loc, int64_t id,
                                     ValueRange args, TypeRange resultTypes,
                                     unsigned numAliased, bool hasSideEffect,
                                     ArrayRef<NamedAttribute> nxAttrs) const {
    SmallVector<uint8_t> server(options.callbackServerHandle.begin(),
                                options.callbackServerHandle.end());
    if (server.empty())
      server.assign(8, 0);
    auto serverType =
        RankedTensorType::get({static_cast<int64_t>(server.size())},
                              b.getIntegerType(8, /*isSigned=*/false));
    SmallVector<Value> operands{arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(serverType, ArrayRef(server)))};
    llvm::append_range(operands, args);
    SmallVector<NamedAttribute> config;
    appendWords(b, config, "callback_id", idBytes(id));
    config.emplace_back(b.getStringAttr("num_aliased_data_outputs"),
                        b.getIntegerAttr(b.getIntegerType(64, false),
                                         static_cast<uint64_t>(numAliased)));
    SmallVector<Attribute> aliases;
    for (unsigned i = 0; i < numAliased; ++i)
      aliases.push_back(
          getOutputOperandAlias(b.getContext(), i, resultTypes.size(), i + 1));
    CustomCallOp call =
        createCustomCall(b, loc, kRuntimeCallbackTarget, resultTypes, operands,
                         config, hasSideEffect, aliases);
    if (!nxAttrs.empty())
      call->setAttr(NxDialect::getCallbackAttrsAttrName(),
                    b.getDictionaryAttr(nxAttrs));
    return call;
  }

  /// How an nx.io_callback's custom call differs from an nx.elixir_call's.
  struct CallbackShape {
    /// The callback's results: an io_callback's are its arguments.
    TypeRange resultTypes;
    /// Whether each result passes the argument of its index through.
    bool passesArgsThrough = false;
    bool hasSideEffect = false;
    bool optional = false;
    /// The call target under CallbackAbi::ExlaLegacy.
    StringRef legacyTarget;
  };

  /// Replaces `op`, an nx.elixir_call or nx.io_callback of the converted
  /// `args`, by the custom call of the callback ABI the options select.
  LogicalResult lowerCallback(OpTy op, ValueRange args,
                              const CallbackShape &shape,
                              ConversionPatternRewriter &rewriter) const {
    FailureOr<int64_t> id = matchCallback(op, op.getCalleeAttr(), rewriter);
    if (failed(id))
      return failure();
    if (options.abi == CallbackAbi::ExlaRuntimeCallback) {
      SmallVector<NamedAttribute> nxAttrs;
      appendCallConfig(rewriter, op.getOrdered(), op.getStaticArgsAttr(),
                       shape.optional, nxAttrs);
      CustomCallOp call = createRuntimeCallback(
          rewriter, op.getLoc(), *id, args, shape.resultTypes,
          /*numAliased=*/shape.passesArgsThrough ? args.size() : 0,
          shape.hasSideEffect, nxAttrs);
      rewriter.replaceOp(op, call.getResults());
      return success();
    }
    replaceByLegacyCallback(op, *id, args, shape, rewriter);
    return success();
  }

  /// CallbackAbi::ExlaLegacy: an ordered callback threads a token as its
  /// last argument and result, which aliases it; the id goes into the
  /// backend_config or after every argument (encodeCallbackId).
  void replaceByLegacyCallback(OpTy op, int64_t id, ValueRange args,
                               const CallbackShape &shape,
                               ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    SmallVector<Value> operands(args);
    SmallVector<Type> resultTypes(shape.resultTypes);
    if (op.getOrdered()) {
      operands.push_back(getOrderingToken(rewriter, op));
      resultTypes.push_back(operands.back().getType());
    }
    // The id operand (if any) comes last and is not passed through.
    unsigned numPassed = operands.size();
    SmallVector<Attribute> aliases;
    if (shape.passesArgsThrough)
      aliases = passthroughAliases(rewriter.getContext(), numPassed,
                                   resultTypes.size());
    else if (op.getOrdered())
      aliases.push_back(
          getOutputOperandAlias(rewriter.getContext(), resultTypes.size() - 1,
                                resultTypes.size(), numPassed - 1));
    SmallVector<NamedAttribute> config;
    encodeCallbackId(rewriter, loc, id, config, operands);
    appendCallConfig(rewriter, op.getOrdered(), op.getStaticArgsAttr(),
                     shape.optional, config);
    CustomCallOp call =
        createCustomCall(rewriter, loc, shape.legacyTarget, resultTypes,
                         operands, config, shape.hasSideEffect, aliases);
    rewriter.replaceOp(op, call.getResults().take_front(op->getNumResults()));
  }

  /// The stream handle constant of a stream op, when the pattern applies.
  FailureOr<Value> matchStream(Operation *op, StringAttr stream,
                               PatternRewriter &rewriter) const {
    if (failed(matchHostOp(op, rewriter)))
      return failure();
    OpBuilder &b = rewriter;
    std::optional<SmallVector<uint8_t>> bytes =
        encodeStreamHandle(streamOf(stream, options));
    if (!bytes || streamOf(stream, options).empty())
      return rewriter.notifyMatchFailure(op, "no usable stream");
    auto type = RankedTensorType::get({static_cast<int64_t>(bytes->size())},
                                      b.getIntegerType(8, /*isSigned=*/false));
    return arith::ConstantOp::create(
               b, op->getLoc(), DenseElementsAttr::get(type, ArrayRef(*bytes)))
        .getResult();
  }

  /// A copy: patterns may outlive the caller's options.
  NxToCustomCallOptions options;
  SymbolTableCollection *symbolTables;
};

struct ElixirCallLowering final : HostOpLowering<ElixirCallOp> {
  using HostOpLowering::HostOpLowering;

  LogicalResult
  matchAndRewrite(ElixirCallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    CallbackShape shape;
    shape.resultTypes = op.getResultTypes();
    shape.hasSideEffect = !op.getPure();
    shape.legacyTarget = options.callbackTarget;
    return lowerCallback(op, adaptor.getArgs(), shape, rewriter);
  }
};

struct IoCallbackLowering final : HostOpLowering<IoCallbackOp> {
  using HostOpLowering::HostOpLowering;

  LogicalResult
  matchAndRewrite(IoCallbackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    CallbackShape shape;
    // EXLA's io_call: every result passes an argument through.
    shape.resultTypes = op.getArgs().getTypes();
    shape.passesArgsThrough = true;
    shape.hasSideEffect = true;
    shape.optional = op.getOptional();
    shape.legacyTarget = options.ioCallbackTarget;
    return lowerCallback(op, adaptor.getArgs(), shape, rewriter);
  }
};

struct OutfeedLowering final : HostOpLowering<OutfeedOp> {
  using HostOpLowering::HostOpLowering;

  LogicalResult
  matchAndRewrite(OutfeedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    FailureOr<Value> handle = matchStream(op, op.getStreamAttr(), rewriter);
    if (failed(handle))
      return failure();
    SmallVector<Value> operands{*handle};
    llvm::append_range(operands, adaptor.getInputs());
    auto flagType =
        RankedTensorType::get({}, rewriter.getIntegerType(8, false));
    createCustomCall(rewriter, op.getLoc(), kOutfeedTarget, flagType, operands,
                     /*config=*/{}, /*hasSideEffect=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

struct InfeedLowering final : HostOpLowering<InfeedOp> {
  using HostOpLowering::HostOpLowering;

  LogicalResult
  matchAndRewrite(InfeedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    Location loc = op.getLoc();
    FailureOr<Value> handle = matchStream(op, op.getStreamAttr(), rewriter);
    if (failed(handle))
      return failure();
    // The infeeds of a block thread one tag, starting from zero.
    auto tagType = RankedTensorType::get({kStreamTagSize},
                                         rewriter.getIntegerType(8, false));
    Value tag = findThreadedValue(op, infeedTagOf);
    if (!tag) {
      SmallVector<uint8_t> zero(kStreamTagSize, 0);
      tag = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(tagType, ArrayRef<uint8_t>(zero)));
    }
    SmallVector<Type> resultTypes{tagType};
    llvm::append_range(resultTypes, op.getResultTypes());
    CustomCallOp call =
        createCustomCall(rewriter, loc, kInfeedTarget, resultTypes,
                         ValueRange{*handle, tag}, /*config=*/{},
                         /*hasSideEffect=*/true);
    rewriter.replaceOp(op, call.getResults().drop_front());
    return success();
  }
};

/// What the block lowering registry is asked about `op` on `platform`.
static std::optional<CustomCallSpec> lookupBlockLowering(BlockOp op,
                                                         Platform platform) {
  BlockLoweringRequest request;
  request.kind = op.getName();
  request.config = op.getConfig();
  request.inputTypes = op.getInputs().getTypes();
  request.resultTypes = op.getResultTypes();
  request.platform = stringifyPlatform(platform);
  request.op = op;
  return BlockLoweringRegistry::get().lookup(request);
}

/// nx.block: the registry's custom call, or the default implementation.
struct BlockLowering final : OpRewritePattern<BlockOp> {
  BlockLowering(MLIRContext *context, Platform platform)
      : OpRewritePattern<BlockOp>(context), platform(platform) {}

  LogicalResult matchAndRewrite(BlockOp op,
                                PatternRewriter &rewriter) const final {
    std::optional<CustomCallSpec> spec = lookupBlockLowering(op, platform);
    if (!spec) {
      // Skip: the default implementation replaces the block.
      op.inlineDefaultImplementation(rewriter);
      return success();
    }
    return lowerToCustomCall(op, *spec, rewriter);
  }

private:
  static LogicalResult checkTypes(BlockOp op, const CustomCallSpec &spec,
                                  ArrayRef<Type> elementTypes, TypeRange types,
                                  StringRef what) {
    for (auto [index, type] : llvm::enumerate(types))
      if (!isa<RankedTensorType>(type))
        return op.emitOpError()
               << "cannot lower to custom call \"" << spec.callTargetName
               << "\": " << what << " #" << index << " has type " << type
               << ", expected a ranked tensor";
    if (!elementTypes.empty() && elementTypes.size() != types.size())
      return op.emitOpError()
             << "block lowering for \"" << op.getName() << "\" gave "
             << elementTypes.size() << " " << what
             << " element types, expected " << types.size();
    return success();
  }

  /// Converts every value in `values` to the matching element type of
  /// `elementTypes` (none: left as is); reports at the block when arith has
  /// no such conversion. Nothing is created unless all convert.
  static FailureOr<SmallVector<Value>>
  convertAll(BlockOp op, const CustomCallSpec &spec, ValueRange values,
             ArrayRef<Type> elementTypes, StringRef what,
             PatternRewriter &rewriter) {
    SmallVector<Value> converted;
    for (auto [index, value] : llvm::enumerate(values)) {
      if (elementTypes.empty()) {
        converted.push_back(value);
        continue;
      }
      Type to = elementTypes[index];
      Value result = convertElementType(rewriter, op.getLoc(), value, to);
      if (!result)
        return op.emitOpError()
               << "cannot convert " << what << " #" << index << " from "
               << cast<RankedTensorType>(value.getType()).getElementType()
               << " to " << to << " for custom call \"" << spec.callTargetName
               << "\"";
      converted.push_back(result);
    }
    return converted;
  }

  LogicalResult lowerToCustomCall(BlockOp op, const CustomCallSpec &spec,
                                  PatternRewriter &rewriter) const {
    if (spec.callTargetName.empty())
      return op.emitOpError() << "block lowering for \"" << op.getName()
                              << "\" returned an empty call_target_name";
    if (failed(checkTypes(op, spec, spec.operandElementTypes,
                          op.getInputs().getTypes(), "input")) ||
        failed(checkTypes(op, spec, spec.resultElementTypes,
                          op.getResultTypes(), "result")))
      return failure();
    FailureOr<SmallVector<Value>> operands = convertAll(
        op, spec, op.getInputs(), spec.operandElementTypes, "input", rewriter);
    if (failed(operands))
      return failure();
    SmallVector<Type> resultTypes;
    for (auto [index, type] : llvm::enumerate(op.getResultTypes()))
      resultTypes.push_back(spec.resultElementTypes.empty()
                                ? type
                                : cast<RankedTensorType>(type).clone(
                                      spec.resultElementTypes[index]));
    CustomCallOp call = createCustomCall(
        rewriter, op.getLoc(), spec.callTargetName, resultTypes, *operands,
        spec.attributes, spec.hasSideEffect);
    // createCustomCall omits an empty backend_config; a block custom call
    // always carries its (possibly empty) dictionary, as EXLA's do.
    if (spec.attributes.empty())
      call.setBackendConfigAttr(rewriter.getDictionaryAttr({}));
    SmallVector<Type> wanted;
    for (Type type : op.getResultTypes())
      wanted.push_back(cast<RankedTensorType>(type).getElementType());
    FailureOr<SmallVector<Value>> results =
        convertAll(op, spec, call.getResults(),
                   spec.resultElementTypes.empty() ? ArrayRef<Type>() : wanted,
                   "result", rewriter);
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, *results);
    return success();
  }

  Platform platform;
};

} // namespace

void nx::populateNxToCustomCallConversionPatterns(
    RewritePatternSet &patterns, const NxToCustomCallOptions &options,
    SymbolTableCollection *symbolTables) {
  patterns.add<ElixirCallLowering, IoCallbackLowering, OutfeedLowering,
               InfeedLowering>(patterns.getContext(), options, symbolTables);
}

void nx::populateNxBlockToCustomCallPatterns(RewritePatternSet &patterns,
                                             Platform platform) {
  patterns.add<BlockLowering>(patterns.getContext(), platform);
}

namespace {

struct ConvertNxToCustomCallPass final
    : nx::impl::ConvertNxToCustomCallPassBase<ConvertNxToCustomCallPass> {
  using Base::Base;

  // One clear error for a value an enum option does not take, before
  // LLVM's command-line parser prints its own.
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) final {
    if (failed(checkEnumPassOption(getArgument(), options, platform,
                                   errorHandler)) ||
        failed(checkEnumPassOption(getArgument(), options, callbackAbi,
                                   errorHandler)) ||
        failed(checkEnumPassOption(getArgument(), options, idEncoding,
                                   errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void runOnOperation() final {
    ModuleOp module = getOperation();
    if (callbackAbi == CallbackAbi::ExlaRuntimeCallback &&
        idEncoding == CallbackIdEncoding::Operand) {
      module.emitError()
          << "callback-id-encoding=operand needs callback-abi=exla-legacy: "
             "exla_runtime_callback takes the callback id in backend_config";
      return signalPassFailure();
    }
    if (failed(lowerBlocks(module)))
      return signalPassFailure();
    if (blocksOnly)
      return;

    NxToCustomCallOptions options;
    options.platform = platform;
    options.abi = callbackAbi;
    options.callbackTarget = callbackTarget;
    options.ioCallbackTarget = ioCallbackTarget;
    options.idEncoding = idEncoding;
    options.callbackServerHandle = callbackServerHandle;
    options.streamName = streamName;

    // Every problem is reported first, once, at its op; the conversion then
    // cannot fail on a host op.
    SymbolTableCollection symbolTables;
    bool invalid = false;
    module.walk([&](Operation *op) {
      if (!isa<ElixirCallOp, IoCallbackOp, OutfeedOp, InfeedOp>(op))
        return;
      invalid |= failed(checkLowerableToCustomCall(op, options, symbolTables));
      if (isa<ElixirCallOp, IoCallbackOp>(op))
        nx::addStatistic(numCallbacks);
      else
        nx::addStatistic(numStreamOps);
    });
    if (invalid)
      return signalPassFailure();

    ConversionTarget target(getContext());
    target.addIllegalOp<ElixirCallOp, IoCallbackOp, OutfeedOp, InfeedOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    populateNxToCustomCallConversionPatterns(patterns, options, &symbolTables);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }

private:
  /// Lowers every nx.block, innermost first, so that callbacks inside
  /// inlined default implementations are lowered with the others.
  LogicalResult lowerBlocks(ModuleOp module) {
    SmallVector<Operation *> blocks;
    module.walk([&](BlockOp op) { blocks.push_back(op); });
    if (blocks.empty())
      return success();
    RewritePatternSet patterns(&getContext());
    populateNxBlockToCustomCallPatterns(patterns, platform);
    FrozenRewritePatternSet frozen(std::move(patterns));
    PatternApplicator applicator(frozen);
    applicator.applyDefaultCostModel();
    // Once per block: the pattern reports why it declines, and a block it
    // declined must not be tried (and reported) again.
    PatternRewriter rewriter(&getContext());
    bool allLowered = true;
    for (Operation *op : blocks) {
      // Counted here, from the answer the pattern acts on, so that the
      // pattern itself stays free of side effects.
      bool native =
          lookupBlockLowering(cast<BlockOp>(op), platform).has_value();
      rewriter.setInsertionPoint(op);
      if (failed(applicator.matchAndRewrite(op, rewriter))) {
        allLowered = false;
        continue;
      }
      nx::addStatistic(native ? numNativeBlocks : numInlinedBlocks);
    }
    return success(allLowered);
  }
};

} // namespace

#undef DEBUG_TYPE
