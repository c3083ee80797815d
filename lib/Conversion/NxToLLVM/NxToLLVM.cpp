//===- NxToLLVM.cpp - nx.invoke to libnxrt calls ---------------------------===//

#include "AttributeEncoding.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"
#include "nx/Conversion/Passes.h"
#include "nx/Conversion/StreamHandle.h"
#include "nx/Dialect/Nx/IR/NxOps.h"
#include "nx/Dialect/Nx/IR/RuntimeTypes.h"

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
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "convert-nx-to-llvm"

namespace mlir::nx {
#define GEN_PASS_DEF_CONVERTNXTOLLVMPASS
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

/// "file:line:col" for the first file location inside `loc`, which is what
/// runtime errors print to point at the op.
static std::string formatLocation(Location loc) {
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

namespace {

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
    auto type = LLVM::LLVMArrayType::get(IntegerType::get(context, 8),
                                         std::max<size_t>(bytes.size(), 1));
    LLVM::GlobalOp global = constantGlobal(
        (prefix + Twine(constants.size())).str(), type,
        StringAttr::get(context, bytes.empty() ? StringRef("\0", 1) : bytes));
    constants.try_emplace(key, global);
    return global;
  }

  /// The dims array of a shape, as little-endian int64 words.
  LLVM::GlobalOp dims(ArrayRef<int64_t> shape) {
    std::string bytes(shape.size() * sizeof(int64_t), '\0');
    for (auto [index, dim] : llvm::enumerate(shape))
      llvm::support::endian::write<int64_t, llvm::endianness::little>(
          bytes.data() + index * sizeof(int64_t), dim);
    return constantBytes(bytes, "__nx_dims_");
  }

  /// `@__nx_sites`, the zero-initialized array of `count` pointers where
  /// __nx_init stores the sites in program order.
  LLVM::GlobalOp siteSlots(size_t count) {
    OpBuilder builder(context);
    auto type = LLVM::LLVMArrayType::get(ptrType, count);
    auto global = LLVM::GlobalOp::create(
        builder, module.getLoc(), type, /*isConstant=*/false,
        LLVM::Linkage::Internal, symbols::kSiteSlots, /*value=*/Attribute(),
        /*alignment=*/alignof(void *));
    Block *init = builder.createBlock(&global.getInitializerRegion());
    builder.setInsertionPointToStart(init);
    LLVM::ReturnOp::create(
        builder, module.getLoc(),
        LLVM::ZeroOp::create(builder, module.getLoc(), type).getResult());
    insertAtModuleStart(global);
    return global;
  }

  /// An internal constant global named `name` (renamed on a clash) holding
  /// `value`, a dense attribute or string of `type`. 8-byte aligned: the
  /// runtime reads dims and the site table as int64_t words in place.
  LLVM::GlobalOp constantGlobal(StringRef name, Type type, Attribute value) {
    OpBuilder builder(context);
    auto global = LLVM::GlobalOp::create(
        builder, module.getLoc(), type, /*isConstant=*/true,
        LLVM::Linkage::Internal, name, value, /*alignment=*/alignof(int64_t));
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

} // namespace

/// The diagnostic for a host call (or a call of a function that may stop)
/// nested in `parent`, a region-holding op other than the function.
static std::string notInFunctionBody(Operation *parent) {
  return ("must be in the body of a function, not in a region of '" +
          parent->getName().getStringRef() +
          "', to stop the function when the host call fails (lower "
          "structured control flow first, e.g. convert-scf-to-cf)")
      .str();
}

namespace {

/// Where a function goes once a host call failed, so that compiled code
/// stops at the first failure (a failed call leaves its results unwritten,
/// and a loop steered by them could spin forever). Each function that makes
/// host calls reads its run once, at entry, and gets a status slot there
/// and one exit block, ^failed, that hands the slot's status to
/// nxrt_invoke_failed (which aborts outside a run) and returns all-zero
/// results. A check stores its status (NULL after a call that may have
/// stopped: the run already holds the failure) in the slot and branches to
/// the exit when it failed; a slot rather than block arguments, because an
/// exit block with an argument per check is a phi with an entry per call
/// site, which costs the code generator more than linear time. Callers of a
/// function that may stop check nxrt_run_failed after the call and take
/// their own exit. Heap buffers live at that point are freed by
/// nxrt_run_end, which tracks them.
class FailureExits {
public:
  FailureExits(RuntimeModuleBuilder &module, const LLVMTypeConverter &converter)
      : module(module), converter(converter) {}

  /// The run `func` runs in, read once in its entry block: a function runs
  /// on one thread, within one run, from entry to return (a handler's nested
  /// runs end before it returns).
  Value runOf(RewriterBase &rewriter, FunctionOpInterface func) {
    return entryValues(rewriter, func).run;
  }

  /// Records that the function holding `after` must leave through its exit
  /// right after `after` when `failed` (an i1) holds, with `status` (NULL:
  /// none); `branchAll` makes the branches. Fails, reporting at the op,
  /// when it is not in the body of a function or the function cannot
  /// return early.
  LogicalResult addCheck(RewriterBase &rewriter, Operation *after,
                         Value failed, Value status) {
    Block *block = after->getBlock();
    auto func = dyn_cast<FunctionOpInterface>(block->getParentOp());
    if (!func)
      return after->emitOpError() << notInFunctionBody(block->getParentOp());
    if (::mlir::failed(exitOf(rewriter, func, after->getLoc())))
      return failure();
    checks.insert({after, Check{func.getOperation(), failed, status}});
    blocks.insert(block);
    return success();
  }

  /// Splits each block after its recorded ops and branches to the exit of
  /// its function when the check fails. Blocks are split from their end, so
  /// every op moves once: splitting in program order moved the rest of the
  /// block at every call site, which made the lowering quadratic in the
  /// number of call sites.
  void branchAll(RewriterBase &rewriter) {
    for (Block *block : blocks) {
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*block))) {
        auto it = checks.find(&op);
        if (it == checks.end())
          continue;
        const Check &check = it->second;
        const Exit &exit = exits.find(check.func)->second;
        Block *rest = rewriter.splitBlock(block, std::next(op.getIterator()));
        rewriter.setInsertionPointToEnd(block);
        LLVM::StoreOp::create(rewriter, op.getLoc(), check.status,
                              exit.statusSlot);
        LLVM::CondBrOp::create(rewriter, op.getLoc(), check.failed,
                               exit.block, ValueRange{}, rest, ValueRange{});
      }
    }
    checks.clear();
    blocks.clear();
  }

