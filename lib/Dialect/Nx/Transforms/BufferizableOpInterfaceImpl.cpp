//===- BufferizableOpInterfaceImpl.cpp - bufferization of nx ops
//-----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/Transforms/BufferizableOpInterfaceImpl.h"

#include "nx/Dialect/Nx/IR/NxOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::nx;

/// The buffer of `tensor` in the form the runtime reads: contiguous and
/// row-major. A strided buffer (e.g. a slice) is copied into a fresh one.
static FailureOr<Value> getHostBuffer(RewriterBase &rewriter, Location loc,
                                      Value tensor,
                                      const BufferizationOptions &options,
                                      const BufferizationState &state) {
  FailureOr<Value> buffer = getBuffer(rewriter, tensor, options, state);
  if (failed(buffer))
    return failure();
  auto type = cast<MemRefType>(buffer->getType());
  if (type.getLayout().isIdentity())
    return buffer;
  auto contiguousType =
      MemRefType::get(type.getShape(), type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  FailureOr<Value> copy =
      options.createAlloc(rewriter, loc, contiguousType, /*dynShape=*/{});
  if (failed(copy) ||
      failed(options.createMemCpy(rewriter, loc, *buffer, *copy)))
    return failure();
  return copy;
}

static FailureOr<SmallVector<Value>>
getHostBuffers(RewriterBase &rewriter, Location loc, ValueRange tensors,
               const BufferizationOptions &options,
               const BufferizationState &state) {
  SmallVector<Value> buffers;
  for (Value tensor : tensors) {
    FailureOr<Value> buffer =
        getHostBuffer(rewriter, loc, tensor, options, state);
    if (failed(buffer))
      return failure();
    buffers.push_back(*buffer);
  }
  return buffers;
}

/// A fresh buffer for a result the host writes.
static FailureOr<Value> allocateResult(RewriterBase &rewriter, Location loc,
                                       Value result,
                                       const BufferizationOptions &options) {
  auto type = cast<RankedTensorType>(result.getType());
  return options.createAlloc(
      rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
      /*dynShape=*/{});
}

namespace {

/// Calls that read their operands and return fresh results: elixir_call
/// and infeed.
template <typename OpTy>
struct FreshResultsModel
    : public BufferizableOpInterface::ExternalModel<FreshResultsModel<OpTy>,
                                                    OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto concrete = cast<OpTy>(op);
    Location loc = op->getLoc();
    FailureOr<SmallVector<Value>> inputs =
        getHostBuffers(rewriter, loc, op->getOperands(), options, state);
    if (failed(inputs))
      return failure();
    SmallVector<Value> outputs;
    for (Value result : op->getResults()) {
      FailureOr<Value> buffer = allocateResult(rewriter, loc, result, options);
      if (failed(buffer))
        return failure();
      outputs.push_back(*buffer);
    }
    if (failed(createInvoke(concrete, rewriter, *inputs, outputs)))
      return failure();
    replaceOpWithBufferizedValues(rewriter, op, outputs);
    return success();
  }

  static LogicalResult createInvoke(ElixirCallOp call, RewriterBase &rewriter,
                                    ValueRange inputs, ValueRange outputs) {
    DictionaryAttr staticArgs = call.getStaticArgsAttr();
    InvokeOp::create(rewriter, call.getLoc(), InvokeKind::ElixirCall,
                     call.getCallee(),
                     staticArgs ? staticArgs : rewriter.getDictionaryAttr({}),
                     inputs, outputs, /*has_side_effect=*/!call.getPure());
    return success();
  }

  static LogicalResult createInvoke(InfeedOp infeed, RewriterBase &rewriter,
                                    ValueRange inputs, ValueRange outputs) {
    std::optional<StringRef> stream = infeed.getStream();
    if (!stream)
      return infeed.emitOpError()
             << "needs a 'stream' to be served by the runtime; name one on "
                "the op or run convert-nx-to-custom-call with stream-name";
    InvokeOp::create(rewriter, infeed.getLoc(), InvokeKind::Infeed, *stream,
                     rewriter.getDictionaryAttr({}), inputs, outputs,
                     /*has_side_effect=*/true);
    return success();
  }
};

