//===- MatmulBf16.cpp - bf16 products on oneDNN's bf16 kernels ------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// oneDNN 2.6 exports no bf16 GEMM, only its matmul primitive: a kernel
// JIT-compiled for one shape and layout, on the CPU's bf16 dot products
// (VDPBF16PS of AVX-512 BF16) or its AMX tiles. Primitives are kept per
// shape and layout, like the convolutions' (Convolution.cpp). Without
// those instructions oneDNN either refuses bf16 or emulates it on AVX-512
// in more instructions than an f32 product takes: Gemm.cpp then widens the
// operands to f32 for its f32 GEMM instead.
//
//===----------------------------------------------------------------------===//

#include "MatmulBf16.h"

#include "Dnnl.h"

#include "absl/hash/hash.h"

#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace {

/// Everything that selects a primitive.
struct MatmulKey {
  bool transA, transB;
  int64_t m, n, k, lda, ldb, ldc;
  bool accumulate;

  auto tie() const {
    return std::tie(transA, transB, m, n, k, lda, ldb, ldc, accumulate);
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

/// The primitive for `key`, or nullptr when oneDNN has no kernel of its own
/// for it: its reference loops would take longer than widening to f32.
std::shared_ptr<const MatmulPlan> makePlan(const MatmulKey &key) {
  using namespace dnnl;
  using dt = memory::data_type;
  try {
    auto plan = std::make_shared<MatmulPlan>();
    plan->a = operandLayout(key.m, key.k, key.lda, key.transA, dt::bf16);
    plan->b = operandLayout(key.k, key.n, key.ldb, key.transB, dt::bf16);
    plan->c = operandLayout(key.m, key.n, key.ldc, false, dt::f32);
    post_ops postOps;
    if (key.accumulate)
      postOps.append_sum(1.0f);
    primitive_attr attributes = nxrt::withUserScratchpad(primitive_attr());
    attributes.set_post_ops(postOps);
    matmul::primitive_desc primitive(matmul::desc(plan->a, plan->b, plan->c),
                                     attributes, nxrt::dnnlCpuEngine());
    if (std::string(primitive.impl_info_str()).find("ref") != std::string::npos)
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

} // namespace

namespace nxrt {

bool hasNativeBf16() {
  static const bool native = [] {
    auto isa = static_cast<unsigned>(dnnl_get_effective_cpu_isa());
    auto bf16 = static_cast<unsigned>(dnnl_cpu_isa_avx512_core_bf16);
    return (isa & bf16) == bf16;
  }();
  return native;
}

bool matmulBf16(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
                const uint16_t *a, int64_t lda, const uint16_t *b, int64_t ldb,
                bool accumulate, float *c, int64_t ldc) {
  if (!hasNativeBf16() || m <= 0 || n <= 0 || k <= 0)
    return false;
  MatmulKey key{transA, transB, m, n, k, lda, ldb, ldc, accumulate};
  std::shared_ptr<const MatmulPlan> plan = planCache().get(key);
  if (!plan)
    return false;
  // oneDNN reports failures (memory for the scratchpad) as exceptions,
  // thrown before its kernel writes C.
  try {
    using dnnl::memory;
    dnnl::engine &engine = dnnlCpuEngine();
    thread_local dnnl::stream stream(engine);
    thread_local ScratchBuffer scratchpad;
    // oneDNN's memory objects take non-const handles; A and B are only
    // read.
    std::unordered_map<int, memory> arguments{
        {DNNL_ARG_SRC, memory(plan->a, engine, const_cast<uint16_t *>(a))},
        {DNNL_ARG_WEIGHTS, memory(plan->b, engine, const_cast<uint16_t *>(b))},
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

} // namespace nxrt
