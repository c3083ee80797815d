//===- Gemm.cpp - contractions of compiled code ---------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// C[i] += A[i] B[i], or C[i] = A[i] B[i], with element strides per
// dimension (nxrt.h). f32 runs on
// oneDNN's GEMM, which picks its kernels by the instruction sets the CPU
// reports (AVX2, AVX-512, ...) when it runs. f64 runs on the system's CBLAS
// (OpenBLAS where installed), which oneDNN does not cover. OpenBLAS picks its
// kernels from a table of CPU models: on a CPU newer than the distribution's
// OpenBLAS it falls back to generic SSE3 kernels, 4-8x slower, which is why
// the f32 products, the ones models run, do not go through it. On CPUs
// without AVX-512, oneDNN reads a small product's B in place, and a B whose
// rows lie a multiple of 1 KiB apart goes to it as a padded copy instead
// (readsBAtConflictingStride).
//
// Both take a matrix whose one stride is 1 and whose other is at least the
// extent of the first dimension; such an operand is passed as is, row-major
// or transposed. Anything else (broadcast rows, overlapping views, sizes past
// BLAS's 32-bit integers) runs a plain loop instead: slower, never wrong.
//
// Compiled code shares a large product among its OpenMP team: each thread
// computes one part (nxrt_gemm_part_*), a range of C's rows or columns, with
// a single-threaded library call. One pool of threads then serves the whole
// program; the libraries' own threads would spin between calls on the cores
// the team's loop nests need. A part may end with a dense layer's bias and
// ReLU (nxrt_gemm_part_epilogue_f32), applied to the rows it just computed
// while they are in its core's cache.
//
// bf16 products into f32 run on oneDNN's bf16 kernels where the CPU has
// bf16 instructions (MatmulBf16.cpp). Elsewhere their operands are widened
// to f32, exactly, into the calling thread's buffers, and run on the f32
// GEMM, which took 3.9-4.3 ms for the bench's 512^3 on AVX2 where nx's own
// register tiles took 5.3-5.8 (docs/Servers.md). i8 products into i32 run on
// the f32 GEMM too, in runs of the reduction short enough to be exact.
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include "MatmulBf16.h"
#include "OpenMPThreads.h"
#include "Relu.h"

#include <cblas.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>

#if defined(NXRT_HAVE_OPENBLAS) && !defined(NXRT_OPENBLAS_OPENMP)
extern "C" void openblas_set_num_threads(int threads);
#endif

