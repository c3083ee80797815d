//===- FirstRunPreparation.cpp - what __nx_init sets up -------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FirstRunPreparation.h"

#include "HeapEstimate.h"
#include "RuntimeFunctions.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"

#include "nxrt/nxrt.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

#include <algorithm>
#include <map>
#include <optional>

using namespace mlir;
using namespace mlir::nx;
namespace symbols = mlir::nx::runtime_symbols;

/// nxrt_conv2d_prepare_f32's arguments for `call` of nxrt_conv2d_f32, or
/// nothing when a size or stride is not a constant. The call's pointers
/// are, in order, the input, filter, bias and output (nxrt.h); the bias's
/// stride that follows its pointer becomes whether there is one.
static std::optional<SmallVector<int64_t>>
getConvolutionPrepareArguments(LLVM::CallOp call) {
  SmallVector<int64_t> arguments;
  int pointers = 0;
  bool afterBias = false;
  for (Value operand : call.getArgOperands()) {
    if (isa<LLVM::LLVMPointerType>(operand.getType())) {
      if (++pointers == 3) {
        arguments.push_back(
            isa_and_present<LLVM::ZeroOp>(operand.getDefiningOp()) ? 0 : 1);
        afterBias = true;
      }
      continue;
    }
    if (afterBias) {
      afterBias = false;
      continue;
    }
    APInt value;
    if (!matchPattern(operand, m_ConstantInt(&value)))
      return std::nullopt;
    arguments.push_back(value.getSExtValue());
  }
  if (arguments.size() != kConv2dPrepareParameters)
    return std::nullopt;
  return arguments;
}

/// The distinct results of `getArguments` for `module`'s calls of the
/// functions in `callees`, in program order; calls it gives nothing for
/// are left out.
template <typename GetArguments>
static SmallVector<SmallVector<int64_t>>
findDistinctArguments(ModuleOp module, ArrayRef<StringRef> callees,
                      GetArguments getArguments) {
  SmallVector<SmallVector<int64_t>> found;
  module.walk([&](LLVM::CallOp call) {
    std::optional<StringRef> callee = call.getCallee();
    if (!callee || !llvm::is_contained(callees, *callee))
      return;
    std::optional<SmallVector<int64_t>> arguments = getArguments(call);
    if (arguments && !llvm::is_contained(found, *arguments))
      found.push_back(std::move(*arguments));
  });
  return found;
}

/// The integer `call` passes as argument `index`, if it is a constant.
static std::optional<int64_t> getConstantArgument(LLVM::CallOp call,
                                                  unsigned index) {
  APInt value;
  if (index >= call.getArgOperands().size() ||
      !matchPattern(call.getArgOperands()[index], m_ConstantInt(&value)))
    return std::nullopt;
  return value.getSExtValue();
}

/// nxrt_gemm_prepare_*'s arguments for `call` of a product (`part`: of a
/// part of one), or nothing when a size, stride or the accumulate flag is
/// not a constant: whether it is shared, then the call's integers but the
/// part and the number of parts (nxrt.h).
static std::optional<SmallVector<int64_t>>
getProductPrepareArguments(LLVM::CallOp call, bool part) {
  SmallVector<int64_t> arguments = {part ? 1 : 0};
  for (Value operand : call.getArgOperands().drop_front(part ? 2 : 0)) {
    if (isa<LLVM::LLVMPointerType>(operand.getType()))
      continue;
    APInt value;
    if (!matchPattern(operand, m_ConstantInt(&value)))
      return std::nullopt;
    arguments.push_back(value.getSExtValue());
  }
  if (arguments.size() != kGemmPrepareParameters)
    return std::nullopt;
  return arguments;
}

/// The most elements a widening buffer is prepared for at load (64 MiB of
/// floats): a larger product's first run maps the rest.
static constexpr int64_t kMaxPreparedWidening = int64_t(1) << 24;

/// The dtype (nxrt_dtype_t) of the operands of libnxrt's product `callee`
/// that widens them on some CPUs, and whether it computes a part; nothing
/// for other functions.
static std::optional<std::pair<nxrt_dtype_t, bool>>
getWidenedProduct(StringRef callee) {
  if (callee == symbols::kGemmBf16F32 || callee == symbols::kGemmPartBf16F32)
    return std::make_pair(NXRT_BF16, callee == symbols::kGemmPartBf16F32);
  if (callee == symbols::kGemmF16F32 || callee == symbols::kGemmPartF16F32)
    return std::make_pair(NXRT_F16, callee == symbols::kGemmPartF16F32);
  if (callee == symbols::kGemmI8I32 || callee == symbols::kGemmPartI8I32)
    return std::make_pair(NXRT_I8, callee == symbols::kGemmPartI8I32);
  return std::nullopt;
}

