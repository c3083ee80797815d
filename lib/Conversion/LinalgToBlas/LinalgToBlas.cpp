//===- LinalgToBlas.cpp - linalg contractions to libnxrt's gemm -----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A contraction on buffers becomes one call of nxrt_gemm_<type> with the
// operands' base pointers, sizes and element strides, read from the memrefs'
// descriptors at run time: any layout is passed through, and the runtime
// picks BLAS or, for layouts BLAS cannot take, a plain loop. A large
// product is shared among an OpenMP team instead, each thread calling
// nxrt_gemm_part_<type> for its part: libnxrt's BLAS runs single-threaded,
// and the program's loop nests and products use one pool of threads.
//
// A product whose output was just filled with zeros, as bufferized tensor
// code initializes every one, takes the fill over: the call writes C instead
// of adding to it (accumulate 0), so C is neither zeroed in a separate pass
// nor read back by the GEMM. An f32 product followed by a bias and ReLU
// over its output (a dense layer) hands them to the call too, which
// applies them to each part of C right after computing it.
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/LinalgToBlas/LinalgToBlas.h"
#include "nx/Conversion/LinalgToBlas/Epilogue.h"
#include "nx/Conversion/LinalgToOpenMP/LinalgToOpenMP.h"
#include "nx/Conversion/LinalgToOpenMP/OpenMPTeam.h"
#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"
#include "nx/Conversion/Passes.h"
#include "nx/Support/Buffers.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/DenseSet.h"

#include <optional>

#define DEBUG_TYPE "nx-linalg-to-blas"

namespace mlir::nx {
#define GEN_PASS_DEF_NXLINALGTOBLASPASS
#include "nx/Conversion/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
namespace symbols = mlir::nx::runtime_symbols;
using mlir::nx::getRootBuffer;

namespace {

/// Replaces a contraction by nxrt_gemm_<type>(batch, m, n, k, then pointer,
/// batch stride, row stride and column stride of A, B and C); a large one,
/// when `numThreadsFunction` names the team size, by an OpenMP loop over
/// parts calling nxrt_gemm_part_<type>(part, parts, the same arguments).
struct ContractionToGemm : OpInterfaceRewritePattern<linalg::LinalgOp> {
  ContractionToGemm(MLIRContext *context, StringRef numThreadsFunction,
                    int64_t minWork)
      : OpInterfaceRewritePattern(context),
        numThreadsFunction(numThreadsFunction.str()), minWork(minWork) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override;

  std::string numThreadsFunction;
  int64_t minWork;
};

} // namespace

/// The loop dimensions of a contraction nxrt_gemm computes: C[b, m, n] +=
/// A[b, m, k] B[b, k, n], each operand holding its dimensions in any order
/// (a transposed operand is a permutation of its strides). Batch, m and n
/// may be absent (a matvec has no n).
struct GemmDims {
  std::optional<unsigned> batch, m, n;
  unsigned k = 0;
};

static std::optional<unsigned> getSingle(ArrayRef<unsigned> dims) {
  if (dims.size() == 1)
    return dims.front();
  return std::nullopt;
}

/// The gemm dimensions of `op`, or failure when `op` is not one product of
/// two operands summed over one dimension with at most one batch, one m and
/// one n dimension, each operand indexed by exactly its own dimensions.
static FailureOr<GemmDims> getGemmDims(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op))
    return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->batch.size() > 1 || dims->m.size() > 1 ||
      dims->n.size() > 1 || dims->k.size() != 1)
    return failure();
  // Dot products, one or a batch of them (nx-split-reductions' partial
  // sums of one, which are a vector's sum along the rows): each a GEMM of
  // one element, which the loops do better and share among threads.
  if (dims->m.empty() && dims->n.empty())
    return failure();
  GemmDims gemm;
  gemm.batch = getSingle(dims->batch);
  gemm.m = getSingle(dims->m);
  gemm.n = getSingle(dims->n);
  gemm.k = dims->k.front();
  // Every loop is one of them, and each operand is indexed by exactly its
  // own dimensions, once each: no broadcast, no diagonal.
  auto operandDims = [&](std::optional<unsigned> row,
                         std::optional<unsigned> col) {
    llvm::SmallDenseSet<unsigned> set;
    for (std::optional<unsigned> dim : {gemm.batch, row, col})
      if (dim)
        set.insert(*dim);
    return set;
  };
  unsigned loops =
      (gemm.batch ? 1 : 0) + (gemm.m ? 1 : 0) + (gemm.n ? 1 : 0) + 1;
  if (op.getNumLoops() != loops)
    return failure();
  SmallVector<llvm::SmallDenseSet<unsigned>> expected = {
      operandDims(gemm.m, gemm.k), operandDims(gemm.k, gemm.n),
      operandDims(gemm.m, gemm.n)};
  for (auto [map, want] :
       llvm::zip_equal(op.getIndexingMapsArray(), expected)) {
    if (!map.isProjectedPermutation() || map.getNumResults() != want.size())
      return failure();
    for (AffineExpr result : map.getResults())
      if (!want.contains(cast<AffineDimExpr>(result).getPosition()))
        return failure();
  }
  return gemm;
}

