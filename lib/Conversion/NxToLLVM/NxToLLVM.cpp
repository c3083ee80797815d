//===- NxToLLVM.cpp - nx.invoke to libnxrt calls
//---------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/NxToLLVM/NxToLLVM.h"

#include "AllocationChecks.h"
#include "AttributeEncoding.h"
#include "HostCallFrame.h"
#include "RuntimeFunctions.h"
#include "SiteRecords.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"
#include "nx/Conversion/Passes.h"
#include "nx/Conversion/StreamHandle.h"
#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Dialect/Nx/IR/RuntimeTypes.h"
#include "nx/Support/PassStatistics.h"

#include "nxrt/nxrt.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "convert-nx-to-llvm"

namespace mlir::nx {
#define GEN_PASS_DEF_CONVERTNXTOLLVMPASS
#include "nx/Conversion/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;
namespace symbols = mlir::nx::runtime_symbols;

// InvokeKind mirrors nxrt_site_kind_t value for value.
static_assert(static_cast<int>(InvokeKind::ElixirCall) ==
              NXRT_SITE_ELIXIR_CALL);
static_assert(static_cast<int>(InvokeKind::IoCallback) ==
              NXRT_SITE_IO_CALLBACK);
static_assert(static_cast<int>(InvokeKind::CustomCall) ==
              NXRT_SITE_CUSTOM_CALL);
static_assert(static_cast<int>(InvokeKind::Outfeed) == NXRT_SITE_OUTFEED);
static_assert(static_cast<int>(InvokeKind::Infeed) == NXRT_SITE_INFEED);
static_assert(static_cast<int>(InvokeKind::OptionalIoCallback) ==
              NXRT_SITE_OPTIONAL_IO_CALLBACK);

static bool isStreamKind(InvokeKind kind) {
  return kind == InvokeKind::Outfeed || kind == InvokeKind::Infeed;
}

/// Checks what an invoke needs besides its attributes: a stream name that
/// fits a handle, and a place in a function's body. Reports at the op.
static LogicalResult checkInvokeSite(InvokeOp op) {
  if (isStreamKind(op.getKind()) && !encodeStreamHandle(op.getName()))
    return op.emitOpError()
           << "names stream '" << op.getName() << "', which is longer than "
           << NXRT_STREAM_NAME_MAX << " bytes";
  if (!op->getParentOfType<FunctionOpInterface>())
    return op.emitOpError() << "must be inside a function";
  return checkInFunctionBody(op);
}

/// Whether a host call takes and returns nothing but tokens (perhaps
/// nothing at all): such a call needs no buffers.
static bool hasTokensOnly(Operation *op) {
  auto isToken = [](Type type) { return isa<TokenType>(type); };
  return llvm::all_of(op->getOperandTypes(), isToken) &&
         llvm::all_of(op->getResultTypes(), isToken);
}

namespace {

/// The views of one invoke, in the order nxrt_invoke takes them: stream ops
/// take the handle (and infeeds the tag) before the op's own buffers;
/// infeeds return the next tag first.
/// A custom call's tokens take their places among its buffers, as TokenType.
struct InvokeViewTypes {
  SmallVector<Type> args;
  SmallVector<Type> results;
};

/// `buffers` with a token inserted at each of `tokens` (increasing positions
/// in the result, as the verifier ensures). Each token is `token`, whatever
/// stands for one in the caller's list.
template <typename T>
static SmallVector<T> interleaveTokens(ArrayRef<T> buffers,
                                       std::optional<ArrayRef<int64_t>> tokens,
                                       T token) {
  SmallVector<T> all(buffers);
  for (int64_t position : tokens.value_or(ArrayRef<int64_t>()))
    all.insert(all.begin() + position, token);
  return all;
}

/// The shape a view's dims come from: a token has none.
static ArrayRef<int64_t> getViewShape(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return memref.getShape();
  return {};
}

/// One nx.invoke: its views point at the buffers in place, its constant
/// bytes (dims, stream handle) live in its site's record, and a failed call
/// stops the function. In phases: describe the site (the only one that can
/// fail: it reports at the op), lay out its views and record, fill the
/// views, call nxrt_invoke and stop on failure.
struct InvokeOpLowering final : ConvertOpToLLVMPattern<InvokeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(InvokeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    FailureOr<SiteDescription> site = describeSite(op);
    if (failed(site))
      return failure();
    auto module = op->getParentOfType<ModuleOp>();
    FailureOr<LLVM::LLVMFuncOp> invoke =
        lookupOrCreateRuntimeFunction(rewriter, module, symbols::kInvoke);
    if (failed(invoke))
      return failure();
    InvokeViewTypes types = getViewTypes(op, *site);
    for (Type type : llvm::concat<Type>(types.args, types.results))
      site->viewDims.emplace_back(getViewShape(type));
    FailureOr<SiteRecord> record = prependSiteRecord(rewriter, module, *site);
    if (failed(record))
      return failure();
    FailureOr<HostCallFrame> frame =
        getOrCreateHostCallFrame(rewriter, op, types.args.size(),
                                 types.results.size(), *getTypeConverter());
    if (failed(frame))
      return failure();

    Location loc = op.getLoc();
    RecordAccess recordAccess(rewriter, loc, record->global);
    SmallVector<Value> argData, resultData;
    if (isStreamKind(op.getKind()))
      argData.push_back(recordAccess.bytesAt(record->streamHandleOffset));
    if (op.getKind() == InvokeKind::Infeed) {
      Value tag = createInfeedTag(rewriter, op, *frame);
      argData.push_back(tag);
      resultData.push_back(tag);
    }
    appendBufferData(rewriter, loc, op.getInputs().getTypes(),
                     adaptor.getInputs(), op.getTokenInputs(), argData);
    appendBufferData(rewriter, loc, op.getOutputs().getTypes(),
                     adaptor.getOutputs(), op.getTokenOutputs(), resultData);
    ArrayRef<int64_t> dimsOffsets = record->dimsOffsets;
    storeViews(rewriter, loc, frame->argViews, types.args, argData,
               dimsOffsets.take_front(types.args.size()), recordAccess);
    storeViews(rewriter, loc, frame->resultViews, types.results, resultData,
               dimsOffsets.drop_front(types.args.size()), recordAccess);

    // The runtime records a failure in the run (the host reads it when the
    // run ends); compiled code stops: the results were not written.
    Value status =
        LLVM::CallOp::create(
            rewriter, loc, *invoke,
            ValueRange{frame->run, recordAccess.site(), frame->argViews,
                       createI64(rewriter, loc, types.args.size()),
                       frame->resultViews,
                       createI64(rewriter, loc, types.results.size())})
            .getResult();
    Value null = LLVM::ZeroOp::create(rewriter, loc, status.getType());
    Value failed = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                                        status, null);
    rewriter.eraseOp(op);
    stopIfFailed(rewriter, failed.getDefiningOp(), failed, status, *frame);
    return success();
  }

private:
  /// Addresses inside a site's record global.
  class RecordAccess {
  public:
    RecordAccess(RewriterBase &rewriter, Location loc, LLVM::GlobalOp global)
        : rewriter(rewriter), loc(loc), recordType(global.getGlobalType()),
          ptrType(LLVM::LLVMPointerType::get(rewriter.getContext())) {
      address = LLVM::AddressOfOp::create(rewriter, loc, global);
    }
    /// The record's constant bytes (dims, stream handle) at `offset`.
    Value bytesAt(int64_t offset) const {
      return LLVM::GEPOp::create(
          rewriter, loc, ptrType, recordType, address,
          ArrayRef<LLVM::GEPArg>{0, kSiteRecordBytesField,
                                 static_cast<int32_t>(offset)});
    }
    /// The site handle __nx_init stored in the record.
    Value site() const {
      Value field =
          LLVM::GEPOp::create(rewriter, loc, ptrType, recordType, address,
                              ArrayRef<LLVM::GEPArg>{0, kSiteRecordSiteField});
      return LLVM::LoadOp::create(rewriter, loc, ptrType, field);
    }

