//===- LinAlgTest.cpp - Built-in qr/eigh custom-call targets --------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <random>

#include "TestUtil.h"

using namespace nxrt_test;

namespace {

template <typename T> struct Types;
template <> struct Types<float> {
  static constexpr nxrt_dtype_t kDType = NXRT_F32;
  static constexpr const char *kQr = NXRT_QR_F32_TARGET;
  static constexpr const char *kEigh = NXRT_EIGH_F32_TARGET;
  static constexpr double kTol = 1e-4;
};
template <> struct Types<double> {
  static constexpr nxrt_dtype_t kDType = NXRT_F64;
  static constexpr const char *kQr = NXRT_QR_F64_TARGET;
  static constexpr const char *kEigh = NXRT_EIGH_F64_TARGET;
  static constexpr double kTol = 1e-10;
};

template <typename T> class NxrtLinAlg : public RuntimeTest {
protected:
  using Ty = Types<T>;

  std::vector<T> Random(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(-1, 1);
    std::vector<T> v(n);
    for (auto &x : v)
      x = static_cast<T>(dist(rng));
    return v;
  }

  Status Call(const char *target, const std::vector<uint8_t> &attrs,
              nxrt_tensor_t *arg, std::vector<nxrt_tensor_t> results) {
    nxrt_site_t *site =
        AddSite(NXRT_SITE_CUSTOM_CALL, target, "la.mlir:1:1", attrs);
    nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
    nxrt_status_free(
        nxrt_invoke(run, site, arg, 1, results.data(), results.size()));
    return Status(nxrt_run_end(run));
  }

  // Checks Q^T Q = I, R upper triangular and Q R = A for every batch element.
  void CheckQr(const std::vector<int64_t> &batch, int64_t m, int64_t n,
               bool complete) {
    int64_t count = 1;
    for (int64_t b : batch)
      count *= b;
    int64_t k = std::min(m, n), qc = complete ? m : k, rr = complete ? m : k;
    auto dims = [&](int64_t a, int64_t b) {
      std::vector<int64_t> d = batch;
      d.push_back(a);
      d.push_back(b);
      return d;
    };
    Tensor<T> a(Ty::kDType, dims(m, n), Random(count * m * n, m * 31 + n));
    Tensor<T> q(Ty::kDType, dims(m, qc));
    Tensor<T> r(Ty::kDType, dims(rr, n));
    std::vector<uint8_t> attrs =
        complete ? Attrs().Str("mode", "complete").Encode()
                 : (batch.empty() ? std::vector<uint8_t>{}
                                  : Attrs().Str("mode", "reduced").Encode());
    Status s = Call(Ty::kQr, attrs, &a.view, {q.view, r.view});
    ASSERT_EQ(s, nullptr) << Message(s);
    for (int64_t b = 0; b < count; ++b) {
      const T *A = a.data.data() + b * m * n;
      const T *Q = q.data.data() + b * m * qc;
      const T *R = r.data.data() + b * rr * n;
      for (int64_t i = 0; i < qc; ++i)
        for (int64_t j = 0; j < qc; ++j) {
          double dot = 0;
          for (int64_t l = 0; l < m; ++l)
            dot += double(Q[l * qc + i]) * Q[l * qc + j];
          EXPECT_NEAR(dot, i == j ? 1.0 : 0.0, Ty::kTol) << i << "," << j;
        }
      for (int64_t i = 0; i < rr; ++i)
        for (int64_t j = 0; j < std::min(i, n); ++j)
          EXPECT_EQ(R[i * n + j], T(0)) << "R not upper triangular";
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double sum = 0;
          for (int64_t l = 0; l < qc; ++l)
            sum += double(Q[i * qc + l]) * R[l * n + j];
          EXPECT_NEAR(sum, A[i * n + j], Ty::kTol)
              << "QR != A at " << i << "," << j;
        }
    }
  }
};

using Floats = ::testing::Types<float, double>;
TYPED_TEST_SUITE(NxrtLinAlg, Floats);

TYPED_TEST(NxrtLinAlg, QrReducedTallAndWide) {
  this->CheckQr({}, 4, 3, false);
  this->CheckQr({}, 3, 5, false);
  this->CheckQr({}, 1, 1, false);
}

TYPED_TEST(NxrtLinAlg, QrComplete) {
  this->CheckQr({}, 5, 2, true);
  this->CheckQr({}, 2, 4, true);
}

TYPED_TEST(NxrtLinAlg, QrBatched) {
  this->CheckQr({2, 3}, 4, 3, false);
  this->CheckQr({3}, 3, 3, true);
}

