//===- NxToLLVM.cpp - nx.invoke to libnxrt calls ---------------------------===//

#include "AttributeEncoding.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"
#include "nx/Conversion/NxToLLVM/RuntimeTypes.h"
#include "nx/Conversion/Passes.h"
#include "nx/Conversion/StreamHandle.h"
#include "nx/Dialect/Nx/IR/NxOps.h"

#include "nxrt/nxrt.h"

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
#include "llvm/Support/Endian.h"

namespace mlir::nx {
#define GEN_PASS_DEF_CONVERTNXTOLLVM
#include "nx/Conversion/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
using namespace mlir::nx;
namespace symbols = mlir::nx::runtime_symbols;

// InvokeKind mirrors nxrt_site_kind_t value for value.
static_assert(static_cast<int>(InvokeKind::ElixirCall) == NXRT_SITE_ELIXIR_CALL);
static_assert(static_cast<int>(InvokeKind::IoCallback) == NXRT_SITE_IO_CALLBACK);
static_assert(static_cast<int>(InvokeKind::CustomCall) == NXRT_SITE_CUSTOM_CALL);
static_assert(static_cast<int>(InvokeKind::Outfeed) == NXRT_SITE_OUTFEED);
static_assert(static_cast<int>(InvokeKind::Infeed) == NXRT_SITE_INFEED);
static_assert(static_cast<int>(InvokeKind::OptionalIoCallback) ==
              NXRT_SITE_OPTIONAL_IO_CALLBACK);

namespace {

/// "file:line:col" for the first file location inside `loc`, which is what
/// runtime errors print to point at the op.
std::string formatLocation(Location loc) {
  std::string result = "unknown location";
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      result = (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
                ":" + Twine(file.getColumn()))
                   .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result;
}

/// Module-level LLVM entities shared by all invokes: runtime declarations,
/// constant globals (deduplicated by content) and one site slot per invoke.
class RuntimeModuleBuilder {
public:
  explicit RuntimeModuleBuilder(ModuleOp module)
      : module(module), context(module.getContext()), symbols(module),
        ptrType(LLVM::LLVMPointerType::get(context)),
        i32Type(IntegerType::get(context, 32)),
        i64Type(IntegerType::get(context, 64)),
        // nxrt_tensor_t: {nxrt_dtype_t (an int), int32_t rank,
        //                 const int64_t *dims, void *data}
        tensorType(LLVM::LLVMStructType::getLiteral(
            context, {i32Type, i32Type, ptrType, ptrType})) {}

  /// The libnxrt functions compiled code calls, with their LLVM types.
  SmallVector<std::pair<StringRef, LLVM::LLVMFunctionType>>
  runtimeFunctions() const {
    Type voidType = LLVM::LLVMVoidType::get(context);
    auto fn = [](Type result, ArrayRef<Type> params) {
      return LLVM::LLVMFunctionType::get(result, params);
    };
    return {
        {symbols::kRunCurrent, fn(ptrType, {})},
        {symbols::kInvoke,
         fn(ptrType, {ptrType, ptrType, ptrType, i64Type, ptrType, i64Type})},
        {symbols::kRunFailed, fn(i32Type, {ptrType})},
        {symbols::kInvokeFailed, fn(voidType, {ptrType, ptrType})},
        {symbols::kProgramAddSite,
         fn(ptrType,
            {ptrType, i32Type, ptrType, ptrType, ptrType, i64Type, ptrType})},
        // Declared later by finalize-memref-to-llvm{use-generic-functions},
        // which would rename its declaration around a clash.
        {symbols::kGenericAlloc, fn(ptrType, {i64Type})},
        {symbols::kGenericAlignedAlloc, fn(ptrType, {i64Type, i64Type})},
        {symbols::kGenericFree, fn(voidType, {ptrType})},
    };
  }