/// nxrt_gemm_prepare_widened's arguments for each dtype of `module`'s bf16,
/// f16 and i8 products of constant sizes: the dtype, then the widening
/// buffers they need at most (A's and B's floats, C's elements), each at
/// most kMaxPreparedWidening. A part of a product needs no more than the
/// whole; B's rows may be padded by up to 48 floats (libnxrt's Sgemm.cpp),
/// and an i8 product widens 1024 steps of its reduction at a time.
static SmallVector<SmallVector<int64_t>>
findWideningArguments(ModuleOp module) {
  auto product = [](int64_t a, int64_t b) -> int64_t {
    if (a <= 0 || b <= 0)
      return 0;
    return b > kMaxPreparedWidening / a ? kMaxPreparedWidening : a * b;
  };
  // By dtype, in the order of nxrt_dtype_t, so that calls come in one order.
  std::map<nxrt_dtype_t, std::array<int64_t, 3>> sizes;
  module.walk([&](LLVM::CallOp call) {
    std::optional<StringRef> callee = call.getCallee();
    std::optional<std::pair<nxrt_dtype_t, bool>> widened =
        callee ? getWidenedProduct(*callee) : std::nullopt;
    if (!widened)
      return;
    auto [dtype, part] = *widened;
    bool i8 = dtype == NXRT_I8;
    // m, n and k follow the batch (and the part and parts).
    unsigned first = part ? 3 : 1;
    std::optional<int64_t> mnk[3];
    for (unsigned i = 0; i < 3; ++i)
      if (!(mnk[i] = getConstantArgument(call, first + i)))
        return;
    int64_t m = *mnk[0], n = *mnk[1], k = *mnk[2];
    int64_t steps = i8 ? std::min<int64_t>(k, 1024) : k;
    std::array<int64_t, 3> needed = {
        product(m, steps), product(steps, n > INT64_MAX - 48 ? n : n + 48),
        i8 ? product(m, n) : 0};
    std::array<int64_t, 3> &most = sizes.try_emplace(dtype).first->second;
    for (unsigned i = 0; i < 3; ++i)
      most[i] = std::min(std::max(most[i], needed[i]), kMaxPreparedWidening);
  });
  SmallVector<SmallVector<int64_t>> arguments;
  for (auto &[dtype, most] : sizes)
    if (llvm::any_of(most, [](int64_t size) { return size > 0; }))
      arguments.push_back({dtype, most[0], most[1], most[2]});
  return arguments;
}

/// The most floats libnxrt copies B into for an f32 product (Sgemm.cpp,
/// kMaxCopiedFloats).
static constexpr int64_t kMaxPaddedFloats = int64_t(1) << 21;

/// The floats of the largest padded copy of B that `module`'s f32 products
/// of constant sizes may take (libnxrt's Sgemm.cpp): those whose B is
/// row-major with rows a multiple of 256 floats apart, k rows of n floats
/// padded by at most 48, of at most kMaxPaddedFloats. Whether a
/// product takes the copy also depends on its rows and on the CPU, which
/// the runtime decides.
static int64_t findPaddedBFloats(ModuleOp module) {
  int64_t most = 0;
  module.walk([&](LLVM::CallOp call) {
    std::optional<StringRef> callee = call.getCallee();
    if (!callee ||
        (*callee != symbols::kGemmF32 && *callee != symbols::kGemmPartF32 &&
         *callee != symbols::kGemmPartEpilogueF32))
      return;
    // m, n and k follow the batch (and the part and parts); B's row and
    // column strides follow A's four arguments and B's address and batch
    // stride.
    unsigned first = *callee == symbols::kGemmF32 ? 1 : 3;
    std::optional<int64_t> n = getConstantArgument(call, first + 1);
    std::optional<int64_t> k = getConstantArgument(call, first + 2);
    std::optional<int64_t> bRows = getConstantArgument(call, first + 9);
    std::optional<int64_t> bCols = getConstantArgument(call, first + 10);
    // Sizes past kMaxPaddedFloats first: n + 48 must not overflow.
    if (!n || !k || !bRows || !bCols || *n <= 1 || *k <= 0 || *bCols != 1 ||
        *bRows <= 0 || *bRows % 256 != 0 || *n > kMaxPaddedFloats ||
        *n + 48 > kMaxPaddedFloats / *k)
      return;
    most = std::max(most, *k * (*n + 48));
  });
  return most;
}