  private:
    RewriterBase &rewriter;
    Location loc;
    Type recordType;
    Type ptrType;
    Value address;
  };

  static Value createI64(RewriterBase &rewriter, Location loc, int64_t value) {
    return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                    rewriter.getI64IntegerAttr(value));
  }

  /// What the runtime is told about the site, once the op is known to be
  /// lowerable; reports at the op otherwise.
  FailureOr<SiteDescription> describeSite(InvokeOp op) const {
    if (failed(checkInvokeSite(op)))
      return failure();
    auto func = cast<FunctionOpInterface>(op->getParentOp());
    if (failed(checkCanStop(func, op.getLoc(), *getTypeConverter())))
      return failure();
    FailureOr<std::string> attrs =
        encodeHostAttributes(op.getAttrs(), op.getLoc());
    if (failed(attrs))
      return failure();
    SiteDescription site{op.getKind(),
                         op.getName().str(),
                         formatFileLocation(op.getLoc()),
                         std::move(*attrs),
                         {},
                         std::nullopt};
    if (isStreamKind(op.getKind()))
      site.streamHandle = encodeStreamHandle(op.getName());
    return site;
  }

  static InvokeViewTypes getViewTypes(InvokeOp op,
                                      const SiteDescription &site) {
    MLIRContext *context = op.getContext();
    auto bytesType = [&](int64_t size) {
      return MemRefType::get(
          {size}, IntegerType::get(context, 8, IntegerType::Unsigned));
    };
    InvokeViewTypes types;
    if (site.streamHandle)
      types.args.push_back(bytesType(site.streamHandle->size()));
    if (op.getKind() == InvokeKind::Infeed) {
      types.args.push_back(bytesType(kStreamTagSize));
      types.results.push_back(bytesType(kStreamTagSize));
    }
    Type token = TokenType::get(context);
    SmallVector<Type> inputs(op.getInputs().getTypes());
    SmallVector<Type> outputs(op.getOutputs().getTypes());
    llvm::append_range(
        types.args, interleaveTokens<Type>(inputs, op.getTokenInputs(), token));
    llvm::append_range(
        types.results,
        interleaveTokens<Type>(outputs, op.getTokenOutputs(), token));
    return types;
  }

  /// The tag the stream protocol threads through infeeds; compiled code
  /// orders its infeeds by control flow, so each starts at zero. In the
  /// entry block, after the frame: in a loop it would grow the stack.
  static Value createInfeedTag(RewriterBase &rewriter, InvokeOp op,
                               const HostCallFrame &frame) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfterValue(frame.resultViews);
    Location loc = op->getParentOp()->getLoc();
    Value tag = LLVM::AllocaOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
        rewriter.getI64Type(), createI64(rewriter, loc, 1));
    LLVM::StoreOp::create(rewriter, loc, createI64(rewriter, loc, 0), tag);
    return tag;
  }

  /// The address of each buffer's first element; null for each token, at
  /// its position among them.
  void appendBufferData(RewriterBase &rewriter, Location loc, TypeRange types,
                        ValueRange descriptors,
                        std::optional<ArrayRef<int64_t>> tokens,
                        SmallVectorImpl<Value> &data) const {
    Type ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    SmallVector<Value> addresses;
    for (auto [type, descriptor] : llvm::zip(types, descriptors)) {
      MemRefDescriptor memref(descriptor);
      Value aligned = memref.alignedPtr(rewriter, loc);
      Value offset = memref.offset(rewriter, loc);
      Type element = getTypeConverter()->convertType(
          cast<MemRefType>(type).getElementType());
      addresses.push_back(LLVM::GEPOp::create(rewriter, loc, ptrType, element,
                                              aligned,
                                              ArrayRef<LLVM::GEPArg>{offset}));
    }
    Value null;
    if (tokens && !tokens->empty())
      null = LLVM::ZeroOp::create(rewriter, loc, ptrType);
    llvm::append_range(data, interleaveTokens<Value>(addresses, tokens, null));
  }

  /// Each view {dtype, rank, dims, data}, field by field: the JIT's fast
  /// instruction selector handles scalar stores, not a store of the whole
  /// struct.
  static void storeViews(RewriterBase &rewriter, Location loc, Value views,
                         ArrayRef<Type> types, ArrayRef<Value> data,
                         ArrayRef<int64_t> dimsOffsets,
                         const RecordAccess &record) {
    MLIRContext *context = rewriter.getContext();
    Type ptrType = LLVM::LLVMPointerType::get(context);
    Type tensorType = getTensorViewType(context);
    auto i32 = [&](int32_t value) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                      rewriter.getI32IntegerAttr(value));
    };
    for (auto [index, type, pointer, dimsOffset] :
         llvm::enumerate(types, data, dimsOffsets)) {
      Value view = LLVM::GEPOp::create(
          rewriter, loc, ptrType, tensorType, views,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
      auto field = [&](Value value, int32_t position) {
        Value address =
            LLVM::GEPOp::create(rewriter, loc, ptrType, tensorType, view,
                                ArrayRef<LLVM::GEPArg>{0, position});
        LLVM::StoreOp::create(rewriter, loc, value, address);
      };
      auto memref = dyn_cast<MemRefType>(type);
      field(i32(memref ? getRuntimeDType(memref.getElementType()) : NXRT_TOKEN),
            0);
      field(i32(memref ? memref.getRank() : 0), 1);
      field(record.bytesAt(dimsOffset), 2);
      field(pointer, 3);
    }
  }
};