namespace {

/// A matrix of `rows` x `cols` elements with the given strides, as BLAS
/// sees it: the transpose flag and leading dimension of a row-major call.
struct BlasOperand {
  bool usable = false;
  CBLAS_TRANSPOSE transpose = CblasNoTrans;
  int leading = 0;
};

bool fitsBlasInt(int64_t value) { return value >= 0 && value <= INT_MAX; }

BlasOperand asBlasOperand(int64_t rows, int64_t cols, int64_t rowStride,
                          int64_t colStride) {
  BlasOperand operand;
  // A single row or column has no second stride to speak of: BLAS wants it
  // at least the extent, which any value past it satisfies.
  if (rows == 1)
    rowStride = cols > 1 && colStride == 1 ? cols : rowStride;
  if (cols == 1)
    colStride = rows > 1 && rowStride == 1 ? rows : colStride;
  if (colStride == 1 && rowStride >= (cols > 1 ? cols : 1) &&
      fitsBlasInt(rowStride)) {
    operand.usable = true;
    operand.transpose = CblasNoTrans;
    operand.leading = static_cast<int>(rowStride > 0 ? rowStride : 1);
  } else if (rowStride == 1 && colStride >= (rows > 1 ? rows : 1) &&
             fitsBlasInt(colStride)) {
    operand.usable = true;
    operand.transpose = CblasTrans;
    operand.leading = static_cast<int>(colStride > 0 ? colStride : 1);
  }
  return operand;
}

char transposeFlag(CBLAS_TRANSPOSE transpose) {
  return transpose == CblasTrans ? 'T' : 'N';
}

/// The row stride of a padded copy of B's `n` columns: whole cache lines
/// plus one, never a multiple of 256 floats.
int64_t paddedStride(int n) {
  int64_t stride = (int64_t(n) + 15) / 16 * 16 + 16;
  return stride % 256 == 0 ? stride + 16 : stride;
}

/// A thread's buffer of elements for a copy of an operand, kept for the
/// thread's next call and grown when a larger one is needed.
template <typename T> class ThreadBuffer {
public:
  /// At least `count` elements, 64-byte aligned; nullptr when there is no
  /// memory for them.
  T *get(size_t count) {
    // No allocation holds that many bytes (the size itself would wrap).
    if (count > (SIZE_MAX - 64) / sizeof(T))
      return nullptr;
    if (count > capacity) {
      size_t bytes = (count * sizeof(T) + 63) / 64 * 64;
      data.reset(static_cast<T *>(std::aligned_alloc(64, bytes)));
      capacity = data ? count : 0;
    }
    return data.get();
  }

  /// Grows the buffer to `count` elements now and writes them, so that its
  /// pages are mapped before the first product that needs them. A failed
  /// allocation is left to that product.
  void reserve(size_t count) {
    if (count <= capacity)
      return;
    if (T *elements = get(count))
      std::memset(elements, 0, count * sizeof(T));
  }

private:
  struct FreeDeleter {
    void operator()(T *p) const { std::free(p); }
  };
  std::unique_ptr<T, FreeDeleter> data;
  size_t capacity = 0;
};
using FloatBuffer = ThreadBuffer<float>;

/// The calling thread's buffers for the widened operands of bf16 and i8
/// products, and the sums of an i8 product's runs.
struct WideningBuffers {
  FloatBuffer a, b, sums;
  ThreadBuffer<int32_t> total;
};

WideningBuffers &wideningBuffers() {
  thread_local WideningBuffers buffers;
  return buffers;
}

/// A copy of the k x n matrix `b`, whose rows are `ldb` floats apart, in
/// the calling thread's buffer with rows paddedStride(n) apart; nullptr
/// when there is no memory for it.
const float *paddedRows(const float *b, int k, int n, int ldb) {
  thread_local FloatBuffer buffer;
  int64_t stride = paddedStride(n);
  float *copy = buffer.get(static_cast<size_t>(k) * stride);
  if (!copy)
    return nullptr;
  for (int64_t row = 0; row < k; ++row)
    std::memcpy(copy + row * stride, b + row * ldb,
                static_cast<size_t>(n) * sizeof(float));
  return copy;
}

/// Whether oneDNN runs the sgemm of its AVX and AVX2 kernels: on a CPU with
/// AVX but without AVX-512 (or with DNNL_MAX_CPU_ISA set between the two).
/// Without AVX, it packs every operand.
bool hasAvx2SgemmOnly() {
  static const bool avx2Only = [] {
    auto isa = static_cast<unsigned>(dnnl_get_effective_cpu_isa());
    auto avx = static_cast<unsigned>(dnnl_cpu_isa_avx);
    auto avx512 = static_cast<unsigned>(dnnl_cpu_isa_avx512_core);
    return (isa & avx) == avx && (isa & avx512) != avx512;
  }();
  return avx2Only;
}

/// Whether dnnl_sgemm would read a row-major B of `ldb` floats a row in
/// place at a stride that puts its rows in the same cache sets. oneDNN
/// 2.6's AVX2 sgemm multiplies a product of fewer than about 264 rows or
/// columns (1/m + 1/n >= 0.0038, its gemm_driver.cpp) with kernels that
/// read B where it lies instead of packing it. Rows a multiple of 256 floats
/// apart (1 KiB; a 512-wide layer's weights are 2 KiB a row) then share cache
/// sets: on an AMD Zen 3, a 256x784 by 784x512 product took 3.4 ms so and 2.3
/// ms with B's rows 528 floats apart, 512^3 4.5 ms and 2.9 ms. Its AVX-512 path
/// packs such a B itself. From 16 rows of A on, a padded copy of B costs less
/// than it saves (8 rows: as much).
bool readsBAtConflictingStride(int m, int n, int k, int ldb) {
  constexpr int kConflictingStride = 256, kMinRows = 16;
  constexpr double kNoCopyThreshold = 0.0038;
  constexpr int64_t kMaxCopiedFloats = int64_t(1) << 21;
  return m >= kMinRows && n > 1 && ldb % kConflictingStride == 0 &&
         1.0 / m + 1.0 / n >= kNoCopyThreshold &&
         int64_t(k) * paddedStride(n) <= kMaxCopiedFloats && hasAvx2SgemmOnly();
}

/// One row-major product C = op(A) op(B) + beta C on the calling thread,
/// beta 1 or 0 (then C is not read). Returns
/// false when the library refused it (no memory for its packed panels),
/// before it wrote C; the caller then computes it itself.
template <typename T> struct Blas;
template <> struct Blas<float> {
  static bool gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
                   const float *a, int lda, const float *b, int ldb, float beta,
                   float *c, int ldc) {
    if (tb == CblasNoTrans && readsBAtConflictingStride(m, n, k, ldb))
      if (const float *padded = paddedRows(b, k, n, ldb))
        return dnnl_sgemm(transposeFlag(ta), 'N', m, n, k, 1.0f, a, lda, padded,
                          paddedStride(n), beta, c, ldc) == dnnl_success;
    return dnnl_sgemm(transposeFlag(ta), transposeFlag(tb), m, n, k, 1.0f, a,
                      lda, b, ldb, beta, c, ldc) == dnnl_success;
  }
};
template <> struct Blas<double> {
  static bool gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
                   const double *a, int lda, const double *b, int ldb,
                   double beta, double *c, int ldc) {
    cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, beta, c,
                ldc);
    return true;
  }
};