/// Which of libnxrt's product functions a call goes to.
enum class GemmEntry {
  /// nxrt_gemm_<type>
  Whole,
  /// nxrt_gemm_part_<type>
  Part,
  /// nxrt_gemm_part_epilogue_f32
  PartEpilogue,
};

/// The parameters of nxrt_gemm_<type>: batch, m, n, k, then pointer, batch
/// stride, row stride and column stride of A, B and C, then accumulate.
/// The part functions take the part and the number of parts first; the
/// epilogue's adds the bias's pointer and stride and the ReLU flag last.
static SmallVector<Type> getGemmParameterTypes(MLIRContext *context,
                                               GemmEntry entry) {
  Type i64 = IntegerType::get(context, 64);
  Type ptr = LLVM::LLVMPointerType::get(context);
  SmallVector<Type> types(entry == GemmEntry::Whole ? 4 : 6, i64);
  for (int operand = 0; operand < 3; ++operand)
    llvm::append_range(types, ArrayRef<Type>{ptr, i64, i64, i64});
  types.push_back(i64);
  if (entry == GemmEntry::PartEpilogue)
    llvm::append_range(types, ArrayRef<Type>{ptr, i64, i64});
  return types;
}

/// The `linalg.fill` of zero (of either sign) right before `op` that writes
/// exactly `op`'s output, which neither input is a view of: the product may
/// then write its output instead of adding to those zeros. A zero of either
/// sign: -0 + x is x for every x, and +0 + x differs from x only for x = -0.
static linalg::FillOp getZeroFillOfOutput(linalg::LinalgOp op) {
  auto fill = dyn_cast_if_present<linalg::FillOp>(op->getPrevNode());
  Value output = op.getDpsInits()[0];
  if (!fill || !fill.hasPureBufferSemantics() ||
      fill.getOutputs()[0] != output ||
      !matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
    return {};
  Value root = getRootBuffer(output);
  if (llvm::any_of(op.getDpsInputs(),
                   [&](Value input) { return getRootBuffer(input) == root; }))
    return {};
  return fill;
}

/// The bias and ReLU after the f32 product `op` that the call can apply:
/// the bias runs along C's columns (n).
static std::optional<nx::Epilogue> getGemmEpilogue(linalg::LinalgOp op,
                                                   const GemmDims &dims) {
  if (!dims.n || !llvm::all_of(op->getOperandTypes(), [](Type type) {
        return getElementTypeOrSelf(type).isF32();
      }))
    return std::nullopt;
  std::optional<unsigned> channel =
      op.getIndexingMapsArray()[2].getResultPosition(
          getAffineDimExpr(*dims.n, op.getContext()));
  return nx::findEpilogue(op, *channel);
}

/// Whether `op`'s body is C + A B and nothing else, each input widened to
/// C's type first where it is narrower (arith.extf, exact; arith.extsi for
/// i8). The contraction interface also takes bodies with unary ops in
/// between, such as acc + exp(a * b), or a bf16 product rounded to bf16
/// before it is widened and summed, which no GEMM computes.
static bool hasProductBody(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  Value accumulator = body->getArgument(2);
  Operation *add = body->getTerminator()->getOperand(0).getDefiningOp();
  if (!isa_and_present<arith::AddFOp, arith::AddIOp>(add) ||
      !llvm::is_contained(add->getOperands(), accumulator))
    return false;
  Value product = add->getOperand(add->getOperand(0) == accumulator ? 1 : 0);
  Operation *mul = product.getDefiningOp();
  if (!isa_and_present<arith::MulFOp, arith::MulIOp>(mul))
    return false;
  auto isInput = [&](Value value, unsigned index) {
    if (isa_and_present<arith::ExtFOp, arith::ExtSIOp>(value.getDefiningOp()))
      value = value.getDefiningOp()->getOperand(0);
    return value == body->getArgument(index);
  };
  Value lhs = mul->getOperand(0), rhs = mul->getOperand(1);
  return (isInput(lhs, 0) && isInput(rhs, 1)) ||
         (isInput(lhs, 1) && isInput(rhs, 0));
}

/// The element types of a product's A (and B) and C that libnxrt takes: f32
/// or f64 throughout, bf16 or f16 into f32, or i8 into i32.
static bool hasGemmElementTypes(linalg::LinalgOp op) {
  Type a = getElementTypeOrSelf(op->getOperand(0).getType());
  Type b = getElementTypeOrSelf(op->getOperand(1).getType());
  Type c = getElementTypeOrSelf(op->getOperand(2).getType());
  return a == b && (((a.isF32() || a.isF64()) && a == c) ||
                    ((a.isBF16() || a.isF16()) && c.isF32()) ||
                    (a.isSignlessInteger(8) && c.isSignlessInteger(32)));
}

/// Whether `op` is a product this pass turns into a call.
static bool isConvertible(linalg::LinalgOp op) {
  return op.hasPureBufferSemantics() && op->getNumOperands() == 3 &&
         hasGemmElementTypes(op) && succeeded(getGemmDims(op)) &&
         hasProductBody(op);
}

/// The libnxrt function a product of `op`'s element types calls: the
/// whole product or a part.
static StringRef getGemmFunction(linalg::LinalgOp op, GemmEntry entry) {
  Type a = getElementTypeOrSelf(op->getOperand(0).getType());
  if (entry == GemmEntry::PartEpilogue)
    return symbols::kGemmPartEpilogueF32;
  bool part = entry == GemmEntry::Part;
  if (a.isBF16())
    return part ? symbols::kGemmPartBf16F32 : symbols::kGemmBf16F32;
  if (a.isF16())
    return part ? symbols::kGemmPartF16F32 : symbols::kGemmF16F32;
  if (a.isInteger(8))
    return part ? symbols::kGemmPartI8I32 : symbols::kGemmI8I32;
  if (a.isF32())
    return part ? symbols::kGemmPartF32 : symbols::kGemmF32;
  return part ? symbols::kGemmPartF64 : symbols::kGemmF64;
}

/// How a convertible product runs: on the calling thread, or shared among
/// threads when its static size reaches `minWork` multiply-adds or its size
/// is known only at run time (then `dynamic` is set).
struct Sharing {
  bool shared = false;
  bool dynamic = false;
};

static Sharing getSharing(linalg::LinalgOp op, int64_t minWork) {
  Sharing sharing;
  // A team inside a team would run serially anyway.
  if (op->getParentOfType<omp::ParallelOp>())
    return sharing;
  int64_t work = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range)) {
      sharing.shared = sharing.dynamic = true;
      return sharing;
    }
    if (range == 0)
      return sharing;
    work = range > 0 && work > INT64_MAX / range ? INT64_MAX : work * range;
  }
  sharing.shared = work >= minWork;
  return sharing;
}