TYPED_TEST(NxrtLinAlg, EighBatched) {
  using T = TypeParam;
  const int64_t batch = 3, n = 5;
  std::vector<T> a = this->Random(batch * n * n, 99);
  for (int64_t b = 0; b < batch; ++b) // symmetrize
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < i; ++j)
        a[b * n * n + j * n + i] = a[b * n * n + i * n + j];
  Tensor<T> A(Types<T>::kDType, {batch, n, n}, a);
  Tensor<T> w(Types<T>::kDType, {batch, n});
  Tensor<T> v(Types<T>::kDType, {batch, n, n});
  Status s = this->Call(Types<T>::kEigh, {}, &A.view, {w.view, v.view});
  ASSERT_EQ(s, nullptr) << Message(s);
  const double tol = Types<T>::kTol * 10;
  for (int64_t b = 0; b < batch; ++b) {
    const T *M = a.data() + b * n * n;
    const T *W = w.data.data() + b * n;
    const T *V = v.data.data() + b * n * n;
    for (int64_t j = 1; j < n; ++j)
      EXPECT_LE(W[j - 1], W[j]) << "eigenvalues ascending";
    for (int64_t j = 0; j < n; ++j) { // A v_j = w_j v_j, v_j = column j
      for (int64_t i = 0; i < n; ++i) {
        double av = 0;
        for (int64_t l = 0; l < n; ++l)
          av += double(M[i * n + l]) * V[l * n + j];
        EXPECT_NEAR(av, double(W[j]) * V[i * n + j], tol);
      }
      double norm = 0;
      for (int64_t i = 0; i < n; ++i)
        norm += double(V[i * n + j]) * V[i * n + j];
      EXPECT_NEAR(norm, 1.0, tol);
    }
  }
}

TYPED_TEST(NxrtLinAlg, EighOfDiagonalIsSorted) {
  using T = TypeParam;
  Tensor<T> A(Types<T>::kDType, {3, 3}, {3, 0, 0, 0, -1, 0, 0, 0, 2});
  Tensor<T> w(Types<T>::kDType, {3});
  Tensor<T> v(Types<T>::kDType, {3, 3});
  Status s = this->Call(Types<T>::kEigh, {}, &A.view, {w.view, v.view});
  ASSERT_EQ(s, nullptr) << Message(s);
  EXPECT_NEAR(w.data[0], -1, 1e-6);
  EXPECT_NEAR(w.data[1], 2, 1e-6);
  EXPECT_NEAR(w.data[2], 3, 1e-6);
  EXPECT_NEAR(std::abs(v.data[1 * 3 + 0]), 1, 1e-6) << "column 0 is e_1";
}

TYPED_TEST(NxrtLinAlg, Errors) {
  using T = TypeParam;
  const char *qr = Types<T>::kQr;
  const std::string name = qr;
  const nxrt_dtype_t dt = Types<T>::kDType;
  const std::string ty = nxrt_dtype_name(dt);
  Tensor<T> a(dt, {4, 3});
  Tensor<T> q(dt, {4, 3});
  Tensor<T> r(dt, {3, 3});

  Status bad_mode = this->Call(qr, Attrs().Str("mode", "full").Encode(),
                               &a.view, {q.view, r.view});
  EXPECT_EQ(Message(bad_mode),
            "custom call @" + name +
                " at la.mlir:1:1 failed: unknown qr mode "
                "'full', expected \"reduced\" or \"complete\"");
  Status mode_type = this->Call(qr, Attrs().Bool("mode", true).Encode(),
                                &a.view, {q.view, r.view});
  EXPECT_EQ(Message(mode_type), "custom call @" + name +
                                    " at la.mlir:1:1 "
                                    "failed: attribute 'mode' has type bool, "
                                    "expected string");
  Status shape = this->Call(qr, Attrs().Str("mode", "complete").Encode(),
                            &a.view, {q.view, r.view});
  EXPECT_EQ(Message(shape), "custom call @" + name +
                                " at la.mlir:1:1 failed: expected results "
                                "(tensor<4x4x" +
                                ty + ">, tensor<4x3x" + ty +
                                ">), got (tensor<4x3x" + ty + ">, tensor<3x3x" +
                                ty + ">)");
  Tensor<int32_t> ints(NXRT_I32, {4, 3});
  Status dtype = this->Call(qr, {}, &ints.view, {q.view, r.view});
  EXPECT_EQ(Message(dtype), "custom call @" + name +
                                " at la.mlir:1:1 failed: "
                                "expected a tensor<...xMxNx" +
                                ty +
                                "> operand, "
                                "got tensor<4x3xi32>");
  Status arity = this->Call(qr, {}, &a.view, {q.view});
  EXPECT_EQ(Message(arity),
            "custom call @" + name +
                " at la.mlir:1:1 failed: "
                "expected 1 operands and 2 results, got 1 and 1");

  const std::string eigh = Types<T>::kEigh;
  Tensor<T> w(dt, {4});
  Tensor<T> v(dt, {4, 4});
  Status square = this->Call(eigh.c_str(), {}, &a.view, {w.view, v.view});
  EXPECT_EQ(Message(square), "custom call @" + eigh +
                                 " at la.mlir:1:1 "
                                 "failed: expected square matrices, got "
                                 "tensor<4x3x" +
                                 ty + ">");
}

} // namespace
