//===- LinalgToBlas.cpp - linalg contractions to libnxrt's gemm -----------===//
//
// A contraction on buffers becomes one call of nxrt_gemm_<type> with the
// operands' base pointers, sizes and element strides, read from the memrefs'
// descriptors at run time: any layout is passed through, and the runtime
// picks BLAS or, for layouts BLAS cannot take, a plain loop.
//
//===----------------------------------------------------------------------===//

#include "nx/Conversion/LinalgToBlas/LinalgToBlas.h"
#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"
#include "nx/Conversion/Passes.h"
#include "nx/Support/PassStatistics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include "llvm/ADT/DenseSet.h"

#include <optional>

#define DEBUG_TYPE "convert-linalg-to-blas"

namespace mlir::nx {
#define GEN_PASS_DEF_CONVERTLINALGTOBLASPASS
#include "nx/Conversion/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
namespace symbols = mlir::nx::runtime_symbols;

namespace {

/// Replaces a contraction by nxrt_gemm_<type>(batch, m, n, k, then pointer,
/// batch stride, row stride and column stride of A, B and C).
struct ContractionToGemm : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override;
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
  unsigned loops = (gemm.batch ? 1 : 0) + (gemm.m ? 1 : 0) +
                   (gemm.n ? 1 : 0) + 1;
  if (op.getNumLoops() != loops)
    return failure();
  SmallVector<llvm::SmallDenseSet<unsigned>> expected = {
      operandDims(gemm.m, gemm.k), operandDims(gemm.k, gemm.n),
      operandDims(gemm.m, gemm.n)};
  for (auto [map, want] : llvm::zip_equal(op.getIndexingMapsArray(), expected)) {
    if (!map.isProjectedPermutation() || map.getNumResults() != want.size())
      return failure();
    for (AffineExpr result : map.getResults())
      if (!want.contains(cast<AffineDimExpr>(result).getPosition()))
        return failure();
  }
  return gemm;
}

/// The parameters of nxrt_gemm_<type>: batch, m, n, k, then pointer, batch
/// stride, row stride and column stride of A, B and C.
static SmallVector<Type> getGemmParameterTypes(MLIRContext *context) {
  Type i64 = IntegerType::get(context, 64);
  Type ptr = LLVM::LLVMPointerType::get(context);
  SmallVector<Type> types(4, i64);
  for (int operand = 0; operand < 3; ++operand)
    llvm::append_range(types, ArrayRef<Type>{ptr, i64, i64, i64});
  return types;
}

LogicalResult
ContractionToGemm::matchAndRewrite(linalg::LinalgOp op,
                                   PatternRewriter &rewriter) const {
  if (!op.hasPureBufferSemantics() || op->getNumOperands() != 3)
    return rewriter.notifyMatchFailure(op, "not a contraction on buffers");
  FailureOr<GemmDims> dims = getGemmDims(op);
  if (failed(dims))
    return rewriter.notifyMatchFailure(op, "not a (batched) matrix product");
  Type element = getElementTypeOrSelf(op->getOperand(0).getType());
  if (!element.isF32() && !element.isF64())
    return rewriter.notifyMatchFailure(op, "not f32 or f64");
  for (Value operand : op->getOperands())
    if (getElementTypeOrSelf(operand.getType()) != element)
      return rewriter.notifyMatchFailure(op, "mixed element types");

  // The declaration first: nothing may change when the match fails.
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return rewriter.notifyMatchFailure(op, "not in a module");
  MLIRContext *context = op.getContext();
  StringRef name = element.isF32() ? symbols::kGemmF32 : symbols::kGemmF64;
  FailureOr<LLVM::LLVMFuncOp> gemm = LLVM::lookupOrCreateFn(
      rewriter, module, name, getGemmParameterTypes(context),
      LLVM::LLVMVoidType::get(context));
  if (failed(gemm))
    return rewriter.notifyMatchFailure(op, "nxrt_gemm has another type");

  Location loc = op.getLoc();
  Type i64 = rewriter.getI64Type();
  Type ptr = LLVM::LLVMPointerType::get(context);
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(rewriter, loc, i64, index);
  };
  // Built one statement at a time: the IR's order must not depend on the
  // order in which the compiler evaluates arguments.
  Value zero = arith::ConstantIntOp::create(rewriter, loc, i64, 0);
  Value one = arith::ConstantIntOp::create(rewriter, loc, i64, 1);
  Value elementBytes = arith::ConstantIntOp::create(
      rewriter, loc, i64, element.getIntOrFloatBitWidth() / 8);