nx::BufferArguments nx::getBufferArguments(OpBuilder &builder, Location loc,
                                           Value buffer) {
  Type i64 = builder.getI64Type();
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(builder, loc, i64, index);
  };
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  // Built one statement at a time: the IR's order must not depend on the
  // order in which the compiler evaluates arguments.
  Value elementBytes = arith::ConstantIntOp::create(
      builder, loc, i64, element.getIntOrFloatBitWidth() / 8);
  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, buffer);
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, buffer);
  Value aligned64 = toI64(aligned);
  Value offset64 = toI64(metadata.getOffset());
  Value offsetBytes =
      arith::MulIOp::create(builder, loc, offset64, elementBytes);
  Value address = arith::AddIOp::create(builder, loc, aligned64, offsetBytes);
  nx::BufferArguments view;
  view.pointer = LLVM::IntToPtrOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()), address);
  for (Value stride : metadata.getStrides())
    view.strides.push_back(toI64(stride));
  for (Value size : metadata.getSizes())
    view.sizes.push_back(toI64(size));
  return view;
}

LogicalResult nx::verifyRuntimeDeclaration(ModuleOp module, StringRef name,
                                           Type expected, StringRef what) {
  Operation *symbol = SymbolTable::lookupSymbolIn(module, name);
  auto function = dyn_cast_if_present<LLVM::LLVMFuncOp>(symbol);
  if (!symbol || (function && function.getFunctionType() == expected))
    return success();
  return symbol->emitOpError()
         << "uses the name '" << name << "', which libnxrt's " << what
         << " have; expected their declaration " << expected;
}