/// Callback declarations, and the module's ids for them, are resolved into
/// sites: the runtime binds callbacks by name when __nx_init adds them.
struct CallbackOpLowering final : ConvertOpToLLVMPattern<CallbackOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(CallbackOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const final {
    Operation *parent = op->getParentOp();
    StringLiteral ids = NxDialect::getCallbackIdsAttrName();
    if (parent && parent->hasAttr(ids))
      rewriter.modifyOpInPlace(parent, [&] { parent->removeAttr(ids); });
    rewriter.eraseOp(op);
    return success();
  }
};

/// A host call still on tensors under `--convert-to-llvm`, which runs no
/// bufferization. Calls that take and return no tensor need no buffers: they
/// become nx.invoke here, as convert-nx-to-llvm does. Any other is reported
/// at the op: converting the module around it would erase the callback it
/// calls.
/// Without a type converter: tensor operands have no LLVM type, and the
/// pattern must see the op to report it.
template <typename HostOp>
struct UnbufferizedHostOpLowering final : OpConversionPattern<HostOp> {
  using OpConversionPattern<HostOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(HostOp op, typename HostOp::Adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!hasTokensOnly(op))
      return op.emitOpError()
             << "must be bufferized into 'nx.invoke' before conversion to "
                "LLVM (run one-shot-bufferize first, or nx-lower-to-cpu "
                "instead)";
    bufferization::BufferizationOptions options;
    bufferization::BufferizationState state;
    return cast<bufferization::BufferizableOpInterface>(op.getOperation())
        .bufferize(rewriter, options, state);
  }
};

