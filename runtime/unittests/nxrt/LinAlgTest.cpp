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

  std::vector<T> random(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(-1, 1);
    std::vector<T> v(n);
    for (auto &x : v)
      x = static_cast<T>(dist(rng));
    return v;
  }

  Status call(const char *target, const std::vector<uint8_t> &attrs,
              nxrt_tensor_t *arg, std::vector<nxrt_tensor_t> results) {
    nxrt_site_t *site =
        addSite(NXRT_SITE_CUSTOM_CALL, target, "la.mlir:1:1", attrs);
    nxrt_run_t *run = nxrt_run_begin(rt, nullptr);
    nxrt_status_free(
        nxrt_invoke(run, site, arg, 1, results.data(), results.size()));
    return Status(nxrt_run_end(run));
  }

  // Checks Q^T Q = I, R upper triangular and Q R = A for every batch element.
  void checkQr(const std::vector<int64_t> &batch, int64_t m, int64_t n,
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
    Tensor<T> a(Ty::kDType, dims(m, n), random(count * m * n, m * 31 + n));
    Tensor<T> q(Ty::kDType, dims(m, qc));
    Tensor<T> r(Ty::kDType, dims(rr, n));
    std::vector<uint8_t> attrs =
        complete ? Attrs().str("mode", "complete").encode()
                 : (batch.empty() ? std::vector<uint8_t>{}
                                  : Attrs().str("mode", "reduced").encode());
    Status s = call(Ty::kQr, attrs, &a.view, {q.view, r.view});
    ASSERT_EQ(s, nullptr) << message(s);
    for (int64_t b = 0; b < count; ++b) {
      const T *aData = a.data.data() + b * m * n;
      const T *qData = q.data.data() + b * m * qc;
      const T *rData = r.data.data() + b * rr * n;
      for (int64_t i = 0; i < qc; ++i)
        for (int64_t j = 0; j < qc; ++j) {
          double dot = 0;
          for (int64_t l = 0; l < m; ++l)
            dot += double(qData[l * qc + i]) * qData[l * qc + j];
          EXPECT_NEAR(dot, i == j ? 1.0 : 0.0, Ty::kTol) << i << "," << j;
        }
      for (int64_t i = 0; i < rr; ++i)
        for (int64_t j = 0; j < std::min(i, n); ++j)
          EXPECT_EQ(rData[i * n + j], T(0)) << "R not upper triangular";
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double sum = 0;
          for (int64_t l = 0; l < qc; ++l)
            sum += double(qData[i * qc + l]) * rData[l * n + j];
          EXPECT_NEAR(sum, aData[i * n + j], Ty::kTol)
              << "QR != A at " << i << "," << j;
        }
    }
  }
};

using Floats = ::testing::Types<float, double>;
TYPED_TEST_SUITE(NxrtLinAlg, Floats);

TYPED_TEST(NxrtLinAlg, QrReducedTallAndWide) {
  this->checkQr({}, 4, 3, false);
  this->checkQr({}, 3, 5, false);
  this->checkQr({}, 1, 1, false);
}

TYPED_TEST(NxrtLinAlg, QrComplete) {
  this->checkQr({}, 5, 2, true);
  this->checkQr({}, 2, 4, true);
}

TYPED_TEST(NxrtLinAlg, QrBatched) {
  this->checkQr({2, 3}, 4, 3, false);
  this->checkQr({3}, 3, 3, true);
}

