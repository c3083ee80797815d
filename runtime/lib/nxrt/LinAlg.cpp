//===- LinAlg.cpp - LAPACK-backed qr/eigh custom-call targets -------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Conventions (documented in nxrt.h): leading dims are batch dims, matrices
// are row-major, QR mode comes from the string attribute "mode".
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include <lapacke.h>

#include "Attributes.h"
#include "DType.h"
#include "OpenMPThreads.h"
#include "Registry.h"
#include "Status.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "nxrt/nxrt.h"

namespace nxrt {
namespace {

template <typename T> struct Lapack;

template <> struct Lapack<float> {
  static constexpr nxrt_dtype_t kDType = NXRT_F32;
  static lapack_int geqrf(lapack_int m, lapack_int n, float *a, lapack_int lda,
                          float *tau) {
    return LAPACKE_sgeqrf(LAPACK_ROW_MAJOR, m, n, a, lda, tau);
  }
  static lapack_int orgqr(lapack_int m, lapack_int n, lapack_int k, float *a,
                          lapack_int lda, const float *tau) {
    return LAPACKE_sorgqr(LAPACK_ROW_MAJOR, m, n, k, a, lda, tau);
  }
  static lapack_int syevd(lapack_int n, float *a, lapack_int lda, float *w) {
    return LAPACKE_ssyevd(LAPACK_ROW_MAJOR, 'V', 'L', n, a, lda, w);
  }
};

template <> struct Lapack<double> {
  static constexpr nxrt_dtype_t kDType = NXRT_F64;
  static lapack_int geqrf(lapack_int m, lapack_int n, double *a, lapack_int lda,
                          double *tau) {
    return LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, m, n, a, lda, tau);
  }
  static lapack_int orgqr(lapack_int m, lapack_int n, lapack_int k, double *a,
                          lapack_int lda, const double *tau) {
    return LAPACKE_dorgqr(LAPACK_ROW_MAJOR, m, n, k, a, lda, tau);
  }
  static lapack_int syevd(lapack_int n, double *a, lapack_int lda, double *w) {
    return LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'V', 'L', n, a, lda, w);
  }
};

// Shape of a batch of matrices: leading dims and the trailing two.
struct Batched {
  std::vector<int64_t> batch;
  int64_t count = 1;
  int64_t rows = 0, cols = 0;
};

absl::Status expect(const nxrt_call_t &call, size_t nargs, size_t nresults) {
  if (call.nargs != nargs || call.nresults != nresults ||
      (nargs && !call.args) || (nresults && !call.results))
    return absl::InvalidArgumentError(
        absl::StrFormat("expected %d operands and %d results, got %d and %d",
                        nargs, nresults, call.nargs, call.nresults));
  for (size_t i = 0; i < nargs; ++i)
    if (absl::Status s = validateView(call.args[i], "operand"); !s.ok())
      return s;
  for (size_t i = 0; i < nresults; ++i)
    if (absl::Status s = validateView(call.results[i], "result"); !s.ok())
      return s;
  return absl::OkStatus();
}

template <typename T> absl::StatusOr<Batched> matrices(const nxrt_tensor_t &t) {
  if (t.dtype != Lapack<T>::kDType || t.rank < 2)
    return absl::InvalidArgumentError(
        absl::StrFormat("expected a tensor<...xMxNx%s> operand, got %s",
                        nxrt_dtype_name(Lapack<T>::kDType), typeString(t)));
  Batched b;
  b.batch.assign(t.dims, t.dims + t.rank - 2);
  for (int64_t d : b.batch)
    b.count *= d;
  b.rows = t.dims[t.rank - 2];
  b.cols = t.dims[t.rank - 1];
  if (b.rows > INT_MAX || b.cols > INT_MAX)
    return absl::InvalidArgumentError(absl::StrFormat(
        "matrix of %dx%d exceeds LAPACK's 32-bit dimensions", b.rows, b.cols));
  return b;
}

// The results the handler will write, for comparison with what compiled
// code preallocated.
std::string expectedResultTypes(const std::vector<std::vector<int64_t>> &dims,
                                nxrt_dtype_t dtype) {
  std::vector<nxrt_tensor_t> views;
  for (const auto &d : dims)
    views.push_back({dtype, static_cast<int32_t>(d.size()), d.data(), nullptr});
  return typeListString(views);
}

absl::Status checkResults(const nxrt_call_t &call,
                          const std::vector<std::vector<int64_t>> &want,
                          nxrt_dtype_t dtype) {
  bool ok = true;
  for (size_t i = 0; i < want.size() && ok; ++i) {
    const nxrt_tensor_t &r = call.results[i];
    ok = r.dtype == dtype && r.rank == static_cast<int32_t>(want[i].size()) &&
         std::equal(want[i].begin(), want[i].end(), r.dims);
  }
  if (ok)
    return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrFormat(
      "expected results %s, got %s", expectedResultTypes(want, dtype),
      typeListString(absl::MakeConstSpan(call.results, call.nresults))));
}

std::vector<int64_t> with(std::vector<int64_t> batch, int64_t a, int64_t b) {
  batch.push_back(a);
  if (b >= 0)
    batch.push_back(b);
  return batch;
}