/// Calls whose results are their operands: io_callback (results alias the
/// operands one to one) and outfeed (no results). Nothing is copied.
template <typename OpTy>
struct PassthroughModel
    : public BufferizableOpInterface::ExternalModel<PassthroughModel<OpTy>,
                                                    OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    if (op->getNumResults() == 0)
      return {};
    return {{op->getResult(operand.getOperandNumber()),
             BufferRelation::Equivalent}};
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    Location loc = op->getLoc();
    FailureOr<SmallVector<Value>> inputs =
        getHostBuffers(rewriter, loc, op->getOperands(), options, state);
    if (failed(inputs))
      return failure();
    InvokeKind kind;
    StringRef name;
    DictionaryAttr attrs = rewriter.getDictionaryAttr({});
    if (auto io = dyn_cast<IoCallbackOp>(op)) {
      kind = io.getOptional() ? InvokeKind::OptionalIoCallback
                              : InvokeKind::IoCallback;
      name = io.getCallee();
      if (DictionaryAttr staticArgs = io.getStaticArgsAttr())
        attrs = staticArgs;
    } else {
      auto outfeed = cast<OutfeedOp>(op);
      std::optional<StringRef> stream = outfeed.getStream();
      if (!stream)
        return outfeed.emitOpError()
               << "needs a 'stream' to be served by the runtime; name one on "
                  "the op or run convert-nx-to-custom-call with stream-name";
      kind = InvokeKind::Outfeed;
      name = *stream;
    }
    InvokeOp::create(rewriter, loc, kind, name, attrs, *inputs, ValueRange(),
                     /*has_side_effect=*/true);
    if (op->getNumResults() == 0) {
      rewriter.eraseOp(op);
      return success();
    }
    // The io_callback results are the very buffers it was given.
    SmallVector<Value> results;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      results.push_back(*buffer);
    }
    replaceOpWithBufferizedValues(rewriter, op, results);
    return success();
  }
};

/// nx.custom_call: results named by output_operand_aliases are written into
/// their operand's buffer (the target may update it in place); the others
/// get fresh buffers.
struct CustomCallModel
    : public BufferizableOpInterface::ExternalModel<CustomCallModel,
                                                    CustomCallOp> {
  /// Result aliased by operand `operandIndex`, if any.
  static std::optional<unsigned> getAliasedResult(CustomCallOp call,
                                                  unsigned operandIndex) {
    for (Attribute attr : call.getOutputOperandAliases()) {
      auto alias = cast<OutputOperandAliasAttr>(attr);
      if (alias.getOperandIndex() != static_cast<int64_t>(operandIndex))
        continue;
      ArrayRef<int64_t> indices = alias.getOutputTupleIndices();
      return indices.empty() ? 0u : static_cast<unsigned>(indices.front());
    }
    return std::nullopt;
  }

  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand,
                               const AnalysisState &) const {
    return getAliasedResult(cast<CustomCallOp>(op), operand.getOperandNumber())
        .has_value();
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    std::optional<unsigned> result =
        getAliasedResult(cast<CustomCallOp>(op), operand.getOperandNumber());
    if (!result)
      return {};
    return {{op->getResult(*result), BufferRelation::Equivalent}};
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto call = cast<CustomCallOp>(op);
    Location loc = op->getLoc();
    for (Type type : op->getResultTypes())
      if (!isa<TokenType>(type) && !isHostTensorType(type))
        return call.emitOpError()
               << "cannot run on the host runtime: result type " << type
               << " is not a statically shaped tensor of a host element type";
    // Tokens have no buffer: the invoke records where they were.
    SmallVector<int64_t> tokenInputs, tokenOutputs;
    SmallVector<Value> inputs;
    for (auto [index, operand] : llvm::enumerate(call.getInputs())) {
      if (isa<TokenType>(operand.getType())) {
        tokenInputs.push_back(index);
        continue;
      }
      FailureOr<Value> buffer =
          getHostBuffer(rewriter, loc, operand, options, state);
      if (failed(buffer))
        return failure();
      inputs.push_back(*buffer);
    }
    FailureOr<SmallVector<Value>> replacements =
        getResultValues(call, rewriter, inputs, options, tokenOutputs);
    if (failed(replacements))
      return failure();
    SmallVector<Value> outputs;
    for (Value value : *replacements)
      if (!isa<TokenType>(value.getType()))
        outputs.push_back(value);
    // A call that takes or returns a token is one whose order matters:
    // tokens exist to order effects, so such a call keeps its place even
    // when nothing reads its results.
    bool ordered = !tokenInputs.empty() || !tokenOutputs.empty();
    auto invoke = InvokeOp::create(rewriter, loc, InvokeKind::CustomCall,
                                   call.getCallTargetName(),
                                   getHostAttributes(call, rewriter), inputs,
                                   outputs, call.getHasSideEffect() || ordered);
    if (!tokenInputs.empty())
      invoke.setTokenInputs(tokenInputs);
    if (!tokenOutputs.empty())
      invoke.setTokenOutputs(tokenOutputs);
    replaceOpWithBufferizedValues(rewriter, op, *replacements);
    return success();
  }