  /// Fails (reporting at the clashing op) when the module already has a
  /// symbol named like a runtime function that is not an llvm.func of its
  /// type: the names are fixed, so the declarations would clash.
  LogicalResult checkRuntimeNamesAreFree() {
    for (auto [name, type] : runtimeFunctions()) {
      Operation *existing = symbols.lookup(name);
      if (!existing)
        continue;
      auto func = dyn_cast<LLVM::LLVMFuncOp>(existing);
      if (func && func.getFunctionType() == type)
        continue;
      InFlightDiagnostic diag = existing->emitOpError()
                                << "uses the name of libnxrt's '" << name
                                << "', which compiled code calls as " << type;
      if (func)
        diag << ", but it has type " << func.getFunctionType();
      return diag;
    }
    return success();
  }

  LLVM::LLVMFuncOp runtimeFunction(StringRef name) {
    if (auto func = symbols.lookup<LLVM::LLVMFuncOp>(name))
      return func;
    for (auto [known, type] : runtimeFunctions()) {
      if (known != name)
        continue;
      OpBuilder builder = atModuleEnd();
      auto func =
          LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
      symbols.insert(func);
      return func;
    }
    llvm_unreachable("not a runtime function");
  }

  LLVM::LLVMFuncOp runCurrent() {
    return runtimeFunction(symbols::kRunCurrent);
  }
  LLVM::LLVMFuncOp invoke() { return runtimeFunction(symbols::kInvoke); }
  LLVM::LLVMFuncOp runFailed() { return runtimeFunction(symbols::kRunFailed); }
  LLVM::LLVMFuncOp invokeFailed() {
    return runtimeFunction(symbols::kInvokeFailed);
  }
  LLVM::LLVMFuncOp programAddSite() {
    return runtimeFunction(symbols::kProgramAddSite);
  }

  /// An internal constant global holding `bytes` (deduplicated).
  LLVM::GlobalOp constantBytes(StringRef bytes, StringRef prefix) {
    auto key = (prefix + Twine('\0') + bytes).str();
    auto it = constants.find(key);
    if (it != constants.end())
      return it->second;
    OpBuilder builder(context);
    auto type = LLVM::LLVMArrayType::get(IntegerType::get(context, 8),
                                         std::max<size_t>(bytes.size(), 1));
    // 8-byte aligned: the runtime reads dims as int64_t words in place.
    auto global = LLVM::GlobalOp::create(
        builder, module.getLoc(), type, /*isConstant=*/true,
        LLVM::Linkage::Internal, (prefix + Twine(constants.size())).str(),
        StringAttr::get(context, bytes.empty() ? StringRef("\0", 1) : bytes),
        /*alignment=*/alignof(int64_t));
    insertAtModuleStart(global);
    constants.try_emplace(key, global);
    return global;
  }

  /// A NUL-terminated C string constant.
  LLVM::GlobalOp cString(StringRef value) {
    std::string bytes = value.str();
    bytes.push_back('\0');
    return constantBytes(bytes, "__nx_str_");
  }

  /// The dims array of a shape, as little-endian int64 words.
  LLVM::GlobalOp dims(ArrayRef<int64_t> shape) {
    std::string bytes(shape.size() * sizeof(int64_t), '\0');
    for (auto [index, dim] : llvm::enumerate(shape))
      llvm::support::endian::write<int64_t, llvm::endianness::little>(
          bytes.data() + index * sizeof(int64_t), dim);
    return constantBytes(bytes, "__nx_dims_");
  }

  /// The zero-initialized slot where __nx_init stores site `index`.
  LLVM::GlobalOp siteSlot(unsigned index) {
    OpBuilder builder(context);
    auto global = LLVM::GlobalOp::create(
        builder, module.getLoc(), ptrType, /*isConstant=*/false,
        LLVM::Linkage::Internal, ("__nx_site_" + Twine(index)).str(),
        /*value=*/Attribute());
    insertAtModuleStart(global);
    return global;
  }

  Value address(OpBuilder &builder, Location loc, LLVM::GlobalOp global) {
    return LLVM::AddressOfOp::create(builder, loc, global);
  }

  OpBuilder atModuleEnd() {
    OpBuilder builder(context);
    builder.setInsertionPointToEnd(module.getBody());
    return builder;
  }

  /// Inserts a detached global, renamed if its name is taken. The symbol
  /// table makes this O(1): a lookup in the module scans all its ops, which
  /// made the lowering quadratic in the number of call sites.
  void insertAtModuleStart(Operation *global) {
    symbols.insert(global, module.getBody()->begin());
  }