  /// Creates the exit of `func` (and its entry values) on first use; fails
  /// (reporting at `loc`) when the function cannot return early.
  LogicalResult exitOf(RewriterBase &rewriter, FunctionOpInterface func,
                       Location loc) {
    Exit &exit = entryValues(rewriter, func);
    if (exit.block)
      return success();
    OpBuilder::InsertionGuard guard(rewriter);
    Region &body = func.getFunctionBody();
    Location funcLoc = func.getLoc();
    Block *block = rewriter.createBlock(&body, body.end());
    Value status = LLVM::LoadOp::create(rewriter, funcLoc, module.ptrType,
                                        exit.statusSlot);
    LLVM::CallOp::create(rewriter, funcLoc, module.invokeFailed(),
                         ValueRange{exit.run, status});
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
    exit.block = block;
    return success();
  }

private:
  struct Exit {
    Value run;
    Value statusSlot;
    Block *block = nullptr;
  };
  struct Check {
    Operation *func;
    Value failed, status;
  };

  /// The run and the status slot of `func`, made in its entry block on
  /// first use.
  Exit &entryValues(RewriterBase &rewriter, FunctionOpInterface func) {
    auto [it, inserted] = exits.try_emplace(func.getOperation());
    Exit &exit = it->second;
    if (!inserted)
      return exit;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
    Location loc = func.getLoc();
    exit.run = LLVM::CallOp::create(rewriter, loc, module.runCurrent(),
                                    ValueRange())
                   .getResult();
    Value one = LLVM::ConstantOp::create(rewriter, loc, module.i64Type,
                                         rewriter.getI64IntegerAttr(1));
    exit.statusSlot = LLVM::AllocaOp::create(rewriter, loc, module.ptrType,
                                             module.ptrType, one);
    return exit;
  }

  RuntimeModuleBuilder &module;
  const LLVMTypeConverter &converter;
  llvm::DenseMap<Operation *, Exit> exits;
  llvm::DenseMap<Operation *, Check> checks;
  llvm::SetVector<Block *> blocks;
};