/// A bf16 element as compiled code stores it: the upper half of an f32's
/// bits. Widening it to f32 is exact.
struct BFloat16 {
  uint16_t bits;

  explicit operator float() const {
    uint32_t word = static_cast<uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &word, sizeof(value));
    return value;
  }
};

const uint16_t *bitsOf(const BFloat16 *values) {
  return reinterpret_cast<const uint16_t *>(values);
}

/// The `rows` x `cols` matrix `from`, whose rows are `leading` elements
/// apart, widened to f32 in `buffer` with rows `stride` floats apart;
/// nullptr when there is no memory for it.
template <typename In>
const float *widened(FloatBuffer &buffer, const In *from, int rows, int cols,
                     int leading, int stride) {
  float *to = buffer.get(static_cast<size_t>(rows) * stride);
  if (!to)
    return nullptr;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      to[r * stride + c] = static_cast<float>(from[r * leading + c]);
  return to;
}

/// bf16 operands into f32: oneDNN's bf16 kernel where the CPU has one,
/// else both operands widened to f32 and the f32 GEMM.
template <> struct Blas<BFloat16> {
  static bool gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
                   const BFloat16 *a, int lda, const BFloat16 *b, int ldb,
                   float beta, float *c, int ldc) {
    if (nxrt::matmulBf16(ta == CblasTrans, tb == CblasTrans, m, n, k, bitsOf(a),
                         lda, bitsOf(b), ldb, beta != 0.0f, c, ldc))
      return true;
    // Each operand as it is stored: m x k or, transposed, k x m; likewise B.
    int aRows = ta == CblasNoTrans ? m : k, aCols = ta == CblasNoTrans ? k : m;
    int bRows = tb == CblasNoTrans ? k : n, bCols = tb == CblasNoTrans ? n : k;
    // The widened B's rows at a stride that oneDNN's AVX2 kernels read
    // without conflicts, so that Blas<float> makes no padded copy of it.
    int strideB = tb == CblasNoTrans && readsBAtConflictingStride(m, n, k, n)
                      ? static_cast<int>(paddedStride(n))
                      : bCols;
    WideningBuffers &buffers = wideningBuffers();
    const float *wideA = widened(buffers.a, a, aRows, aCols, lda, aCols);
    const float *wideB = widened(buffers.b, b, bRows, bCols, ldb, strideB);
    return wideA && wideB &&
           Blas<float>::gemm(ta, tb, m, n, k, wideA, aCols, wideB, strideB,
                             beta, c, ldc);
  }
};