  ModuleOp module;
  MLIRContext *context;
  Type ptrType, i32Type, i64Type;
  LLVM::LLVMStructType tensorType;

private:
  SymbolTable symbols;
  llvm::StringMap<LLVM::GlobalOp> constants;
};

/// The diagnostic for a host call (or a call of a function that may stop)
/// nested in `parent`, a region-holding op other than the function.
static std::string notInFunctionBody(Operation *parent) {
  return ("must be in the body of a function, not in a region of '" +
          parent->getName().getStringRef() +
          "', to stop the function when the host call fails (lower "
          "structured control flow first, e.g. convert-scf-to-cf)")
      .str();
}

/// Where a function goes once a host call failed, so that compiled code
/// stops at the first failure (a failed call leaves its results unwritten,
/// and a loop steered by them could spin forever). Each function gets one
/// exit block, ^failed(%run: !llvm.ptr, %status: !llvm.ptr), that hands the
/// status to nxrt_invoke_failed (which aborts outside a run) and returns
/// all-zero results. Its callers check nxrt_run_failed after the call and
/// take their own exit. Heap buffers live at that point are freed by
/// nxrt_run_end, which tracks them.
class FailureExits {
public:
  FailureExits(RuntimeModuleBuilder &module, const LLVMTypeConverter &converter)
      : module(module), converter(converter) {}

  /// Splits the block after `after` and branches to the exit of the
  /// enclosing function when `failed` (an i1) holds; insertion continues at
  /// the start of the rest of the block.
  LogicalResult branchOnFailure(RewriterBase &rewriter, Operation *after,
                                Value failed, Value run, Value status) {
    Block *block = after->getBlock();
    auto func = dyn_cast<FunctionOpInterface>(block->getParentOp());
    if (!func)
      return after->emitOpError() << notInFunctionBody(block->getParentOp());
    FailureOr<Block *> exit = exitOf(rewriter, func, after->getLoc());
    if (::mlir::failed(exit))
      return failure();
    Block *rest = rewriter.splitBlock(block, std::next(after->getIterator()));
    rewriter.setInsertionPointToEnd(block);
    LLVM::CondBrOp::create(rewriter, after->getLoc(), failed, *exit,
                           ValueRange{run, status}, rest, ValueRange{});
    rewriter.setInsertionPointToStart(rest);
    return success();
  }

  /// The exit block of `func`, created on first use; fails (reporting at
  /// `loc`) when the function cannot return early.
  FailureOr<Block *> exitOf(RewriterBase &rewriter, FunctionOpInterface func,
                            Location loc) {
    Block *&exit = exits[func];
    if (exit)
      return exit;
    OpBuilder::InsertionGuard guard(rewriter);
    Region &body = func.getFunctionBody();
    Location funcLoc = func.getLoc();
    Block *block = rewriter.createBlock(&body, body.end(),
                                        {module.ptrType, module.ptrType},
                                        {funcLoc, funcLoc});
    LLVM::CallOp::create(rewriter, funcLoc, module.invokeFailed(),
                         block->getArguments());
    auto zeroOf = [&](Type type) -> Value {
      Type lowered = converter.convertType(type);
      if (!lowered || !LLVM::isCompatibleType(lowered))
        return {};
      Value zero = LLVM::ZeroOp::create(rewriter, funcLoc, lowered);
      if (lowered == type)
        return zero;
      return UnrealizedConversionCastOp::create(rewriter, funcLoc, type, zero)
          .getResult(0);
    };
    SmallVector<Value> zeros;
    for (Type type : func.getResultTypes()) {
      if (isa<LLVM::LLVMVoidType>(type))
        continue;
      Value zero = zeroOf(type);
      if (!zero) {
        rewriter.eraseBlock(block);
        return emitError(loc) << "cannot stop @" << func.getName()
                              << " after a failed host call: its result type "
                              << type << " has no LLVM equivalent";
      }
      zeros.push_back(zero);
    }
    if (isa<func::FuncOp>(func)) {
      func::ReturnOp::create(rewriter, funcLoc, zeros);
    } else if (isa<LLVM::LLVMFuncOp>(func)) {
      LLVM::ReturnOp::create(rewriter, funcLoc, zeros);
    } else {
      rewriter.eraseBlock(block);
      return emitError(loc) << "cannot stop '" << func->getName()
                            << "' after a failed host call: only func.func "
                               "and llvm.func are supported";
    }
    exit = block;
    return exit;
  }

private:
  RuntimeModuleBuilder &module;
  const LLVMTypeConverter &converter;
  llvm::DenseMap<Operation *, Block *> exits;
};

/// What __nx_init registers for one invoke.
struct Site {
  InvokeKind kind;
  std::string name;
  std::string location;
  std::string attrs;
  LLVM::GlobalOp slot;
};

/// Per-function state: the infeed tag all infeeds of the function thread.
struct LoweringState {
  RuntimeModuleBuilder &module;
  FailureExits &exits;
  llvm::DenseMap<Operation *, LLVM::GlobalOp> slots{};
  llvm::DenseMap<Operation *, Value> infeedTags{};
};

/// Builds in `entry` of the enclosing function: allocas must not sit inside
/// loops, where each iteration would grow the stack.
OpBuilder atFunctionEntry(Operation *op) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  OpBuilder builder(op->getContext());
  builder.setInsertionPointToStart(&func.getFunctionBody().front());
  return builder;
}

struct InvokeOpLowering final : public ConvertOpToLLVMPattern<InvokeOp> {
  InvokeOpLowering(const LLVMTypeConverter &converter, LoweringState &state)
      : ConvertOpToLLVMPattern<InvokeOp>(converter), state(state) {}