/// What __nx_init registers for one invoke.
struct Site {
  InvokeKind kind;
  std::string name;
  std::string location;
  std::string attrs;
};

/// What the invoke pattern shares: the site slots and, per function, the
/// infeed tag all infeeds of the function thread and the view arrays.
struct LoweringState {
  RuntimeModuleBuilder &module;
  FailureExits &exits;
  /// @__nx_sites and each invoke's index into it.
  LLVM::GlobalOp siteSlots{};
  llvm::DenseMap<Operation *, int32_t> siteIndex{};
  llvm::DenseMap<Operation *, Value> infeedTags{};
  /// Per function: how many views its invokes pass at most, as arguments
  /// and as results, and the view arrays all its invokes share.
  llvm::DenseMap<Operation *, std::pair<size_t, size_t>> maxViews{};
  llvm::DenseMap<Operation *, std::pair<Value, Value>> views{};
};

} // namespace

/// How many views `op` passes as arguments and as results: stream ops pass
/// the handle (and infeeds the tag) besides their buffers.
static std::pair<size_t, size_t> viewCounts(InvokeOp op) {
  bool infeed = op.getKind() == InvokeKind::Infeed;
  bool stream = infeed || op.getKind() == InvokeKind::Outfeed;
  return {op.getInputs().size() + (stream ? 1 : 0) + (infeed ? 1 : 0),
          op.getOutputs().size() + (infeed ? 1 : 0)};
}

namespace {

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
      Value tag = getInfeedTag(op, rewriter);
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

    auto [argViews, resultViews] = getViews(op, rewriter);