/// What makes `--convert-to-llvm` lower nx.
struct NxToLLVMDialectInterface final : ConvertToLLVMPatternInterface {
  using ConvertToLLVMPatternInterface::ConvertToLLVMPatternInterface;

  void populateConvertToLLVMConversionPatterns(
      ConversionTarget &target, LLVMTypeConverter &converter,
      RewritePatternSet &patterns) const final {
    target.addIllegalOp<InvokeOp, CallbackOp>();
    // Host calls on tensors cannot be lowered without bufferization; being
    // illegal, they fail the conversion (at the op) instead of losing
    // their callback.
    target.addIllegalOp<ElixirCallOp, IoCallbackOp, CustomCallOp, InfeedOp,
                        OutfeedOp>();
    patterns.add<UnbufferizedHostOpLowering<ElixirCallOp>,
                 UnbufferizedHostOpLowering<IoCallbackOp>,
                 UnbufferizedHostOpLowering<CustomCallOp>,
                 UnbufferizedHostOpLowering<InfeedOp>,
                 UnbufferizedHostOpLowering<OutfeedOp>>(patterns.getContext());
    // Lowering the callbacks drops the module's ids for them: the module is
    // modified in place and must stay legal.
    target.addLegalOp<ModuleOp>();
    populateNxToLLVMConversionPatterns(converter, patterns);
  }
};

} // namespace