  LogicalResult
  matchAndRewrite(InvokeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    RuntimeModuleBuilder &module = state.module;
    Location loc = op.getLoc();
    InvokeKind kind = op.getKind();
    bool isStream = kind == InvokeKind::Outfeed || kind == InvokeKind::Infeed;

    auto dataPointer = [&](MemRefType type, Value desc) -> Value {
      MemRefDescriptor descriptor(desc);
      Value aligned = descriptor.alignedPtr(rewriter, loc);
      Value offset = descriptor.offset(rewriter, loc);
      Type element = getTypeConverter()->convertType(type.getElementType());
      return LLVM::GEPOp::create(rewriter, loc, module.ptrType, element,
                                 aligned, ArrayRef<LLVM::GEPArg>{offset});
    };

    // Each view: the buffer's type and its data pointer. Stream ops take the
    // handle (and infeeds the tag) before the op's own buffers.
    SmallVector<std::pair<MemRefType, Value>> args, results;
    auto bytesType = [&](int64_t size) {
      return MemRefType::get({size}, rewriter.getIntegerType(8, false));
    };
    if (isStream) {
      std::optional<SmallVector<uint8_t>> bytes =
          encodeStreamHandle(op.getName());
      if (!bytes)
        return rewriter.notifyMatchFailure(op, "invalid stream name");
      LLVM::GlobalOp handle = module.constantBytes(
          StringRef(reinterpret_cast<const char *>(bytes->data()),
                    bytes->size()),
          "__nx_stream_");
      args.push_back({bytesType(bytes->size()),
                      module.address(rewriter, loc, handle)});
    }
    if (kind == InvokeKind::Infeed) {
      Value tag = getInfeedTag(op);
      args.push_back({bytesType(kStreamTagSize), tag});
      results.push_back({bytesType(kStreamTagSize), tag});
    }
    for (auto [type, desc] :
         llvm::zip(op.getInputs().getTypes(), adaptor.getInputs()))
      args.push_back({cast<MemRefType>(type),
                      dataPointer(cast<MemRefType>(type), desc)});
    for (auto [type, desc] :
         llvm::zip(op.getOutputs().getTypes(), adaptor.getOutputs()))
      results.push_back({cast<MemRefType>(type),
                         dataPointer(cast<MemRefType>(type), desc)});

    // Stack space for the views lives in the entry block.
    OpBuilder entry = atFunctionEntry(op);
    auto allocateViews = [&](size_t count) -> Value {
      Value size = LLVM::ConstantOp::create(
          entry, loc, module.i64Type,
          entry.getI64IntegerAttr(std::max<size_t>(count, 1)));
      return LLVM::AllocaOp::create(entry, loc, module.ptrType,
                                    module.tensorType, size);
    };
    Value argViews = allocateViews(args.size());
    Value resultViews = allocateViews(results.size());

    auto fillViews = [&](Value views,
                         ArrayRef<std::pair<MemRefType, Value>> buffers) {
      for (auto [index, buffer] : llvm::enumerate(buffers)) {
        auto [type, data] = buffer;
        Value view = LLVM::GEPOp::create(
            rewriter, loc, module.ptrType, module.tensorType, views,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
        Value record = LLVM::UndefOp::create(rewriter, loc, module.tensorType);
        auto field = [&](Value value, int64_t position) {
          record = LLVM::InsertValueOp::create(rewriter, loc, record, value,
                                               position);
        };
        field(LLVM::ConstantOp::create(
                  rewriter, loc, module.i32Type,
                  rewriter.getI32IntegerAttr(
                      getRuntimeDType(type.getElementType()))),
              0);
        field(LLVM::ConstantOp::create(
                  rewriter, loc, module.i32Type,
                  rewriter.getI32IntegerAttr(type.getRank())),
              1);
        field(module.address(rewriter, loc, module.dims(type.getShape())), 2);
        field(data, 3);
        LLVM::StoreOp::create(rewriter, loc, record, view);
      }
    };
    fillViews(argViews, args);
    fillViews(resultViews, results);

    Value run =
        LLVM::CallOp::create(rewriter, loc, module.runCurrent(), ValueRange())
            .getResult();
    Value site = LLVM::LoadOp::create(
        rewriter, loc, module.ptrType,
        module.address(rewriter, loc, state.slots.lookup(op)));
    auto count = [&](size_t n) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, module.i64Type,
                                      rewriter.getI64IntegerAttr(n));
    };
    // The runtime records a failure in the run (the host reads it when the
    // run ends); compiled code stops: the results were not written.
    Value status =
        LLVM::CallOp::create(rewriter, loc, module.invoke(),
                             ValueRange{run, site, argViews, count(args.size()),
                                        resultViews, count(results.size())})
            .getResult();
    Value null = LLVM::ZeroOp::create(rewriter, loc, module.ptrType);
    Value failed = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                                        status, null);
    if (::mlir::failed(
            state.exits.branchOnFailure(rewriter, op, failed, run, status)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// The function's infeed tag: 8 bytes on the stack, zero at entry, passed
  /// as tag and next tag to every infeed so they number the values read.
  Value getInfeedTag(InvokeOp op) const {
    auto func = op->getParentOfType<FunctionOpInterface>();
    Value &tag = state.infeedTags[func];
    if (tag)
      return tag;
    OpBuilder entry = atFunctionEntry(op);
    Location loc = func.getLoc();
    Value one = LLVM::ConstantOp::create(entry, loc, state.module.i64Type,
                                         entry.getI64IntegerAttr(1));
    tag = LLVM::AllocaOp::create(entry, loc, state.module.ptrType,
                                 state.module.i64Type, one);
    Value zero = LLVM::ConstantOp::create(entry, loc, state.module.i64Type,
                                          entry.getI64IntegerAttr(0));
    LLVM::StoreOp::create(entry, loc, zero, tag);
    return tag;
  }

  LoweringState &state;
};

/// Defines __nx_init(program) -> status: adds every site to the program and
/// stores it in its slot; returns the first error (NULL when all succeed).
void buildInit(RuntimeModuleBuilder &module, ArrayRef<Site> sites) {
  OpBuilder builder = module.atModuleEnd();
  Location loc = module.module.getLoc();
  auto init = LLVM::LLVMFuncOp::create(
      builder, loc, symbols::kInitFunction,
      LLVM::LLVMFunctionType::get(module.ptrType, {module.ptrType}));
  Block *entry = init.addEntryBlock(builder);
  Block *failure = builder.createBlock(&init.getBody());
  builder.setInsertionPointToStart(entry);
  Value program = entry->getArgument(0);
  Value one = LLVM::ConstantOp::create(builder, loc, module.i64Type,
                                       builder.getI64IntegerAttr(1));
  Value error = LLVM::AllocaOp::create(builder, loc, module.ptrType,
                                       module.ptrType, one);
  Value null = LLVM::ZeroOp::create(builder, loc, module.ptrType);
  LLVM::StoreOp::create(builder, loc, null, error);
  for (const Site &site : sites) {
    Value kind = LLVM::ConstantOp::create(
        builder, loc, module.i32Type,
        builder.getI32IntegerAttr(static_cast<int32_t>(site.kind)));
    Value name = module.address(builder, loc, module.cString(site.name));
    Value location =
        module.address(builder, loc, module.cString(site.location));
    Value attrs = module.address(
        builder, loc, module.constantBytes(site.attrs, "__nx_attrs_"));
    Value attrsLen = LLVM::ConstantOp::create(
        builder, loc, module.i64Type,
        builder.getI64IntegerAttr(site.attrs.size()));
    Value handle =
        LLVM::CallOp::create(builder, loc, module.programAddSite(),
                             ValueRange{program, kind, name, location, attrs,
                                        attrsLen, error})
            .getResult();
    LLVM::StoreOp::create(builder, loc, handle,
                          module.address(builder, loc, site.slot));
    Value failed = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                        handle, null);
    Block *next = builder.createBlock(&init.getBody(), Region::iterator(failure));
    builder.setInsertionPointAfterValue(failed);
    LLVM::CondBrOp::create(builder, loc, failed, failure, next);
    builder.setInsertionPointToStart(next);
  }
  LLVM::ReturnOp::create(builder, loc, null);
  builder.setInsertionPointToStart(failure);
  LLVM::ReturnOp::create(
      builder, loc,
      LLVM::LoadOp::create(builder, loc, module.ptrType, error).getResult());
}

/// Host calls that take and return no tensor (a `() -> ()` callback, an
/// argument-less custom call) are left alone by One-Shot Bufferize, which
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
    if (op->getNumOperands() != 0 || op->getNumResults() != 0 || !bufferizable)
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
/// nxrt_run_failed and takes its own failure exit. `stopping` holds the
/// functions with host calls. Declarations of func.func (nx code compiled
/// on its own, such as separately compiled stages) may stop as well;
/// llvm.func declarations are the C runtime's and libc's, which do not.
static LogicalResult stopAfterFailedCalls(RuntimeModuleBuilder &module,
                                          FailureExits &exits,
                                          ArrayRef<Operation *> stopping) {
  ModuleOp moduleOp = module.module;
  SymbolTable symbols(moduleOp);
  llvm::DenseMap<Operation *, SmallVector<CallOpInterface>> callsOf;
  llvm::SetVector<Operation *> mayStop(stopping.begin(), stopping.end());
  for (auto func : moduleOp.getOps<func::FuncOp>())
    if (func.isExternal())
      mayStop.insert(func);
  moduleOp.walk([&](CallOpInterface call) {
    auto callee = dyn_cast_if_present<FlatSymbolRefAttr>(
        dyn_cast<SymbolRefAttr>(call.getCallableForCallee()));
    if (!callee)
      return;
    if (Operation *func = symbols.lookup(callee.getValue()))
      callsOf[func].push_back(call);
  });
  SmallVector<CallOpInterface> checked;
  for (size_t i = 0; i < mayStop.size(); ++i) {
    for (CallOpInterface call : callsOf.lookup(mayStop[i])) {
      checked.push_back(call);
      if (auto caller = call->getParentOfType<FunctionOpInterface>())
        mayStop.insert(caller);
    }
  }

  IRRewriter rewriter(moduleOp.getContext());
  for (CallOpInterface call : checked) {
    if (!isa<FunctionOpInterface>(call->getParentOp()))
      return call->emitOpError() << notInFunctionBody(call->getParentOp());
    Location loc = call.getLoc();
    rewriter.setInsertionPointAfter(call);
    Value run =
        LLVM::CallOp::create(rewriter, loc, module.runCurrent(), ValueRange())
            .getResult();
    Value flag =
        LLVM::CallOp::create(rewriter, loc, module.runFailed(), ValueRange{run})
            .getResult();
    Value zero = LLVM::ConstantOp::create(rewriter, loc, module.i32Type,
                                          rewriter.getI32IntegerAttr(0));
    Value noStatus = LLVM::ZeroOp::create(rewriter, loc, module.ptrType);
    auto failed = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                                       flag, zero);
    if (::mlir::failed(
            exits.branchOnFailure(rewriter, failed, failed, run, noStatus)))
      return failure();
  }
  return success();
}