    auto fillViews = [&](Value views,
                         ArrayRef<std::pair<MemRefType, Value>> buffers) {
      for (auto [index, buffer] : llvm::enumerate(buffers)) {
        auto [type, data] = buffer;
        Value view = LLVM::GEPOp::create(
            rewriter, loc, module.ptrType, module.tensorType, views,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
        // Field by field: the JIT's fast instruction selector handles
        // scalar stores, but not a store of the whole struct.
        auto field = [&](Value value, int32_t position) {
          Value address = LLVM::GEPOp::create(
              rewriter, loc, module.ptrType, module.tensorType, view,
              ArrayRef<LLVM::GEPArg>{0, position});
          LLVM::StoreOp::create(rewriter, loc, value, address);
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
      }
    };
    fillViews(argViews, args);
    fillViews(resultViews, results);

    Value run = state.exits.runOf(
        rewriter, op->getParentOfType<FunctionOpInterface>());
    Value slot = LLVM::GEPOp::create(
        rewriter, loc, module.ptrType, state.siteSlots.getGlobalType(),
        module.address(rewriter, loc, state.siteSlots),
        ArrayRef<LLVM::GEPArg>{0, state.siteIndex.lookup(op)});
    Value site = LLVM::LoadOp::create(rewriter, loc, module.ptrType, slot);
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
    if (::mlir::failed(state.exits.addCheck(rewriter, failed.getDefiningOp(),
                                            failed, status)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// The arrays of argument and result views of the function holding `op`,
  /// in its entry block (allocas in a loop would grow the stack at every
  /// iteration). All its invokes share them: a view only has to live for
  /// the call, and one pair of arrays per function rather than per call
  /// keeps the frame small and the code generator's work linear.
  std::pair<Value, Value> getViews(InvokeOp op,
                                   ConversionPatternRewriter &rewriter) const {
    auto func = op->getParentOfType<FunctionOpInterface>();
    auto [it, inserted] = state.views.try_emplace(func);
    if (!inserted)
      return it->second;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
    Location loc = func.getLoc();
    auto allocate = [&](size_t count) -> Value {
      Value size = LLVM::ConstantOp::create(
          rewriter, loc, state.module.i64Type,
          rewriter.getI64IntegerAttr(std::max<size_t>(count, 1)));
      return LLVM::AllocaOp::create(rewriter, loc, state.module.ptrType,
                                    state.module.tensorType, size);
    };
    auto [numArgs, numResults] = state.maxViews.lookup(func);
    it->second = {allocate(numArgs), allocate(numResults)};
    return it->second;
  }

  /// The function's infeed tag: 8 bytes on the stack, zero at entry, passed
  /// as tag and next tag to every infeed so they number the values read.
  Value getInfeedTag(InvokeOp op, ConversionPatternRewriter &rewriter) const {
    auto func = op->getParentOfType<FunctionOpInterface>();
    Value &tag = state.infeedTags[func];
    if (tag)
      return tag;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
    Location loc = func.getLoc();
    Value one = LLVM::ConstantOp::create(rewriter, loc, state.module.i64Type,
                                         rewriter.getI64IntegerAttr(1));
    tag = LLVM::AllocaOp::create(rewriter, loc, state.module.ptrType,
                                 state.module.i64Type, one);
    Value zero = LLVM::ConstantOp::create(rewriter, loc, state.module.i64Type,
                                          rewriter.getI64IntegerAttr(0));
    LLVM::StoreOp::create(rewriter, loc, zero, tag);
    return tag;
  }

  LoweringState &state;
};

/// The sites' static data as __nx_init reads it: `strings`, one blob of
/// every distinct name, location (NUL-terminated) and attribute encoding
/// (8-byte aligned), and `table`, kSiteFields i64 words per site: kind and
/// the offsets of its name, location and attributes, and the attributes'
/// length. Data instead of code: a straight-line __nx_init with one call per
/// site took the JIT longer than everything else in call-heavy programs,
/// and more than linearly so.
constexpr int64_t kSiteFields = 5;

} // namespace

static std::pair<std::string, SmallVector<int64_t>>
encodeSiteTable(ArrayRef<Site> sites) {
  std::string strings;
  llvm::StringMap<int64_t> offsets;
  auto intern = [&](StringRef bytes, bool cString) -> int64_t {
    std::string key = (Twine(cString ? 's' : 'a') + bytes).str();
    auto [it, inserted] = offsets.try_emplace(key, 0);
    if (!inserted)
      return it->second;
    strings.resize(llvm::alignTo(strings.size(), alignof(int64_t)));
    it->second = static_cast<int64_t>(strings.size());
    strings.append(bytes.data(), bytes.size());
    if (cString)
      strings.push_back('\0');
    return it->second;
  };
  SmallVector<int64_t> table;
  table.reserve(sites.size() * kSiteFields);
  for (const Site &site : sites) {
    table.push_back(static_cast<int64_t>(site.kind));
    table.push_back(intern(site.name, /*cString=*/true));
    table.push_back(intern(site.location, /*cString=*/true));
    table.push_back(intern(site.attrs, /*cString=*/false));
    table.push_back(static_cast<int64_t>(site.attrs.size()));
  }
  if (strings.empty())
    strings.push_back('\0');
  return {std::move(strings), std::move(table)};
}

/// Defines __nx_init(program) -> status: a loop over the site table that
/// adds every site to the program and stores it in @__nx_sites; returns the
/// first error (NULL when all succeed).
static void buildInit(RuntimeModuleBuilder &module, ArrayRef<Site> sites,
                      LLVM::GlobalOp slots) {
  OpBuilder builder = module.atModuleEnd();
  Location loc = module.module.getLoc();
  auto init = LLVM::LLVMFuncOp::create(
      builder, loc, symbols::kInitFunction,
      LLVM::LLVMFunctionType::get(module.ptrType, {module.ptrType}));
  Block *entry = init.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  auto i64 = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(builder, loc, module.i64Type,
                                    builder.getI64IntegerAttr(value));
  };
  Value program = entry->getArgument(0);
  Value error = LLVM::AllocaOp::create(builder, loc, module.ptrType,
                                       module.ptrType, i64(1));
  Value null = LLVM::ZeroOp::create(builder, loc, module.ptrType);
  LLVM::StoreOp::create(builder, loc, null, error);
  if (sites.empty()) {
    LLVM::ReturnOp::create(builder, loc, null);
    return;
  }

  auto [strings, table] = encodeSiteTable(sites);
  MLIRContext *context = module.context;
  auto i8 = IntegerType::get(context, 8);
  LLVM::GlobalOp stringsGlobal = module.constantGlobal(
      symbols::kSiteStrings, LLVM::LLVMArrayType::get(i8, strings.size()),
      StringAttr::get(context, strings));
  auto tableType = RankedTensorType::get(
      {static_cast<int64_t>(table.size())}, module.i64Type);
  LLVM::GlobalOp tableGlobal = module.constantGlobal(
      symbols::kSiteTable,
      LLVM::LLVMArrayType::get(module.i64Type, table.size()),
      DenseIntElementsAttr::get(tableType, ArrayRef<int64_t>(table)));

  Block *header = builder.createBlock(&init.getBody(), {}, {module.i64Type},
                                      {loc});
  Block *body = builder.createBlock(&init.getBody());
  Block *done = builder.createBlock(&init.getBody());
  Block *failure = builder.createBlock(&init.getBody());
  builder.setInsertionPointToEnd(entry);
  LLVM::BrOp::create(builder, loc, ValueRange{i64(0)}, header);

  builder.setInsertionPointToStart(header);
  Value index = header->getArgument(0);
  Value more = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ult,
                                    index, i64(sites.size()));
  LLVM::CondBrOp::create(builder, loc, more, body, done);

  builder.setInsertionPointToStart(body);
  Value record = LLVM::GEPOp::create(
      builder, loc, module.ptrType, module.i64Type,
      module.address(builder, loc, tableGlobal),
      ValueRange{LLVM::MulOp::create(builder, loc, index, i64(kSiteFields))});
  auto field = [&](int32_t position) -> Value {
    Value address =
        LLVM::GEPOp::create(builder, loc, module.ptrType, module.i64Type,
                            record, ArrayRef<LLVM::GEPArg>{position});
    return LLVM::LoadOp::create(builder, loc, module.i64Type, address);
  };
  Value blob = module.address(builder, loc, stringsGlobal);
  auto string = [&](int32_t position) -> Value {
    return LLVM::GEPOp::create(builder, loc, module.ptrType, i8, blob,
                               ValueRange{field(position)});
  };
  Value kind = LLVM::TruncOp::create(builder, loc, module.i32Type, field(0));
  Value handle =
      LLVM::CallOp::create(builder, loc, module.programAddSite(),
                           ValueRange{program, kind, string(1), string(2),
                                      string(3), field(4), error})
          .getResult();
  Value slot = LLVM::GEPOp::create(
      builder, loc, module.ptrType, slots.getGlobalType(),
      module.address(builder, loc, slots),
      ArrayRef<LLVM::GEPArg>{0, index});
  LLVM::StoreOp::create(builder, loc, handle, slot);
  Value failed = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                      handle, null);
  Value next = LLVM::AddOp::create(builder, loc, index, i64(1));
  LLVM::CondBrOp::create(builder, loc, failed, failure, ValueRange{}, header,
                         ValueRange{next});