/// Calls `gemm` (a nxrt_gemm_part_*) once per thread of an OpenMP team,
/// with the part's index and the number of parts before `arguments`. With
/// `dynamic` sizes the product may turn out small: an if clause then keeps
/// it on the calling thread, as one part of at least `minWork` multiply-adds.
static void callGemmInParts(PatternRewriter &rewriter, Location loc,
                            LLVM::LLVMFuncOp gemm, ArrayRef<Value> arguments,
                            bool dynamic, StringRef numThreadsFunction,
                            int64_t minWork) {
  Type i64 = rewriter.getI64Type();
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(rewriter, loc, i64, index);
  };
  Value threads = nx::callNumThreadsFunction(rewriter, loc, numThreadsFunction);
  Value large;
  Value parts = arith::IndexCastOp::create(rewriter, loc,
                                           rewriter.getIndexType(), threads);
  if (dynamic) {
    Value work = arguments[0];
    for (Value extent : arguments.slice(1, 3))
      work = arith::MulIOp::create(rewriter, loc, work, extent);
    Value threshold = arith::ConstantIntOp::create(rewriter, loc, i64, minWork);
    large = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                  work, threshold);
    Value single = arith::ConstantIndexOp::create(rewriter, loc, 1);
    parts = arith::SelectOp::create(rewriter, loc, large, parts, single);
  }
  Value partCount = toI64(parts);
  Value firstPart = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Block *body = nx::createTeamLoop(rewriter, loc, /*ifExpr=*/large, threads,
                                   firstPart, parts, step);
  SmallVector<Value> partArguments{toI64(body->getArgument(0)), partCount};
  llvm::append_range(partArguments, arguments);
  LLVM::CallOp::create(rewriter, loc, gemm, partArguments);
  omp::YieldOp::create(rewriter, loc, ValueRange());
}

