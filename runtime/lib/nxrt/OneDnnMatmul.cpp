//===- OneDnnMatmul.cpp - bf16 and i8 products on oneDNN's kernels --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// oneDNN 2.6 exports no bf16 GEMM, and its integer GEMM may saturate, so
// both products use its matmul primitive: a kernel JIT-compiled for one
// shape and layout, on the CPU's bf16 dot products (VDPBF16PS of AVX-512
// BF16), its int8 ones (VPDPBUSD of AVX-512 VNNI) or its AMX tiles.
// Primitives are kept per shape and layout, like the convolutions'
// (Convolution.cpp). Without those instructions oneDNN emulates bf16 in
// more instructions than an f32 product takes, and pairs int8 products in
// saturating 16-bit sums: WidenedGemm.cpp then widens the operands to f32
// for its f32 GEMM instead.
//
//===----------------------------------------------------------------------===//

#include "OneDnnMatmul.h"

#include "Dnnl.h"

#include "absl/hash/hash.h"

#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace {

/// The element types of a product: its operands' and its result's.
enum class MatmulTypes { Bf16IntoF32, I8IntoI32 };

/// Everything that selects a primitive.
struct MatmulKey {
  MatmulTypes types;
  bool transA, transB;
  int64_t m, n, k, lda, ldb, ldc;
  bool accumulate;

  auto tie() const {
    return std::tie(types, transA, transB, m, n, k, lda, ldb, ldc, accumulate);
  }
  bool operator==(const MatmulKey &other) const { return tie() == other.tie(); }
  template <typename H> friend H AbslHashValue(H state, const MatmulKey &key) {
    return H::combine(std::move(state), key.tie());
  }
};

/// A primitive, the layouts of its operands and its scratchpad.
struct MatmulPlan {
  dnnl::matmul matmul;
  dnnl::memory::desc a, b, c, scratchpad;
};

/// An operand's layout: `rows` x `cols`, row-major with `leading` elements
/// a row, or the transpose of such a matrix.
dnnl::memory::desc operandLayout(int64_t rows, int64_t cols, int64_t leading,
                                 bool transposed,
                                 dnnl::memory::data_type type) {
  dnnl::memory::dims strides = transposed ? dnnl::memory::dims{1, leading}
                                          : dnnl::memory::dims{leading, 1};
  return dnnl::memory::desc({rows, cols}, type, strides);
}

/// Whether oneDNN picked a kernel worth calling: not its reference loops,
/// which take longer than widening to f32, and for int8 one that runs on
/// VNNI or AMX, whose sums are exact.
bool isUsableKernel(MatmulTypes types, const std::string &implementation) {
  if (implementation.find("ref") != std::string::npos)
    return false;
  return types != MatmulTypes::I8IntoI32 ||
         implementation.find("vnni") != std::string::npos ||
         implementation.find("amx") != std::string::npos;
}

/// The primitive for `key`, or nullptr when oneDNN has no usable kernel
/// for it (isUsableKernel).
std::shared_ptr<const MatmulPlan> makePlan(const MatmulKey &key) {
  using namespace dnnl;
  using dt = memory::data_type;
  bool bf16 = key.types == MatmulTypes::Bf16IntoF32;
  dt operands = bf16 ? dt::bf16 : dt::s8, result = bf16 ? dt::f32 : dt::s32;
  try {
    auto plan = std::make_shared<MatmulPlan>();
    plan->a = operandLayout(key.m, key.k, key.lda, key.transA, operands);
    plan->b = operandLayout(key.k, key.n, key.ldb, key.transB, operands);
    plan->c = operandLayout(key.m, key.n, key.ldc, false, result);
    post_ops postOps;
    if (key.accumulate)
      postOps.append_sum(1.0f);
    primitive_attr attributes = nxrt::withUserScratchpad(primitive_attr());
    attributes.set_post_ops(postOps);
    matmul::primitive_desc primitive(matmul::desc(plan->a, plan->b, plan->c),
                                     attributes, nxrt::dnnlCpuEngine());
    if (!isUsableKernel(key.types, primitive.impl_info_str()))
      return nullptr;
    plan->matmul = matmul(primitive);
    plan->scratchpad = primitive.scratchpad_desc();
    return plan;
  } catch (const dnnl::error &) {
    return nullptr;
  }
}

nxrt::PlanCache<MatmulKey, MatmulPlan> &planCache() {
  static auto *cache = new nxrt::PlanCache<MatmulKey, MatmulPlan>(makePlan);
  return *cache;
}

/// Whether oneDNN's effective instruction set includes all of `isa`.
bool effectiveIsaIncludes(dnnl_cpu_isa_t isa) {
  auto effective = static_cast<unsigned>(dnnl_get_effective_cpu_isa());
  auto wanted = static_cast<unsigned>(isa);
  return (effective & wanted) == wanted;
}

/// Runs `key`'s primitive on A, B and C. Returns false, before C is
/// written, when there is none or oneDNN failed.
bool runMatmul(const MatmulKey &key, const void *a, const void *b, void *c) {
  if (key.m <= 0 || key.n <= 0 || key.k <= 0)
    return false;
  std::shared_ptr<const MatmulPlan> plan = planCache().get(key);
  if (!plan)
    return false;
  // oneDNN reports failures (memory for the scratchpad) as exceptions,
  // thrown before its kernel writes C.
  try {
    using dnnl::memory;
    dnnl::engine &engine = nxrt::dnnlCpuEngine();
    thread_local dnnl::stream stream(engine);
    thread_local nxrt::ScratchBuffer scratchpad;
    // oneDNN's memory objects take non-const handles; A and B are only
    // read.
    std::unordered_map<int, memory> arguments{
        {DNNL_ARG_SRC, memory(plan->a, engine, const_cast<void *>(a))},
        {DNNL_ARG_WEIGHTS, memory(plan->b, engine, const_cast<void *>(b))},
        {DNNL_ARG_DST, memory(plan->c, engine, c)}};
    if (size_t bytes = plan->scratchpad.get_size())
      arguments.emplace(DNNL_ARG_SCRATCHPAD, memory(plan->scratchpad, engine,
                                                    scratchpad.get(bytes)));
    plan->matmul.execute(stream, arguments);
    stream.wait();
    return true;
  } catch (const dnnl::error &) {
    return false;
  }
}

} // namespace

namespace nxrt {

bool hasNativeBf16() {
  static const bool native =
      effectiveIsaIncludes(dnnl_cpu_isa_avx512_core_bf16);
  return native;
}

bool hasExactNativeI8() {
  // AMX's isa value includes VNNI's bits.
  static const bool exact = effectiveIsaIncludes(dnnl_cpu_isa_avx512_core_vnni);
  return exact;
}

bool matmulBf16(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
                const uint16_t *a, int64_t lda, const uint16_t *b, int64_t ldb,
                bool accumulate, float *c, int64_t ldc) {
  return hasNativeBf16() && runMatmul({MatmulTypes::Bf16IntoF32, transA, transB,
                                       m, n, k, lda, ldb, ldc, accumulate},
                                      a, b, c);
}

bool matmulI8(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
              const int8_t *a, int64_t lda, const int8_t *b, int64_t ldb,
              int32_t *c, int64_t ldc) {
  // No sum post-op: oneDNN would add C in f32 and saturate the result.
  return hasExactNativeI8() &&
         runMatmul({MatmulTypes::I8IntoI32, transA, transB, m, n, k, lda, ldb,
                    ldc, false},
                   a, b, c);
}

} // namespace nxrt