struct ConvertNxToLLVMPass final
    : nx::impl::ConvertNxToLLVMBase<ConvertNxToLLVMPass> {
  void runOnOperation() final {
    ModuleOp moduleOp = getOperation();
    if (Operation *init = moduleOp.lookupSymbol(symbols::kInitFunction)) {
      init->emitOpError() << "defines '" << symbols::kInitFunction
                          << "', which convert-nx-to-llvm generates; was it "
                             "run twice?";
      return signalPassFailure();
    }
    RuntimeModuleBuilder module(moduleOp);
    if (failed(module.checkRuntimeNamesAreFree()) ||
        failed(invokeTensorFreeHostCalls(moduleOp)))
      return signalPassFailure();
    LLVMTypeConverter converter(&getContext());
    FailureExits exits(module, converter);
    LoweringState state{module, exits};

    // Sites are numbered in program order, so __nx_init is deterministic.
    SmallVector<Site> sites;
    SmallVector<Operation *> invokes;
    WalkResult walk = moduleOp.walk([&](InvokeOp op) {
      FailureOr<std::string> attrs =
          encodeHostAttributes(op.getAttrs(), op.getLoc());
      if (failed(attrs))
        return WalkResult::interrupt();
      if ((op.getKind() == InvokeKind::Outfeed ||
           op.getKind() == InvokeKind::Infeed) &&
          !encodeStreamHandle(op.getName())) {
        op.emitOpError() << "names stream '" << op.getName()
                         << "', which is longer than "
                         << NXRT_STREAM_NAME_MAX << " bytes";
        return WalkResult::interrupt();
      }
      if (!op->getParentOfType<FunctionOpInterface>()) {
        op.emitOpError() << "must be inside a function";
        return WalkResult::interrupt();
      }
      // A failed call stops the function: that takes a branch to its exit.
      if (!isa<FunctionOpInterface>(op->getParentOp())) {
        op.emitOpError() << notInFunctionBody(op->getParentOp());
        return WalkResult::interrupt();
      }
      LLVM::GlobalOp slot = module.siteSlot(sites.size());
      state.slots[op] = slot;
      sites.push_back({op.getKind(), op.getName().str(),
                       formatLocation(op.getLoc()), std::move(*attrs), slot});
      invokes.push_back(op);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    // Exits are made before the conversion, so that a function that cannot
    // return early is reported once, at its first host call.
    IRRewriter rewriter(&getContext());
    for (Operation *invoke : invokes)
      if (failed(exits.exitOf(rewriter,
                              cast<FunctionOpInterface>(invoke->getParentOp()),
                              invoke->getLoc())))
        return signalPassFailure();
    buildInit(module, sites);

    RewritePatternSet patterns(&getContext());
    patterns.add<InvokeOpLowering>(converter, state);
    ConversionTarget target(getContext());
    target.addIllegalOp<InvokeOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    // Only the invokes: the driver need not visit (and legalize) every op
    // of the module again.
    SmallVector<Operation *> stopping;
    for (Operation *invoke : invokes)
      stopping.push_back(invoke->getParentOp());
    if (failed(applyPartialConversion(invokes, target, std::move(patterns))))
      return signalPassFailure();
    if (failed(stopAfterFailedCalls(module, exits, stopping)))
      return signalPassFailure();

    // Callback declarations and their ids have been resolved into sites: the
    // runtime binds callbacks by name in __nx_init.
    for (auto callback : llvm::make_early_inc_range(moduleOp.getOps<CallbackOp>()))
      callback.erase();
    moduleOp->removeAttr(NxDialect::getCallbackIdsAttrName());
  }
};

} // namespace