  // Each operand's address, and its strides and sizes in the order of its
  // indexing map's results.
  SmallVector<Value> pointers;
  SmallVector<SmallVector<Value>> strides, sizes;
  for (Value buffer : op->getOperands()) {
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, buffer);
    Value aligned =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, buffer);
    Value aligned64 = toI64(aligned);
    Value offset64 = toI64(metadata.getOffset());
    Value offsetBytes =
        arith::MulIOp::create(rewriter, loc, offset64, elementBytes);
    Value address =
        arith::AddIOp::create(rewriter, loc, aligned64, offsetBytes);
    pointers.push_back(LLVM::IntToPtrOp::create(rewriter, loc, ptr, address));
    SmallVector<Value> operandStrides, operandSizes;
    for (Value stride : metadata.getStrides())
      operandStrides.push_back(toI64(stride));
    for (Value size : metadata.getSizes())
      operandSizes.push_back(toI64(size));
    strides.push_back(std::move(operandStrides));
    sizes.push_back(std::move(operandSizes));
  }

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // The stride of `operand` along loop dimension `dim`; `absent` where the
  // operand has no such dimension (a matvec's vectors are one column).
  auto strideAlong = [&](unsigned operand, std::optional<unsigned> dim,
                         Value absent) -> Value {
    if (!dim)
      return absent;
    std::optional<unsigned> position = maps[operand].getResultPosition(
        getAffineDimExpr(*dim, context));
    return strides[operand][*position];
  };
  // The extent of loop dimension `dim`, read from the first operand that
  // has it; 1 when there is none.
  auto extentOf = [&](std::optional<unsigned> dim) -> Value {
    if (!dim)
      return one;
    for (unsigned operand = 0; operand < 3; ++operand)
      if (std::optional<unsigned> position = maps[operand].getResultPosition(
              getAffineDimExpr(*dim, context)))
        return sizes[operand][*position];
    llvm_unreachable("every gemm dimension indexes an operand");
  };

  // A is [batch,] m x k, B [batch,] k x n and C [batch,] m x n.
  SmallVector<Value> arguments{extentOf(dims->batch), extentOf(dims->m),
                               extentOf(dims->n), extentOf(dims->k)};
  std::pair<std::optional<unsigned>, std::optional<unsigned>> rowsAndCols[] = {
      {dims->m, dims->k}, {dims->k, dims->n}, {dims->m, dims->n}};
  for (auto [operand, rowsAndCol] : llvm::enumerate(rowsAndCols))
    llvm::append_range(
        arguments,
        ArrayRef<Value>{pointers[operand],
                        strideAlong(operand, dims->batch, zero),
                        strideAlong(operand, rowsAndCol.first, one),
                        strideAlong(operand, rowsAndCol.second, one)});
  LLVM::CallOp::create(rewriter, loc, *gemm, arguments);
  rewriter.eraseOp(op);
  return success();
}

void nx::populateLinalgToBlasPatterns(RewritePatternSet &patterns) {
  patterns.add<ContractionToGemm>(patterns.getContext());
}

namespace {

struct ConvertLinalgToBlasPass
    : nx::impl::ConvertLinalgToBlasPassBase<ConvertLinalgToBlasPass> {
  void runOnOperation() override {
    // A symbol of the runtime's name that is not its declaration would
    // make every contraction fail to convert, silently.
    auto expected =
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(&getContext()),
                                    getGemmParameterTypes(&getContext()));
    for (StringRef name : {symbols::kGemmF32, symbols::kGemmF64}) {
      Operation *symbol = SymbolTable::lookupSymbolIn(getOperation(), name);
      auto function = dyn_cast_if_present<LLVM::LLVMFuncOp>(symbol);
      if (symbol && (!function || function.getFunctionType() != expected)) {
        symbol->emitOpError() << "uses the name '" << name
                              << "', which libnxrt's contractions have; "
                                 "expected their declaration "
                              << expected;
        return signalPassFailure();
      }
    }
    int64_t before = 0, after = 0;
    getOperation().walk([&](linalg::LinalgOp) { ++before; });
    RewritePatternSet patterns(&getContext());
    nx::populateLinalgToBlasPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    getOperation().walk([&](linalg::LinalgOp) { ++after; });
    nx::addStatistic(numContractions, before - after);
  }
};

} // namespace