/// The most steps of an i8 product's reduction whose sums f32 holds
/// exactly: every product of two i8 is at most 2^14 in magnitude, so the
/// sums of 1024 of them are integers of at most 2^24.
constexpr int kExactI8Steps = 1024;

/// Adds the m x n matrix `from` (rows `ldf` apart) to `to` (rows `ldt`
/// apart), or writes it over `to` with `overwrite`: the sums of a run of an
/// i8 product (f32 holding whole numbers of at most 2^24 in magnitude), or
/// their i32 total. i32 wraps, as compiled code's arith.addi does.
template <typename T>
void addInto(const T *from, int ldf, int m, int n, bool overwrite, int32_t *to,
             int ldt) {
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      auto value = static_cast<int32_t>(from[r * ldf + c]);
      int32_t &sum = to[r * ldt + c];
      sum = overwrite ? value
                      : static_cast<int32_t>(static_cast<uint32_t>(sum) +
                                             static_cast<uint32_t>(value));
    }
}

/// i8 operands into i32, as compiled code computes them (sign-extended,
/// products and sums wrapping in i32): the f32 GEMM of the widened operands,
/// over runs of at most kExactI8Steps steps of the reduction, which it sums
/// exactly; the runs' sums are added in i32. oneDNN's own integer GEMM may
/// saturate its intermediate sums on CPUs without AVX-512 VNNI. C is
/// written only once every run has succeeded.
template <> struct Blas<int8_t> {
  static bool gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
                   const int8_t *a, int lda, const int8_t *b, int ldb,
                   int32_t beta, int32_t *c, int ldc) {
    WideningBuffers &buffers = wideningBuffers();
    bool oneRun = k <= kExactI8Steps;
    float *sums = buffers.sums.get(static_cast<size_t>(m) * n);
    // With several runs (or C to add to), the runs are summed apart from C.
    int32_t *total =
        oneRun && beta == 0 ? c : buffers.total.get(static_cast<size_t>(m) * n);
    if (!sums || !total)
      return false;
    int ldt = total == c ? ldc : n;
    for (int first = 0; first < k; first += kExactI8Steps) {
      int steps = std::min(kExactI8Steps, k - first);
      // The run's columns of A and rows of B, each as it is stored.
      bool plainA = ta == CblasNoTrans, plainB = tb == CblasNoTrans;
      const int8_t *runA = plainA ? a + first : a + int64_t(first) * lda;
      const int8_t *runB = plainB ? b + int64_t(first) * ldb : b + first;
      int aCols = plainA ? steps : m, bCols = plainB ? n : steps;
      int strideB = plainB && readsBAtConflictingStride(m, n, steps, n)
                        ? static_cast<int>(paddedStride(n))
                        : bCols;
      const float *wideA =
          widened(buffers.a, runA, plainA ? m : steps, aCols, lda, aCols);
      const float *wideB =
          widened(buffers.b, runB, plainB ? steps : n, bCols, ldb, strideB);
      if (!wideA || !wideB ||
          !Blas<float>::gemm(ta, tb, m, n, steps, wideA, aCols, wideB, strideB,
                             0.0f, sums, n))
        return false;
      addInto(sums, n, m, n, first == 0, total, ldt);
    }
    if (total != c)
      addInto(total, ldt, m, n, beta == 0, c, ldc);
    return true;
  }
};

/// What a product does to each element of C once it is computed: add
/// bias[column * biasStride] when there is a bias, then take the maximum
/// with +0.0 when `relu` is set (nxrt_gemm_part_epilogue_f32).
template <typename T> struct Epilogue {
  const T *bias = nullptr;
  int64_t biasStride = 0;
  bool relu = false;

  bool isEmpty() const { return !bias && !relu; }
  /// The epilogue of the columns from `first` on.
  Epilogue fromColumn(int64_t first) const {
    Epilogue shifted = *this;
    if (bias)
      shifted.bias = bias + first * biasStride;
    return shifted;
  }
};