FailureOr<FirstRunPreparation>
nx::declareFirstRunPreparation(RewriterBase &rewriter, ModuleOp module) {
  FirstRunPreparation preparation;
  auto declare = [&](StringRef name, LLVM::LLVMFuncOp &func) {
    FailureOr<LLVM::LLVMFuncOp> declared =
        lookupOrCreateRuntimeFunction(rewriter, module, name);
    if (succeeded(declared))
      func = *declared;
    return succeeded(declared);
  };
  auto has = [&](StringRef name) {
    return SymbolTable::lookupSymbolIn(module, name) != nullptr;
  };
  // f16 and i8 products run on the f32 GEMM, and bf16 ones where the CPU
  // has no bf16 kernels.
  if ((has(symbols::kGemmF32) || has(symbols::kGemmPartF32) ||
       has(symbols::kGemmPartEpilogueF32) || has(symbols::kGemmBf16F32) ||
       has(symbols::kGemmPartBf16F32) || has(symbols::kGemmF16F32) ||
       has(symbols::kGemmPartF16F32) || has(symbols::kGemmI8I32) ||
       has(symbols::kGemmPartI8I32)) &&
      !declare(symbols::kGemmPrepare, preparation.gemm))
    return failure();
  // Parallel loop nests and products size their teams by this function.
  if (has(symbols::kComputeThreads) &&
      !declare(symbols::kThreadsPrepare, preparation.threads))
    return failure();
  preparation.heapBytes = estimatePeakHeapBytes(module);
  if (preparation.heapBytes &&
      !declare(symbols::kHeapPrepare, preparation.heap))
    return failure();
  if (has(symbols::kConv2dF32))
    preparation.convolutionArguments = findDistinctArguments(
        module, {symbols::kConv2dF32}, getConvolutionPrepareArguments);
  if (!preparation.convolutionArguments.empty() &&
      !declare(symbols::kConv2dPrepareF32, preparation.convolution))
    return failure();
  preparation.wideningArguments = findWideningArguments(module);
  if (!preparation.wideningArguments.empty() &&
      !declare(symbols::kGemmPrepareWidened, preparation.widening))
    return failure();
  preparation.paddedBFloats = findPaddedBFloats(module);
  if (preparation.paddedBFloats > 0 &&
      !declare(symbols::kGemmPreparePadded, preparation.padding))
    return failure();
  auto productArguments = [](LLVM::CallOp call) {
    return getProductPrepareArguments(
        call, call.getCallee() == symbols::kGemmPartBf16F32 ||
                  call.getCallee() == symbols::kGemmPartI8I32);
  };
  preparation.bf16ProductArguments = findDistinctArguments(
      module, {symbols::kGemmBf16F32, symbols::kGemmPartBf16F32},
      productArguments);
  if (!preparation.bf16ProductArguments.empty() &&
      !declare(symbols::kGemmPrepareBf16F32, preparation.bf16Products))
    return failure();
  preparation.i8ProductArguments = findDistinctArguments(
      module, {symbols::kGemmI8I32, symbols::kGemmPartI8I32}, productArguments);
  if (!preparation.i8ProductArguments.empty() &&
      !declare(symbols::kGemmPrepareI8I32, preparation.i8Products))
    return failure();
  return preparation;
}

void nx::callFirstRunPreparation(RewriterBase &rewriter, Location loc,
                                 const FirstRunPreparation &preparation) {
  // One constant per value: the convolutions' arguments repeat a few sizes.
  // Not a DenseMap: INT64_MAX and INT64_MIN, its empty and tombstone keys,
  // are sizes a program may state (found by fuzzing).
  std::map<int64_t, Value> constants;
  auto constant = [&](int64_t value) -> Value {
    Value &made = constants[value];
    if (!made)
      made = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                      rewriter.getI64IntegerAttr(value));
    return made;
  };
  for (LLVM::LLVMFuncOp func : {preparation.gemm, preparation.threads})
    if (func)
      LLVM::CallOp::create(rewriter, loc, func, ValueRange{});
  auto callEach = [&](LLVM::LLVMFuncOp func,
                      ArrayRef<SmallVector<int64_t>> argumentLists) {
    for (ArrayRef<int64_t> arguments : argumentLists)
      LLVM::CallOp::create(rewriter, loc, func,
                           llvm::map_to_vector(arguments, constant));
  };
  // After the team has started: its threads get their buffers. The dtype
  // is a C enum, an i32.
  for (ArrayRef<int64_t> arguments : preparation.wideningArguments) {
    SmallVector<Value> operands = {LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI32Type(),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(arguments.front())))};
    llvm::append_range(operands,
                       llvm::map_range(arguments.drop_front(), constant));
    LLVM::CallOp::create(rewriter, loc, preparation.widening, operands);
  }
  if (preparation.padding)
    LLVM::CallOp::create(rewriter, loc, preparation.padding,
                         ValueRange{constant(preparation.paddedBFloats)});
  // After the team has started: the kernels are made for its size.
  callEach(preparation.convolution, preparation.convolutionArguments);
  callEach(preparation.bf16Products, preparation.bf16ProductArguments);
  callEach(preparation.i8Products, preparation.i8ProductArguments);
  // Last: the buffers the calls above keep for the loading thread (a
  // convolution's input and output in its kernel's layout, the widened
  // operands, a padded copy of B) would otherwise take the heap prepared for
  // the program's own buffers, which would then fault in their pages in the
  // first run.
  if (preparation.heap) {
    // An estimate past INT64_MAX is still far past what the runtime
    // prepares.
    uint64_t bytes = std::min<uint64_t>(preparation.heapBytes, INT64_MAX);
    LLVM::CallOp::create(rewriter, loc, preparation.heap,
                         ValueRange{constant(static_cast<int64_t>(bytes))});
  }
}