  builder.setInsertionPointToStart(done);
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
    Value run =
        exits.runOf(rewriter, cast<FunctionOpInterface>(call->getParentOp()));
    rewriter.setInsertionPointAfter(call);
    Value flag =
        LLVM::CallOp::create(rewriter, loc, module.runFailed(), ValueRange{run})
            .getResult();
    Value zero = LLVM::ConstantOp::create(rewriter, loc, module.i32Type,
                                          rewriter.getI32IntegerAttr(0));
    Value noStatus = LLVM::ZeroOp::create(rewriter, loc, module.ptrType);
    auto failed = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                                       flag, zero);
    if (::mlir::failed(exits.addCheck(rewriter, failed, failed, noStatus)))
      return failure();
  }
  exits.branchAll(rewriter);
  return success();
}

namespace {

struct ConvertNxToLLVMPass final
    : nx::impl::ConvertNxToLLVMPassBase<ConvertNxToLLVMPass> {
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
      auto [numArgs, numResults] = viewCounts(op);
      auto &[maxArgs, maxResults] =
          state.maxViews[op->getParentOfType<FunctionOpInterface>()];
      maxArgs = std::max(maxArgs, numArgs);
      maxResults = std::max(maxResults, numResults);
      state.siteIndex[op] = static_cast<int32_t>(sites.size());
      sites.push_back({op.getKind(), op.getName().str(),
                       formatLocation(op.getLoc()), std::move(*attrs)});
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
    state.siteSlots = module.siteSlots(sites.size());
    numCallSites += sites.size();
    buildInit(module, sites, state.siteSlots);

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
    exits.branchAll(rewriter);
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