/// sum + a * b in `Out`, as compiled code computes it: inputs widened first,
/// integers wrapping.
template <typename Out, typename In> Out multiplyAdd(Out sum, In a, In b) {
  if constexpr (std::is_integral_v<Out>) {
    using Bits = std::make_unsigned_t<Out>;
    auto product = static_cast<Bits>(static_cast<Out>(a)) *
                   static_cast<Bits>(static_cast<Out>(b));
    return static_cast<Out>(static_cast<Bits>(sum) + product);
  } else {
    return sum + static_cast<Out>(a) * static_cast<Out>(b);
  }
}

/// Applies `epilogue` to the m x n matrix at `c`. A row of C with unit
/// column stride and a contiguous bias is one loop the compiler vectorizes.
template <typename T>
void applyEpilogue(const Epilogue<T> &epilogue, int64_t m, int64_t n, T *c,
                   int64_t cRows, int64_t cCols) {
  const T *bias = epilogue.bias;
  bool unitBias = !bias || epilogue.biasStride == 1;
  for (int64_t r = 0; r < m; ++r) {
    T *row = c + r * cRows;
    if (cCols == 1 && unitBias) {
      if (bias)
        for (int64_t col = 0; col < n; ++col)
          row[col] += bias[col];
      if (epilogue.relu)
        for (int64_t col = 0; col < n; ++col)
          row[col] = nxrt::reluOf(row[col]);
      continue;
    }
    for (int64_t col = 0; col < n; ++col) {
      T value = row[col * cCols];
      if (bias)
        value += bias[col * epilogue.biasStride];
      row[col * cCols] = epilogue.relu ? nxrt::reluOf(value) : value;
    }
  }
}

/// C[i] += A[i] B[i] (C[i] = A[i] B[i] unless `accumulate`) for i in
/// [0, batch) on the calling thread, then `epilogue` on C[i]: one BLAS call
/// per batch where the layout allows, else a plain loop. A and B hold `In`,
/// C `Out`, which every product and sum is computed in.
template <typename In, typename Out>
void gemmSerial(int64_t batch, int64_t m, int64_t n, int64_t k, const In *a,
                int64_t batchA, int64_t aRows, int64_t aCols, const In *b,
                int64_t batchB, int64_t bRows, int64_t bCols, Out *c,
                int64_t batchC, int64_t cRows, int64_t cCols, bool accumulate,
                const Epilogue<Out> &epilogue = {}) {
  if (batch <= 0 || m <= 0 || n <= 0)
    return;
  BlasOperand opA = asBlasOperand(m, k, aRows, aCols);
  BlasOperand opB = asBlasOperand(k, n, bRows, bCols);
  BlasOperand opC = asBlasOperand(m, n, cRows, cCols);
  bool blas = k > 0 && opA.usable && opB.usable && opC.usable &&
              opC.transpose == CblasNoTrans && fitsBlasInt(m) &&
              fitsBlasInt(n) && fitsBlasInt(k);
  // oneDNN would fork a team of omp_get_max_threads() threads: the part
  // this call computes is already one thread's share.
  nxrt::OpenMPThreads serial(1);
  for (int64_t i = 0; i < batch; ++i) {
    const In *ai = a + i * batchA;
    const In *bi = b + i * batchB;
    Out *ci = c + i * batchC;
    if (!blas || !Blas<In>::gemm(opA.transpose, opB.transpose,
                                 static_cast<int>(m), static_cast<int>(n),
                                 static_cast<int>(k), ai, opA.leading, bi,
                                 opB.leading, Out(accumulate), ci, opC.leading))
      for (int64_t r = 0; r < m; ++r)
        for (int64_t col = 0; col < n; ++col) {
          Out sum = accumulate ? ci[r * cRows + col * cCols] : Out(0);
          for (int64_t p = 0; p < k; ++p)
            sum = multiplyAdd(sum, ai[r * aRows + p * aCols],
                              bi[p * bRows + col * bCols]);
          ci[r * cRows + col * cCols] = sum;
        }
    // Each batch's C right after its product, while it is in cache.
    if (!epilogue.isEmpty())
      applyEpilogue(epilogue, m, n, ci, cRows, cCols);
  }
}