void nx::populateNxToLLVMConversionPatterns(const LLVMTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<InvokeOpLowering, CallbackOpLowering>(converter);
}

void nx::registerConvertNxToLLVMInterface(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, NxDialect *dialect) {
    dialect->addInterfaces<NxToLLVMDialectInterface>();
  });
}

/// Host calls that take and return no tensor (a `() -> ()` callback, a
/// custom call on tokens only) are left alone by One-Shot Bufferize, which
/// only rewrites ops with tensor operands or results. They need no buffers:
/// their own bufferization turns them into nx.invoke here. Any other host op
/// still on tensors was not bufferized, and cannot be lowered.
static LogicalResult invokeTensorFreeHostCalls(ModuleOp module) {
  SmallVector<Operation *> hostOps;
  module.walk([&](Operation *op) {
    if (isa<ElixirCallOp, IoCallbackOp, CustomCallOp, InfeedOp, OutfeedOp>(op))
      hostOps.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  bufferization::BufferizationOptions options;
  bufferization::BufferizationState state;
  for (Operation *op : hostOps) {
    auto bufferizable = dyn_cast<bufferization::BufferizableOpInterface>(op);
    if (!hasTokensOnly(op) || !bufferizable)
      return op->emitOpError()
             << "must be bufferized into 'nx.invoke' before "
                "convert-nx-to-llvm (run one-shot-bufferize first)";
    rewriter.setInsertionPoint(op);
    if (failed(bufferizable.bufferize(rewriter, options, state)))
      return failure();
  }
  return success();
}

/// Makes every call of a function that may stop on a failed host call
/// stop its caller too, transitively: after the call, the caller checks
/// nxrt_run_failed and takes its own exit. `stopping` holds the functions
/// with host calls. Declarations of func.func (nx code compiled on its own,
/// such as separately compiled stages) may stop as well, unless they are
/// `llvm.readnone` (libm's, from convert-math-to-libm: a function without
/// effects cannot fail a run) or libnxrt's nxrt_compute_threads (declared
/// by the OpenMP lowering); llvm.func declarations are the C runtime's and
/// libc's, which do not.
static LogicalResult stopAfterFailedCalls(ModuleOp module,
                                          ArrayRef<Operation *> stopping,
                                          const LLVMTypeConverter &converter) {
  SymbolTable symbols(module);
  llvm::DenseMap<Operation *, SmallVector<Operation *>> callsOf;
  llvm::SetVector<Operation *> mayStop(stopping.begin(), stopping.end());
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isExternal() &&
        !func->hasAttr(LLVM::LLVMDialect::getReadnoneAttrName()) &&
        func.getSymName() != symbols::kComputeThreads)
      mayStop.insert(func);
  module.walk([&](CallOpInterface call) {
    auto callee = dyn_cast_if_present<FlatSymbolRefAttr>(
        dyn_cast<SymbolRefAttr>(call.getCallableForCallee()));
    if (!callee)
      return;
    if (Operation *func = symbols.lookup(callee.getValue()))
      callsOf[func].push_back(call);
  });
  llvm::DenseSet<Operation *> checked;
  for (size_t i = 0; i < mayStop.size(); ++i) {
    for (Operation *call : callsOf.lookup(mayStop[i])) {
      checked.insert(call);
      if (auto caller = call->getParentOfType<FunctionOpInterface>())
        mayStop.insert(caller);
    }
  }
  if (checked.empty())
    return success();
  // From the last call to the first, so that splitting blocks moves each op
  // once.
  SmallVector<Operation *> calls;
  module.walk([&](CallOpInterface call) {
    if (checked.contains(call))
      calls.push_back(call);
  });
  IRRewriter rewriter(module.getContext());
  for (Operation *call : llvm::reverse(calls)) {
    if (failed(checkInFunctionBody(call)) ||
        failed(checkCanStop(cast<FunctionOpInterface>(call->getParentOp()),
                            call->getLoc(), converter)))
      return failure();
    FailureOr<HostCallFrame> frame =
        getOrCreateHostCallFrame(rewriter, call, 0, 0, converter);
    if (failed(frame) || failed(stopIfRunFailed(rewriter, call, *frame)))
      return failure();
  }
  return success();
}

namespace {

struct ConvertNxToLLVMPass final
    : nx::impl::ConvertNxToLLVMPassBase<ConvertNxToLLVMPass> {
  void runOnOperation() final {
    ModuleOp module = getOperation();
    for (StringRef name : {symbols::kInitFunction, symbols::kSiteList}) {
      if (Operation *defined = module.lookupSymbol(name)) {
        defined->emitOpError() << "defines '" << name
                               << "', which convert-nx-to-llvm generates; was "
                                  "it run twice?";
        return signalPassFailure();
      }
    }
    if (failed(checkRuntimeNamesAreFree(module)) ||
        failed(invokeTensorFreeHostCalls(module)))
      return signalPassFailure();
    LLVMTypeConverter converter(&getContext());

    // Every problem is reported first, at its op; a function that cannot
    // return early once, at its first host call.
    SmallVector<Operation *> invokes;
    llvm::SetVector<Operation *> stopping;
    bool invalid = false;
    module.walk([&](InvokeOp op) {
      if (failed(checkInvokeSite(op)) ||
          failed(encodeHostAttributes(op.getAttrs(), op.getLoc()))) {
        invalid = true;
        return;
      }
      auto func = cast<FunctionOpInterface>(op->getParentOp());
      if (stopping.insert(func) &&
          failed(checkCanStop(func, op.getLoc(), converter)))
        invalid = true;
      invokes.push_back(op);
    });
    if (invalid)
      return signalPassFailure();
    nx::addStatistic(numCallSites, invokes.size());

    // Every module defines __nx_init, with or without sites.
    IRRewriter rewriter(&getContext());
    if (failed(getOrCreateSiteList(rewriter, module)))
      return signalPassFailure();

    // Sites are numbered in program order, so __nx_init is deterministic;
    // the invokes are converted from the last to the first, so that
    // splitting their blocks moves every op once.
    SmallVector<Operation *> ops(llvm::reverse(invokes));
    for (auto callback : module.getOps<CallbackOp>())
      ops.push_back(callback);
    ConversionTarget target(getContext());
    target.addIllegalOp<InvokeOp, CallbackOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    populateNxToLLVMConversionPatterns(converter, patterns);
    // Everything that could fail was checked above, so the patterns never
    // back out of a change: without rollback bookkeeping, the ops each
    // split moves cost nothing extra.
    ConversionConfig config;
    config.allowPatternRollback = false;
    if (failed(
            applyPartialConversion(ops, target, std::move(patterns), config)))
      return signalPassFailure();
    if (failed(checkHeapAllocations(module, converter, stopping)) ||
        failed(stopAfterFailedCalls(module, stopping.getArrayRef(), converter)))
      return signalPassFailure();
    // Ids of callbacks never declared (the verifier allows none) go too.
    module->removeAttr(NxDialect::getCallbackIdsAttrName());
  }
};

} // namespace

#undef DEBUG_TYPE
