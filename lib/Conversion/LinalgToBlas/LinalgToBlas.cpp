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
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#define DEBUG_TYPE "convert-linalg-to-blas"

namespace mlir::nx {
#define GEN_PASS_DEF_CONVERTLINALGTOBLASPASS
#include "nx/Conversion/Passes.h.inc"
} // namespace mlir::nx

using namespace mlir;
namespace symbols = mlir::nx::runtime_symbols;

namespace {

/// One operand of nxrt_gemm as run-time values: the address of its first
/// element, and its batch, row and column strides in elements.
struct GemmOperand {
  Value pointer, batchStride, rowStride, colStride;
};

/// Replaces a contraction by nxrt_gemm_<type>(batch, m, n, k, then pointer,
/// batch stride, row stride and column stride of A, B and C).
struct ContractionToGemm : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override;
};

} // namespace

/// The canonical maps of `op`'s kind (those its builder makes), or an empty
/// list when `op` is no contraction this conversion handles.
static SmallVector<AffineMap> getCanonicalMaps(linalg::LinalgOp op) {
  MLIRContext *context = op.getContext();
  auto maps = [&](unsigned dims, ArrayRef<ArrayRef<unsigned>> results) {
    SmallVector<AffineMap> list;
    for (ArrayRef<unsigned> positions : results) {
      SmallVector<AffineExpr> exprs;
      for (unsigned position : positions)
        exprs.push_back(getAffineDimExpr(position, context));
      list.push_back(AffineMap::get(dims, 0, exprs, context));
    }
    return list;
  };
  // (m, n, k), (b, m, n, k) and (m, k).
  if (isa<linalg::MatmulOp>(op))
    return maps(3, {{0, 2}, {2, 1}, {0, 1}});
  if (isa<linalg::BatchMatmulOp>(op))
    return maps(4, {{0, 1, 3}, {0, 3, 2}, {0, 1, 2}});
  if (isa<linalg::MatvecOp>(op))
    return maps(2, {{0, 1}, {1}, {0}});
  return {};
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
  SmallVector<AffineMap> canonical = getCanonicalMaps(op);
  if (canonical.empty() || !op.hasPureBufferSemantics() ||
      op->getNumOperands() != 3 || op.getIndexingMapsArray() != canonical)
    return rewriter.notifyMatchFailure(op, "not a canonical contraction");
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
  bool batched = isa<linalg::BatchMatmulOp>(op);
  bool matvec = isa<linalg::MatvecOp>(op);

  // Each operand's descriptor: its sizes and strides in (batch,) row, column
  // order; a vector of matvec is a one-column matrix.
  SmallVector<GemmOperand> operands;
  SmallVector<SmallVector<Value>> sizes;
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
    GemmOperand operand;
    operand.pointer = LLVM::IntToPtrOp::create(rewriter, loc, ptr, address);
    SmallVector<Value> strides, extents;
    for (Value stride : metadata.getStrides())
      strides.push_back(toI64(stride));
    for (Value size : metadata.getSizes())
      extents.push_back(toI64(size));
    if (strides.size() == 1) { // matvec's vectors
      strides.push_back(one);
      extents.push_back(one);
    }
    operand.batchStride = batched ? strides[0] : zero;
    operand.rowStride = strides[strides.size() - 2];
    operand.colStride = strides.back();
    operands.push_back(operand);
    sizes.push_back(std::move(extents));
  }
  // A is [batch,] m x k and B [batch,] k x n.
  ArrayRef<Value> sizesA = sizes[0], sizesB = sizes[1];
  Value batch = batched ? sizesA[0] : one;
  Value m = sizesA[sizesA.size() - 2];
  Value k = sizesA.back();
  Value n = matvec ? one : sizesB.back();

  SmallVector<Value> arguments{batch, m, n, k};
  for (const GemmOperand &operand : operands)
    llvm::append_range(arguments,
                       ArrayRef<Value>{operand.pointer, operand.batchStride,
                                       operand.rowStride, operand.colStride});
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