/// Rows (or columns) a part takes at least, unless fewer are left: a
/// multiple of the BLAS kernels' register blocks, so no part computes a
/// ragged edge it need not.
constexpr int64_t kPartGranule = 16;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The range [begin, end) of `total` units that part `part` of `parts`
/// computes: equal shares, rounded up to multiples of `granule`.
std::pair<int64_t, int64_t> shareOf(int64_t part, int64_t parts, int64_t total,
                                    int64_t granule) {
  int64_t share = ceilDiv(ceilDiv(total, parts), granule) * granule;
  int64_t begin = std::min(total, part * share);
  return {begin, std::min(total, begin + share)};
}

/// Part `part` of `parts` of the batched product. The batches' rows are one
/// sequence cut into equal shares (whole batches when they divide evenly);
/// when there are too few rows for every part to get a granule, the
/// columns are cut instead. Parts never write the same element of C.
template <typename In, typename Out>
void gemmPart(int64_t part, int64_t parts, int64_t batch, int64_t m, int64_t n,
              int64_t k, const In *a, int64_t batchA, int64_t aRows,
              int64_t aCols, const In *b, int64_t batchB, int64_t bRows,
              int64_t bCols, Out *c, int64_t batchC, int64_t cRows,
              int64_t cCols, bool accumulate,
              const Epilogue<Out> &epilogue = {}) {
  // Only OpenMP's team shares the cores: the pthread build of OpenBLAS
  // (f64, LAPACK) has threads of its own, which spin between calls and
  // would take the cores from the team's other members. Its OpenMP build
  // runs on the team's pool and follows the team size gemmSerial sets; its
  // openblas_set_num_threads would change the host's OpenMP setting.
#if defined(NXRT_HAVE_OPENBLAS) && !defined(NXRT_OPENBLAS_OPENMP)
  static std::once_flag serialBlas;
  std::call_once(serialBlas, [] { openblas_set_num_threads(1); });
#endif
  if (batch <= 0 || m <= 0 || n <= 0 || parts <= 0 || part < 0 || part >= parts)
    return;
  if (parts == 1) {
    gemmSerial(batch, m, n, k, a, batchA, aRows, aCols, b, batchB, bRows, bCols,
               c, batchC, cRows, cCols, accumulate, epilogue);
    return;
  }
  // Rows past int64_t (no buffer holds that many): the first part
  // computes all of them.
  if (batch > INT64_MAX / m) {
    if (part == 0)
      gemmSerial(batch, m, n, k, a, batchA, aRows, aCols, b, batchB, bRows,
                 bCols, c, batchC, cRows, cCols, accumulate, epilogue);
    return;
  }
  int64_t rows = batch * m;
  if (rows < parts * kPartGranule && n >= parts * kPartGranule) {
    auto [begin, end] = shareOf(part, parts, n, kPartGranule);
    if (begin < end)
      gemmSerial(batch, m, end - begin, k, a, batchA, aRows, aCols,
                 b + begin * bCols, batchB, bRows, bCols, c + begin * cCols,
                 batchC, cRows, cCols, accumulate, epilogue.fromColumn(begin));
    return;
  }
  int64_t granule = batch % parts == 0 ? m : kPartGranule;
  auto [begin, end] = shareOf(part, parts, rows, granule);
  // The share's rows, one batch at a time.
  for (int64_t row = begin; row < end;) {
    int64_t i = row / m, first = row % m;
    int64_t count = std::min(end - row, m - first);
    gemmSerial<In, Out>(1, count, n, k, a + i * batchA + first * aRows, 0,
                        aRows, aCols, b + i * batchB, 0, bRows, bCols,
                        c + i * batchC + first * cRows, 0, cRows, cCols,
                        accumulate, epilogue);
    row += count;
  }
}

int resolveThreads(int n) {
  if (n > 0)
    return std::min(n, NXRT_MAX_COMPUTE_THREADS);
  unsigned cores = std::thread::hardware_concurrency();
  return cores > 0 ? static_cast<int>(cores) : 1;
}

std::atomic<int> computeThreads{0};

} // namespace