private:
  /// The value each result is replaced by: its operand's buffer if aliased,
  /// else a fresh buffer; a token result becomes a fresh token, its position
  /// appended to `tokenOutputs`. `inputs` holds the operands' buffers,
  /// tokens left out.
  static FailureOr<SmallVector<Value>>
  getResultValues(CustomCallOp call, RewriterBase &rewriter,
                  ArrayRef<Value> inputs, const BufferizationOptions &options,
                  SmallVectorImpl<int64_t> &tokenOutputs) {
    Location loc = call.getLoc();
    // The buffer of each operand, by its position among all operands.
    SmallVector<Value> operandBuffers;
    const Value *nextInput = inputs.begin();
    for (Value operand : call.getInputs())
      operandBuffers.push_back(
          isa<TokenType>(operand.getType()) ? Value() : *nextInput++);
    SmallVector<Value> values(call->getNumResults());
    for (auto [index, buffer] : llvm::enumerate(operandBuffers))
      if (std::optional<unsigned> result = getAliasedResult(call, index))
        if (buffer)
          values[*result] = buffer;
    for (auto [index, value] : llvm::enumerate(values)) {
      if (value)
        continue;
      Value result = call->getResult(index);
      if (isa<TokenType>(result.getType())) {
        tokenOutputs.push_back(index);
        value = CreateTokenOp::create(rewriter, loc, result.getType());
        continue;
      }
      FailureOr<Value> buffer = allocateResult(rewriter, loc, result, options);
      if (failed(buffer))
        return failure();
      value = *buffer;
    }
    return values;
  }

  /// The target's attributes: a dictionary backend_config as it is; a
  /// string one (api_version < 4) as the string attribute "backend_config".
  static DictionaryAttr getHostAttributes(CustomCallOp call,
                                          RewriterBase &rewriter) {
    Attribute config = call.getBackendConfigAttr();
    if (!config)
      return rewriter.getDictionaryAttr({});
    if (auto dict = dyn_cast<DictionaryAttr>(config))
      return dict;
    return rewriter.getDictionaryAttr(
        rewriter.getNamedAttr("backend_config", config));
  }
};

} // namespace

void nx::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, NxDialect *) {
    context->loadDialect<memref::MemRefDialect,
                         bufferization::BufferizationDialect>();
    ElixirCallOp::attachInterface<FreshResultsModel<ElixirCallOp>>(*context);
    InfeedOp::attachInterface<FreshResultsModel<InfeedOp>>(*context);
    IoCallbackOp::attachInterface<PassthroughModel<IoCallbackOp>>(*context);
    OutfeedOp::attachInterface<PassthroughModel<OutfeedOp>>(*context);
    CustomCallOp::attachInterface<CustomCallModel>(*context);
  });
}