/// The arguments of nxrt_gemm_<type> for `op`: batch, m, n, k, then
/// pointer, batch stride, row stride and column stride of A, B and C, read
/// from the descriptors (accumulate is not among them). `zero` and `one`
/// are i64 constants.
static SmallVector<Value> getGemmArguments(PatternRewriter &rewriter,
                                           linalg::LinalgOp op,
                                           const GemmDims &dims, Value zero,
                                           Value one) {
  Location loc = op.getLoc();
  MLIRContext *context = op.getContext();
  // Each operand's address, and its strides and sizes in the order of its
  // indexing map's results.
  SmallVector<Value> pointers;
  SmallVector<SmallVector<Value>> strides, sizes;
  for (Value buffer : op->getOperands()) {
    nx::BufferArguments view = nx::getBufferArguments(rewriter, loc, buffer);
    pointers.push_back(view.pointer);
    strides.push_back(std::move(view.strides));
    sizes.push_back(std::move(view.sizes));
  }

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // The stride of `operand` along loop dimension `dim`; `absent` where the
  // operand has no such dimension (a matvec's vectors are one column).
  auto strideAlong = [&](unsigned operand, std::optional<unsigned> dim,
                         Value absent) -> Value {
    if (!dim)
      return absent;
    std::optional<unsigned> position =
        maps[operand].getResultPosition(getAffineDimExpr(*dim, context));
    return strides[operand][*position];
  };
  // The extent of loop dimension `dim`, read from the first operand that
  // has it; 1 when there is none.
  auto extentOf = [&](std::optional<unsigned> dim) -> Value {
    if (!dim)
      return one;
    for (unsigned operand = 0; operand < 3; ++operand)
      if (std::optional<unsigned> position =
              maps[operand].getResultPosition(getAffineDimExpr(*dim, context)))
        return sizes[operand][*position];
    llvm_unreachable("every gemm dimension indexes an operand");
  };

  // A is [batch,] m x k, B [batch,] k x n and C [batch,] m x n.
  SmallVector<Value> arguments{extentOf(dims.batch), extentOf(dims.m),
                               extentOf(dims.n), extentOf(dims.k)};
  std::pair<std::optional<unsigned>, std::optional<unsigned>> rowsAndCols[] = {
      {dims.m, dims.k}, {dims.k, dims.n}, {dims.m, dims.n}};
  for (auto [operand, rowsAndCol] : llvm::enumerate(rowsAndCols))
    llvm::append_range(
        arguments,
        ArrayRef<Value>{pointers[operand],
                        strideAlong(operand, dims.batch, zero),
                        strideAlong(operand, rowsAndCol.first, one),
                        strideAlong(operand, rowsAndCol.second, one)});
  return arguments;
}

/// The epilogue's arguments of nxrt_gemm_part_epilogue_f32: the bias's
/// address (null without one), its stride and the ReLU flag. `zero` and
/// `one` are i64 constants.
static SmallVector<Value> getEpilogueArguments(PatternRewriter &rewriter,
                                               Location loc,
                                               const nx::Epilogue &epilogue,
                                               Value zero, Value one) {
  Value relu = epilogue.relu ? one : zero;
  if (!epilogue.bias) {
    Value none = LLVM::ZeroOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()));
    return {none, zero, relu};
  }
  nx::BufferArguments bias =
      nx::getBufferArguments(rewriter, loc, epilogue.bias);
  return {bias.pointer, bias.strides[0], relu};
}

LogicalResult
ContractionToGemm::matchAndRewrite(linalg::LinalgOp op,
                                   PatternRewriter &rewriter) const {
  if (!isConvertible(op))
    return rewriter.notifyMatchFailure(
        op, "not a (batched) f32, f64, bf16-into-f32, f16-into-f32 or "
            "i8-into-i32 matrix product on buffers");
  FailureOr<GemmDims> dims = getGemmDims(op);
  Sharing sharing;
  if (!numThreadsFunction.empty())
    sharing = getSharing(op, minWork);
  // Before anything is built in front of `op`.
  linalg::FillOp zeroFill = getZeroFillOfOutput(op);
  std::optional<nx::Epilogue> epilogue = getGemmEpilogue(op, *dims);

  // The declaration first: nothing may change when the match fails.
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return rewriter.notifyMatchFailure(op, "not in a module");
  MLIRContext *context = op.getContext();
  GemmEntry entry = epilogue         ? GemmEntry::PartEpilogue
                    : sharing.shared ? GemmEntry::Part
                                     : GemmEntry::Whole;
  StringRef name = getGemmFunction(op, entry);
  FailureOr<LLVM::LLVMFuncOp> gemm = LLVM::lookupOrCreateFn(
      rewriter, module, name, getGemmParameterTypes(context, entry),
      LLVM::LLVMVoidType::get(context));
  if (failed(gemm))
    return rewriter.notifyMatchFailure(op, "nxrt_gemm has another type");

  Location loc = op.getLoc();
  Type i64 = rewriter.getI64Type();
  // Built one statement at a time: the IR's order must not depend on the
  // order in which the compiler evaluates arguments.
  Value zero = arith::ConstantIntOp::create(rewriter, loc, i64, 0);
  Value one = arith::ConstantIntOp::create(rewriter, loc, i64, 1);
  SmallVector<Value> arguments =
      getGemmArguments(rewriter, op, *dims, zero, one);
  arguments.push_back(zeroFill ? zero : one);
  if (zeroFill)
    rewriter.eraseOp(zeroFill);
  if (epilogue) {
    llvm::append_range(
        arguments, getEpilogueArguments(rewriter, loc, *epilogue, zero, one));
    rewriter.eraseOp(epilogue->op);
  }
  if (sharing.shared) {
    callGemmInParts(rewriter, loc, *gemm, arguments, sharing.dynamic,
                    numThreadsFunction, minWork);
  } else {
    // One call on this thread: part 0 of 1 where the entry takes parts.
    SmallVector<Value> callArguments;
    if (entry != GemmEntry::Whole)
      callArguments = {zero, one};
    llvm::append_range(callArguments, arguments);
    LLVM::CallOp::create(rewriter, loc, *gemm, callArguments);
  }
  rewriter.eraseOp(op);
  return success();
}