extern "C" {

void nxrt_gemm_prepare(void) {
  static std::once_flag prepared;
  std::call_once(prepared, [] {
    // A product of each transposition: oneDNN generates the kernels each
    // needs at their first use. Eight rows are enough to reach them.
    constexpr int kSide = 8;
    float a[kSide * kSide] = {}, b[kSide * kSide] = {}, c[kSide * kSide] = {};
    nxrt::OpenMPThreads serial(1);
    for (char ta : {'N', 'T'})
      for (char tb : {'N', 'T'})
        (void)dnnl_sgemm(ta, tb, kSide, kSide, kSide, 1.0f, a, kSide, b, kSide,
                         1.0f, c, kSide);
  });
}

void nxrt_gemm_prepare_widened(int64_t aFloats, int64_t bFloats,
                               int64_t cElements) {
  auto count = [](int64_t value) {
    return static_cast<size_t>(std::max<int64_t>(value, 0));
  };
  auto reserve = [&] {
    WideningBuffers &buffers = wideningBuffers();
    buffers.a.reserve(count(aFloats));
    buffers.b.reserve(count(bFloats));
    buffers.sums.reserve(count(cElements));
    buffers.total.reserve(count(cElements));
  };
  // The team's threads compute the parts of shared products; the calling
  // thread, the products it runs alone.
  reserve();
#pragma omp parallel num_threads(nxrt_compute_threads())
  reserve();
}

void nxrt_threads_prepare(void) {
  // libomp creates a team's threads at its first parallel region and keeps
  // them: the program's first parallel loop nest then finds them started.
  // The region counts its threads, so that the compiler keeps it.
  std::atomic<int> started{0};
  int threads = nxrt_compute_threads();
#pragma omp parallel num_threads(threads)
  started.fetch_add(1, std::memory_order_relaxed);
  (void)started.load(std::memory_order_relaxed);
}

void nxrt_set_compute_threads(int n) {
  int threads = resolveThreads(n);
  computeThreads.store(threads, std::memory_order_relaxed);
}

int nxrt_compute_threads(void) {
  int threads = computeThreads.load(std::memory_order_relaxed);
  return threads > 0 ? threads : resolveThreads(0);
}

void nxrt_gemm_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                   const float *a, int64_t batchStrideA, int64_t aRows,
                   int64_t aCols, const float *b, int64_t batchStrideB,
                   int64_t bRows, int64_t bCols, float *c, int64_t batchStrideC,
                   int64_t cRows, int64_t cCols, int64_t accumulate) {
  gemmPart(0, 1, batch, m, n, k, a, batchStrideA, aRows, aCols, b, batchStrideB,
           bRows, bCols, c, batchStrideC, cRows, cCols, accumulate != 0);
}

void nxrt_gemm_f64(int64_t batch, int64_t m, int64_t n, int64_t k,
                   const double *a, int64_t batchStrideA, int64_t aRows,
                   int64_t aCols, const double *b, int64_t batchStrideB,
                   int64_t bRows, int64_t bCols, double *c,
                   int64_t batchStrideC, int64_t cRows, int64_t cCols,
                   int64_t accumulate) {
  gemmPart(0, 1, batch, m, n, k, a, batchStrideA, aRows, aCols, b, batchStrideB,
           bRows, bCols, c, batchStrideC, cRows, cCols, accumulate != 0);
}

void nxrt_gemm_part_f32(int64_t part, int64_t parts, int64_t batch, int64_t m,
                        int64_t n, int64_t k, const float *a,
                        int64_t batchStrideA, int64_t aRows, int64_t aCols,
                        const float *b, int64_t batchStrideB, int64_t bRows,
                        int64_t bCols, float *c, int64_t batchStrideC,
                        int64_t cRows, int64_t cCols, int64_t accumulate) {
  gemmPart(part, parts, batch, m, n, k, a, batchStrideA, aRows, aCols, b,
           batchStrideB, bRows, bCols, c, batchStrideC, cRows, cCols,
           accumulate != 0);
}