TYPED_TEST(NxrtLinAlg, EighBatched) {
  using T = TypeParam;
  const int64_t batch = 3, n = 5;
  std::vector<T> a = this->random(batch * n * n, 99);
  for (int64_t b = 0; b < batch; ++b) // symmetrize
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < i; ++j)
        a[b * n * n + j * n + i] = a[b * n * n + i * n + j];
  Tensor<T> input(Types<T>::kDType, {batch, n, n}, a);
  Tensor<T> w(Types<T>::kDType, {batch, n});
  Tensor<T> v(Types<T>::kDType, {batch, n, n});
  Status s = this->call(Types<T>::kEigh, {}, &input.view, {w.view, v.view});
  ASSERT_EQ(s, nullptr) << message(s);
  const double tol = Types<T>::kTol * 10;
  for (int64_t b = 0; b < batch; ++b) {
    const T *mData = a.data() + b * n * n;
    const T *wData = w.data.data() + b * n;
    const T *vData = v.data.data() + b * n * n;
    for (int64_t j = 1; j < n; ++j)
      EXPECT_LE(wData[j - 1], wData[j]) << "eigenvalues ascending";
    for (int64_t j = 0; j < n; ++j) { // A v_j = w_j v_j, v_j = column j
      for (int64_t i = 0; i < n; ++i) {
        double av = 0;
        for (int64_t l = 0; l < n; ++l)
          av += double(mData[i * n + l]) * vData[l * n + j];
        EXPECT_NEAR(av, double(wData[j]) * vData[i * n + j], tol);
      }
      double norm = 0;
      for (int64_t i = 0; i < n; ++i)
        norm += double(vData[i * n + j]) * vData[i * n + j];
      EXPECT_NEAR(norm, 1.0, tol);
    }
  }
}

TYPED_TEST(NxrtLinAlg, EighOfDiagonalIsSorted) {
  using T = TypeParam;
  Tensor<T> a(Types<T>::kDType, {3, 3}, {3, 0, 0, 0, -1, 0, 0, 0, 2});
  Tensor<T> w(Types<T>::kDType, {3});
  Tensor<T> v(Types<T>::kDType, {3, 3});
  Status s = this->call(Types<T>::kEigh, {}, &a.view, {w.view, v.view});
  ASSERT_EQ(s, nullptr) << message(s);
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

  Status badMode = this->call(qr, Attrs().str("mode", "full").encode(), &a.view,
                              {q.view, r.view});
  EXPECT_EQ(message(badMode),
            "custom call @" + name +
                " at la.mlir:1:1 failed: unknown qr mode "
                "'full', expected \"reduced\" or \"complete\"");
  Status modeType = this->call(qr, Attrs().boolean("mode", true).encode(),
                               &a.view, {q.view, r.view});
  EXPECT_EQ(message(modeType), "custom call @" + name +
                                   " at la.mlir:1:1 "
                                   "failed: attribute 'mode' has type bool, "
                                   "expected string");
  Status shape = this->call(qr, Attrs().str("mode", "complete").encode(),
                            &a.view, {q.view, r.view});
  EXPECT_EQ(message(shape), "custom call @" + name +
                                " at la.mlir:1:1 failed: expected results "
                                "(tensor<4x4x" +
                                ty + ">, tensor<4x3x" + ty +
                                ">), got (tensor<4x3x" + ty + ">, tensor<3x3x" +
                                ty + ">)");
  Tensor<int32_t> ints(NXRT_I32, {4, 3});
  Status dtype = this->call(qr, {}, &ints.view, {q.view, r.view});
  EXPECT_EQ(message(dtype), "custom call @" + name +
                                " at la.mlir:1:1 failed: "
                                "expected a tensor<...xMxNx" +
                                ty +
                                "> operand, "
                                "got tensor<4x3xi32>");
  Status arity = this->call(qr, {}, &a.view, {q.view});
  EXPECT_EQ(message(arity),
            "custom call @" + name +
                " at la.mlir:1:1 failed: "
                "expected 1 operands and 2 results, got 1 and 1");

  const std::string eigh = Types<T>::kEigh;
  Tensor<T> w(dt, {4});
  Tensor<T> v(dt, {4, 4});
  Status square = this->call(eigh.c_str(), {}, &a.view, {w.view, v.view});
  EXPECT_EQ(message(square), "custom call @" + eigh +
                                 " at la.mlir:1:1 "
                                 "failed: expected square matrices, got "
                                 "tensor<4x3x" +
                                 ty + ">");
}

} // namespace