void nx::populateLinalgToBlasPatterns(RewritePatternSet &patterns,
                                      StringRef numThreadsFunction,
                                      int64_t minWork) {
  patterns.add<ContractionToGemm>(patterns.getContext(), numThreadsFunction,
                                  minWork);
}

namespace {

struct NxLinalgToBlasPass
    : nx::impl::NxLinalgToBlasPassBase<NxLinalgToBlasPass> {
  using NxLinalgToBlasPassBase::NxLinalgToBlasPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(nx::checkTeamPassInput(module, getArgument(), minWork)))
      return signalPassFailure();
    // A symbol of the runtime's name that is not its declaration would
    // make every contraction fail to convert, silently.
    static constexpr std::pair<StringLiteral, GemmEntry> kDeclarations[] = {
        {symbols::kGemmF32, GemmEntry::Whole},
        {symbols::kGemmF64, GemmEntry::Whole},
        {symbols::kGemmPartF32, GemmEntry::Part},
        {symbols::kGemmPartF64, GemmEntry::Part},
        {symbols::kGemmBf16F32, GemmEntry::Whole},
        {symbols::kGemmPartBf16F32, GemmEntry::Part},
        {symbols::kGemmF16F32, GemmEntry::Whole},
        {symbols::kGemmPartF16F32, GemmEntry::Part},
        {symbols::kGemmI8I32, GemmEntry::Whole},
        {symbols::kGemmPartI8I32, GemmEntry::Part},
        {symbols::kGemmPartEpilogueF32, GemmEntry::PartEpilogue}};
    for (auto [name, entry] : kDeclarations) {
      auto expected = LLVM::LLVMFunctionType::get(
          LLVM::LLVMVoidType::get(&getContext()),
          getGemmParameterTypes(&getContext(), entry));
      if (failed(nx::verifyRuntimeDeclaration(module, name, expected,
                                              "contractions")))
        return signalPassFailure();
    }
    int64_t before = 0, after = 0, shared = 0, overwrites = 0, epilogues = 0;
    // A conversion erases ops after the product (its epilogue), which a
    // walk would visit next: the products are collected first.
    SmallVector<Operation *> products;
    // Contractions, not linalg ops: the fills taken over go too.
    module.walk([&](linalg::LinalgOp op) {
      if (!isConvertible(op))
        return;
      ++before;
      products.push_back(op);
      if (!numThreadsFunction.empty() && getSharing(op, minWork).shared)
        ++shared;
      if (getZeroFillOfOutput(op))
        ++overwrites;
      if (getGemmEpilogue(op, *getGemmDims(op)))
        ++epilogues;
    });
    if (shared > 0 &&
        failed(nx::declareNumThreadsFunction(module, numThreadsFunction)))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    nx::populateLinalgToBlasPatterns(patterns, numThreadsFunction, minWork);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps)
        .enableFolding(false);
    if (failed(applyOpPatternsGreedily(products, std::move(patterns), config)))
      return signalPassFailure();
    module.walk([&](linalg::LinalgOp op) { after += isConvertible(op); });
    nx::addStatistic(numContractions, before - after);
    nx::addStatistic(numSharedContractions, shared);
    nx::addStatistic(numFusedEpilogues, epilogues);
    nx::addStatistic(numOverwrites, overwrites);
  }
};

} // namespace

#undef DEBUG_TYPE