template <typename T> absl::Status qr(const nxrt_call_t &call) {
  if (absl::Status s = expect(call, 1, 2); !s.ok())
    return s;
  auto shape = matrices<T>(call.args[0]);
  if (!shape.ok())
    return shape.status();
  bool complete = false;
  if (const nxrt_attr_t *mode = nxrt_attrs_find(call.attrs, "mode")) {
    if (mode->kind != NXRT_ATTR_STRING)
      return absl::InvalidArgumentError(
          absl::StrFormat("attribute 'mode' has type %s, expected string",
                          attrKindName(mode->kind)));
    if (mode->s == "complete")
      complete = true;
    else if (mode->s != "reduced")
      return absl::InvalidArgumentError(absl::StrFormat(
          "unknown qr mode '%s', expected \"reduced\" or \"complete\"",
          mode->s));
  }
  const int64_t m = shape->rows, n = shape->cols, k = std::min(m, n);
  const int64_t qcols = complete ? m : k, rrows = complete ? m : k;
  if (absl::Status s = checkResults(
          call, {with(shape->batch, m, qcols), with(shape->batch, rrows, n)},
          Lapack<T>::kDType);
      !s.ok())
    return s;

  const T *aAll = static_cast<const T *>(call.args[0].data);
  T *qAll = static_cast<T *>(call.results[0].data);
  T *rAll = static_cast<T *>(call.results[1].data);
  std::vector<T> a(m * n), tau(std::max<int64_t>(k, 1));
  for (int64_t b = 0; b < shape->count; ++b) {
    const T *ab = aAll + b * m * n;
    T *q = qAll + b * m * qcols;
    T *r = rAll + b * rrows * n;
    std::copy(ab, ab + m * n, a.begin());
    if (k > 0) {
      if (lapack_int info = Lapack<T>::geqrf(m, n, a.data(), n, tau.data()))
        return absl::InternalError(
            absl::StrFormat("geqrf failed with info=%d", info));
    }
    // R is the upper triangle geqrf leaves in a; rows past min(m, n) of a
    // complete R are zero.
    for (int64_t i = 0; i < rrows; ++i)
      for (int64_t j = 0; j < n; ++j)
        r[i * n + j] = (i <= j && i < k) ? a[i * n + j] : T(0);
    // orgqr expands the Householder vectors (first k columns of a) into Q.
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < qcols; ++j)
        q[i * qcols + j] = j < k ? a[i * n + j] : T(0);
    if (qcols > 0 && m > 0) {
      if (lapack_int info = Lapack<T>::orgqr(m, qcols, k, q, qcols, tau.data()))
        return absl::InternalError(
            absl::StrFormat("orgqr failed with info=%d", info));
    }
  }
  return absl::OkStatus();
}

template <typename T> absl::Status eigh(const nxrt_call_t &call) {
  if (absl::Status s = expect(call, 1, 2); !s.ok())
    return s;
  auto shape = matrices<T>(call.args[0]);
  if (!shape.ok())
    return shape.status();
  const int64_t n = shape->rows;
  if (shape->cols != n)
    return absl::InvalidArgumentError(absl::StrFormat(
        "expected square matrices, got %s", typeString(call.args[0])));
  if (absl::Status s = checkResults(
          call, {with(shape->batch, n, -1), with(shape->batch, n, n)},
          Lapack<T>::kDType);
      !s.ok())
    return s;
  const T *aAll = static_cast<const T *>(call.args[0].data);
  T *wAll = static_cast<T *>(call.results[0].data);
  T *vAll = static_cast<T *>(call.results[1].data);
  if (n == 0)
    return absl::OkStatus();
  for (int64_t b = 0; b < shape->count; ++b) {
    T *v = vAll + b * n * n;
    // syevd works in place: decompose straight in the output buffer.
    std::memcpy(v, aAll + b * n * n, sizeof(T) * n * n);
    lapack_int info = Lapack<T>::syevd(n, v, n, wAll + b * n);
    if (info > 0)
      return absl::InternalError(absl::StrFormat(
          "syevd failed to converge for batch element %d (info=%d)", b, info));
    if (info < 0)
      return absl::InternalError(
          absl::StrFormat("syevd rejected argument %d", -info));
  }
  return absl::OkStatus();
}

/// Runs a kernel with LAPACK on the compute threads: OpenBLAS's OpenMP
/// build sizes its team by the calling thread's OpenMP setting, one thread
/// inside a parallel region.
template <absl::Status (*Kernel)(const nxrt_call_t &)>
nxrt_status_t *adapt(void *, const nxrt_call_t *call) {
  OpenMPThreads team(omp_in_parallel() ? 1 : nxrt_compute_threads());
  return toC(Kernel(*call));
}

} // namespace

absl::Status registerLinAlgTargets(Registry &registry) {
  struct {
    const char *name;
    nxrt_handler_fn fn;
  } targets[] = {
      {NXRT_QR_F32_TARGET, &adapt<&qr<float>>},
      {NXRT_QR_F64_TARGET, &adapt<&qr<double>>},
      {NXRT_EIGH_F32_TARGET, &adapt<&eigh<float>>},
      {NXRT_EIGH_F64_TARGET, &adapt<&eigh<double>>},
  };
  for (const auto &t : targets)
    if (absl::Status s = registry.addTarget(t.name, t.fn, nullptr); !s.ok())
      return s;
  return absl::OkStatus();
}

} // namespace nxrt
