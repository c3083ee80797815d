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
// the f32 products, the ones models run, do not go through it
// (Sgemm.cpp).
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
// bf16 instructions, and i8 products into i32 on its int8 kernels where
// the CPU has VNNI or AMX (OneDnnMatmul.cpp). Elsewhere they run on the
// f32 GEMM of their widened operands, as f16 products into f32 do
// everywhere, i8 in runs of the reduction short enough to be exact
// (WidenedGemm.cpp).
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include "OneDnnMatmul.h"
#include "OpenMPThreads.h"
#include "Relu.h"
#include "Sgemm.h"
#include "WidenedGemm.h"

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
#include <new>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

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

CBLAS_TRANSPOSE flipped(CBLAS_TRANSPOSE transpose) {
  return transpose == CblasTrans ? CblasNoTrans : CblasTrans;
}

BlasOperand asBlasOperand(int64_t rows, int64_t cols, int64_t rowStride,
                          int64_t colStride) {
  BlasOperand operand;
  // A single row or column has no second stride to speak of: BLAS wants it
  // at least the extent, which any value past it satisfies. A column is
  // row-major with its row stride as the leading dimension (at least its
  // one column), as a matrix-vector product's vector and result are: a
  // result read as transposed would keep the product from BLAS.
  if (rows == 1)
    rowStride = cols > 1 && colStride == 1 ? cols : rowStride;
  if (cols == 1)
    colStride = rowStride >= 1 ? 1 : colStride;
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

/// One row-major product C = op(A) op(B) + beta C on the calling thread,
/// beta 1 or 0 (then C is not read). Returns false when the library
/// refused it (no memory for its packed panels), before it wrote C; the
/// caller then computes it itself.
template <typename T> struct Blas;
template <> struct Blas<float> {
  static bool gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
                   const float *a, int lda, const float *b, int ldb, float beta,
                   float *c, int ldc) {
    return nxrt::sgemm(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc);
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

/// bf16 and f16 operands into f32, and i8 into i32 (WidenedGemm.cpp).
template <> struct Blas<nxrt::BFloat16> {
  static bool gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
                   const nxrt::BFloat16 *a, int lda, const nxrt::BFloat16 *b,
                   int ldb, float beta, float *c, int ldc) {
    return nxrt::gemmBf16(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc);
  }
};
template <> struct Blas<nxrt::Float16> {
  static bool gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
                   const nxrt::Float16 *a, int lda, const nxrt::Float16 *b,
                   int ldb, float beta, float *c, int ldc) {
    return nxrt::gemmF16(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc);
  }
};
template <> struct Blas<int8_t> {
  static bool gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
                   const int8_t *a, int lda, const int8_t *b, int ldb,
                   int32_t beta, int32_t *c, int ldc) {
    return nxrt::gemmI8(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc);
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
              fitsBlasInt(m) && fitsBlasInt(n) && fitsBlasInt(k);
  // A column-major C is the row-major C^T = B^T A^T; the epilogue's bias
  // follows C's columns, which that would make rows.
  if (opC.transpose == CblasTrans && !epilogue.isEmpty())
    blas = false;
  if (blas && opC.transpose == CblasTrans) {
    opC.transpose = CblasNoTrans;
    std::swap(m, n);
    std::swap(a, b);
    std::swap(batchA, batchB);
    std::swap(aRows, bCols);
    std::swap(aCols, bRows);
    std::swap(opA, opB);
    opA.transpose = flipped(opA.transpose);
    opB.transpose = flipped(opB.transpose);
    std::swap(cRows, cCols);
  }
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

/// A part of a product of 16-bit floats into f32, whose bits compiled code
/// hands over as uint16_t: `Half` (BFloat16 or Float16) gives them their
/// type, which picks the product's Blas<>.
template <typename Half>
void gemmPartOf16BitFloats(int64_t part, int64_t parts, int64_t batch,
                           int64_t m, int64_t n, int64_t k, const uint16_t *a,
                           int64_t batchA, int64_t aRows, int64_t aCols,
                           const uint16_t *b, int64_t batchB, int64_t bRows,
                           int64_t bCols, float *c, int64_t batchC,
                           int64_t cRows, int64_t cCols, int64_t accumulate) {
  static_assert(sizeof(Half) == sizeof(uint16_t));
  gemmPart(part, parts, batch, m, n, k, reinterpret_cast<const Half *>(a),
           batchA, aRows, aCols, reinterpret_cast<const Half *>(b), batchB,
           bRows, bCols, c, batchC, cRows, cCols, accumulate != 0);
}

/// The sizes nxrt_gemm_prepare_widened hands its team (A's and B's floats,
/// an i8 product's sums and total), and those nxrt_gemm_prepare_padded
/// hands it (B's padded floats). The team's threads read them here, not
/// from the caller's stack: ThreadSanitizer does not see libomp order a
/// caller's next call after its workers' reads. One call at a time sets
/// them and runs its team (preparingBuffers).
std::atomic<size_t> preparedWidening[4];
std::atomic<size_t> preparedPadding;
std::mutex preparingBuffers;

void reservePreparedWidening() {
  auto load = [](int i) {
    return preparedWidening[i].load(std::memory_order_relaxed);
  };
  nxrt::reserveWideningBuffers({load(0), load(1), load(2), load(3)});
}

void reservePreparedPadding() {
  nxrt::reservePaddedRows(preparedPadding.load(std::memory_order_relaxed));
}

/// The most elements an operand of a product that a prepare runs may span.
constexpr int64_t kMaxPreparedElements = int64_t(1) << 22;

/// The elements that `batch` matrices of `rows` x `cols` with these strides
/// span, or 0 when there are none, a stride is negative or they span more
/// than kMaxPreparedElements.
int64_t spanOf(int64_t batch, int64_t batchStride, int64_t rows,
               int64_t rowStride, int64_t cols, int64_t colStride) {
  if (batch <= 0 || rows <= 0 || cols <= 0 || batchStride < 0 ||
      rowStride < 0 || colStride < 0)
    return 0;
  int64_t span = 1;
  for (auto [extent, stride] :
       {std::pair{batch, batchStride}, {rows, rowStride}, {cols, colStride}}) {
    int64_t reach;
    if (__builtin_mul_overflow(extent - 1, stride, &reach) ||
        __builtin_add_overflow(span, reach, &span))
      return 0;
  }
  return span <= kMaxPreparedElements ? span : 0;
}

/// Runs the product (its parts over nxrt_compute_threads() threads when
/// `shared`, one after the other) once on zeros, so that the kernels and
/// buffers its first run would make are made now (nxrt_gemm_prepare_*).
template <typename In, typename Out>
void runOnZeros(int64_t shared, int64_t batch, int64_t m, int64_t n, int64_t k,
                int64_t batchA, int64_t aRows, int64_t aCols, int64_t batchB,
                int64_t bRows, int64_t bCols, int64_t batchC, int64_t cRows,
                int64_t cCols, int64_t accumulate) {
  int64_t spanA = spanOf(batch, batchA, m, aRows, k, aCols);
  int64_t spanB = spanOf(batch, batchB, k, bRows, n, bCols);
  int64_t spanC = spanOf(batch, batchC, m, cRows, n, cCols);
  if (!spanA || !spanB || !spanC)
    return;
  try {
    std::vector<In> a(spanA), b(spanB);
    std::vector<Out> c(spanC);
    int parts = shared ? nxrt_compute_threads() : 1;
    for (int part = 0; part < parts; ++part)
      gemmPart(part, parts, batch, m, n, k, a.data(), batchA, aRows, aCols,
               b.data(), batchB, bRows, bCols, c.data(), batchC, cRows, cCols,
               accumulate != 0);
  } catch (const std::bad_alloc &) {
    // Left to the first run, which reports it.
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

void nxrt_gemm_prepare_widened(nxrt_dtype_t dtype, int64_t aFloats,
                               int64_t bFloats, int64_t cElements) {
  nxrt::WideningSizes sizes =
      nxrt::getWideningSizes(dtype, aFloats, bFloats, cElements);
  if (!sizes.aFloats && !sizes.bFloats && !sizes.sums && !sizes.total)
    return;
  std::lock_guard<std::mutex> lock(preparingBuffers);
  size_t values[] = {sizes.aFloats, sizes.bFloats, sizes.sums, sizes.total};
  for (int i = 0; i < 4; ++i)
    preparedWidening[i].store(values[i], std::memory_order_relaxed);
  // The team's threads compute the parts of shared products; the calling
  // thread, the products it runs alone. The region reads nothing from this
  // frame (see preparedWidening).
  reservePreparedWidening();
#pragma omp parallel num_threads(nxrt_compute_threads())
  reservePreparedWidening();
}

void nxrt_gemm_prepare_padded(int64_t bFloats) {
  std::lock_guard<std::mutex> lock(preparingBuffers);
  preparedPadding.store(static_cast<size_t>(std::max<int64_t>(bFloats, 0)),
                        std::memory_order_relaxed);
  // As nxrt_gemm_prepare_widened does.
  reservePreparedPadding();
#pragma omp parallel num_threads(nxrt_compute_threads())
  reservePreparedPadding();
}

void nxrt_gemm_prepare_bf16_f32(int64_t shared, int64_t batch, int64_t m,
                                int64_t n, int64_t k, int64_t batchStrideA,
                                int64_t aRows, int64_t aCols,
                                int64_t batchStrideB, int64_t bRows,
                                int64_t bCols, int64_t batchStrideC,
                                int64_t cRows, int64_t cCols,
                                int64_t accumulate) {
  if (nxrt::hasNativeBf16())
    runOnZeros<nxrt::BFloat16, float>(shared, batch, m, n, k, batchStrideA,
                                      aRows, aCols, batchStrideB, bRows, bCols,
                                      batchStrideC, cRows, cCols, accumulate);
}

void nxrt_gemm_prepare_i8_i32(int64_t shared, int64_t batch, int64_t m,
                              int64_t n, int64_t k, int64_t batchStrideA,
                              int64_t aRows, int64_t aCols,
                              int64_t batchStrideB, int64_t bRows,
                              int64_t bCols, int64_t batchStrideC,
                              int64_t cRows, int64_t cCols,
                              int64_t accumulate) {
  if (nxrt::hasExactNativeI8())
    runOnZeros<int8_t, int32_t>(shared, batch, m, n, k, batchStrideA, aRows,
                                aCols, batchStrideB, bRows, bCols, batchStrideC,
                                cRows, cCols, accumulate);
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
  gemmPartOf16BitFloats<nxrt::BFloat16>(
      part, parts, batch, m, n, k, a, batchStrideA, aRows, aCols, b,
      batchStrideB, bRows, bCols, c, batchStrideC, cRows, cCols, accumulate);
}

void nxrt_gemm_f16_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                       const uint16_t *a, int64_t batchStrideA, int64_t aRows,
                       int64_t aCols, const uint16_t *b, int64_t batchStrideB,
                       int64_t bRows, int64_t bCols, float *c,
                       int64_t batchStrideC, int64_t cRows, int64_t cCols,
                       int64_t accumulate) {
  nxrt_gemm_part_f16_f32(0, 1, batch, m, n, k, a, batchStrideA, aRows, aCols, b,
                         batchStrideB, bRows, bCols, c, batchStrideC, cRows,
                         cCols, accumulate);
}

void nxrt_gemm_part_f16_f32(int64_t part, int64_t parts, int64_t batch,
                            int64_t m, int64_t n, int64_t k, const uint16_t *a,
                            int64_t batchStrideA, int64_t aRows, int64_t aCols,
                            const uint16_t *b, int64_t batchStrideB,
                            int64_t bRows, int64_t bCols, float *c,
                            int64_t batchStrideC, int64_t cRows, int64_t cCols,
                            int64_t accumulate) {
  gemmPartOf16BitFloats<nxrt::Float16>(
      part, parts, batch, m, n, k, a, batchStrideA, aRows, aCols, b,
      batchStrideB, bRows, bCols, c, batchStrideC, cRows, cCols, accumulate);
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