void nxrt_gemm_part_f64(int64_t part, int64_t parts, int64_t batch, int64_t m,
                        int64_t n, int64_t k, const double *a,
                        int64_t batchStrideA, int64_t aRows, int64_t aCols,
                        const double *b, int64_t batchStrideB, int64_t bRows,
                        int64_t bCols, double *c, int64_t batchStrideC,
                        int64_t cRows, int64_t cCols, int64_t accumulate) {
  gemmPart(part, parts, batch, m, n, k, a, batchStrideA, aRows, aCols, b,
           batchStrideB, bRows, bCols, c, batchStrideC, cRows, cCols,
           accumulate != 0);
}

void nxrt_gemm_bf16_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                        const uint16_t *a, int64_t batchStrideA, int64_t aRows,
                        int64_t aCols, const uint16_t *b, int64_t batchStrideB,
                        int64_t bRows, int64_t bCols, float *c,
                        int64_t batchStrideC, int64_t cRows, int64_t cCols,
                        int64_t accumulate) {
  nxrt_gemm_part_bf16_f32(0, 1, batch, m, n, k, a, batchStrideA, aRows, aCols,
                          b, batchStrideB, bRows, bCols, c, batchStrideC, cRows,
                          cCols, accumulate);
}

void nxrt_gemm_part_bf16_f32(int64_t part, int64_t parts, int64_t batch,
                             int64_t m, int64_t n, int64_t k, const uint16_t *a,
                             int64_t batchStrideA, int64_t aRows, int64_t aCols,
                             const uint16_t *b, int64_t batchStrideB,
                             int64_t bRows, int64_t bCols, float *c,
                             int64_t batchStrideC, int64_t cRows, int64_t cCols,
                             int64_t accumulate) {
  // BFloat16 is uint16_t's bits in a type of its own, for Blas<>.
  gemmPart(part, parts, batch, m, n, k, reinterpret_cast<const BFloat16 *>(a),
           batchStrideA, aRows, aCols, reinterpret_cast<const BFloat16 *>(b),
           batchStrideB, bRows, bCols, c, batchStrideC, cRows, cCols,
           accumulate != 0);
}

void nxrt_gemm_i8_i32(int64_t batch, int64_t m, int64_t n, int64_t k,
                      const int8_t *a, int64_t batchStrideA, int64_t aRows,
                      int64_t aCols, const int8_t *b, int64_t batchStrideB,
                      int64_t bRows, int64_t bCols, int32_t *c,
                      int64_t batchStrideC, int64_t cRows, int64_t cCols,
                      int64_t accumulate) {
  gemmPart(0, 1, batch, m, n, k, a, batchStrideA, aRows, aCols, b, batchStrideB,
           bRows, bCols, c, batchStrideC, cRows, cCols, accumulate != 0);
}

void nxrt_gemm_part_i8_i32(int64_t part, int64_t parts, int64_t batch,
                           int64_t m, int64_t n, int64_t k, const int8_t *a,
                           int64_t batchStrideA, int64_t aRows, int64_t aCols,
                           const int8_t *b, int64_t batchStrideB, int64_t bRows,
                           int64_t bCols, int32_t *c, int64_t batchStrideC,
                           int64_t cRows, int64_t cCols, int64_t accumulate) {
  gemmPart(part, parts, batch, m, n, k, a, batchStrideA, aRows, aCols, b,
           batchStrideB, bRows, bCols, c, batchStrideC, cRows, cCols,
           accumulate != 0);
}

void nxrt_gemm_part_epilogue_f32(
    int64_t part, int64_t parts, int64_t batch, int64_t m, int64_t n, int64_t k,
    const float *a, int64_t batchStrideA, int64_t aRows, int64_t aCols,
    const float *b, int64_t batchStrideB, int64_t bRows, int64_t bCols,
    float *c, int64_t batchStrideC, int64_t cRows, int64_t cCols,
    int64_t accumulate, const float *bias, int64_t biasStride, int64_t relu) {
  Epilogue<float> epilogue{bias, biasStride, relu != 0};
  gemmPart(part, parts, batch, m, n, k, a, batchStrideA, aRows, aCols, b,
           batchStrideB, bRows, bCols, c, batchStrideC, cRows, cCols,
           accumulate != 0, epilogue);
}

} // extern "C"
