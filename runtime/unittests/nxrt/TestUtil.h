//===- TestUtil.h - Helpers for libnxrt unit tests --------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_UNITTESTS_TESTUTIL_H
#define NXRT_UNITTESTS_TESTUTIL_H

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "nxrt/nxrt.h"
#include "gtest/gtest.h"

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define NXRT_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define NXRT_TEST_SANITIZED 1
#endif
#endif

namespace nxrt_test {

// Owns a status for the duration of a test expression.
struct StatusDeleter {
  void operator()(nxrt_status_t *s) const { nxrt_status_free(s); }
};
using Status = std::unique_ptr<nxrt_status_t, StatusDeleter>;

inline std::string message(const Status &s) {
  return nxrt_status_message(s.get());
}

#define NXRT_EXPECT_OK(expr)                                                   \
  do {                                                                         \
    ::nxrt_test::Status _s(expr);                                              \
    EXPECT_EQ(_s, nullptr) << nxrt_status_message(_s.get());                   \
  } while (0)
#define NXRT_ASSERT_OK(expr)                                                   \
  do {                                                                         \
    ::nxrt_test::Status _s(expr);                                              \
    ASSERT_EQ(_s, nullptr) << nxrt_status_message(_s.get());                   \
  } while (0)

// A tensor that owns its dims and data.
template <typename T> struct Tensor {
  Tensor(nxrt_dtype_t dtype, std::vector<int64_t> dims,
         std::vector<T> data = {})
      : dims(std::move(dims)), data(std::move(data)) {
    size_t n = 1;
    for (int64_t d : this->dims)
      n *= d;
    this->data.resize(n);
    view = {dtype, static_cast<int32_t>(this->dims.size()), this->dims.data(),
            this->data.data()};
  }
  Tensor(const Tensor &) = delete;
  std::vector<int64_t> dims;
  std::vector<T> data;
  nxrt_tensor_t view;
};

// Encoder for the typed attribute format documented in nxrt.h.
class Attrs {
public:
  Attrs &i64(const std::string &name, int64_t v) {
    key(name);
    bytes.push_back(NXRT_ATTR_I64);
    raw64(static_cast<uint64_t>(v));
    return *this;
  }
  Attrs &f64(const std::string &name, double v) {
    key(name);
    bytes.push_back(NXRT_ATTR_F64);
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    raw64(bits);
    return *this;
  }
  Attrs &integer(const std::string &name, nxrt_signedness_t signedness,
                 uint8_t width, uint64_t bits) {
    key(name);
    bytes.push_back(NXRT_ATTR_INT);
    bytes.push_back(static_cast<uint8_t>(signedness));
    bytes.push_back(width);
    raw64(bits);
    return *this;
  }
  Attrs &floating(const std::string &name, nxrt_dtype_t dtype, double v) {
    key(name);
    bytes.push_back(NXRT_ATTR_FLOAT);
    bytes.push_back(static_cast<uint8_t>(dtype));
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    raw64(bits);
    return *this;
  }
  Attrs &boolean(const std::string &name, bool v) {
    key(name);
    bytes.push_back(NXRT_ATTR_BOOL);
    bytes.push_back(v);
    return *this;
  }
  Attrs &str(const std::string &name, const std::string &v) {
    key(name);
    bytes.push_back(NXRT_ATTR_STRING);
    raw32(v.size());
    bytes.insert(bytes.end(), v.begin(), v.end());
    return *this;
  }
  Attrs &i64Array(const std::string &name, const std::vector<int64_t> &vs) {
    key(name);
    bytes.push_back(NXRT_ATTR_ARRAY);
    raw32(vs.size());
    for (int64_t v : vs) {
      bytes.push_back(NXRT_ATTR_I64);
      raw64(static_cast<uint64_t>(v));
    }
    return *this;
  }
  Attrs &dict(const std::string &name, const Attrs &inner) {
    key(name);
    std::vector<uint8_t> b = inner.encode();
    bytes.insert(bytes.end(), b.begin(), b.end());
    return *this;
  }
  // The full blob: a dict value.
  std::vector<uint8_t> encode() const {
    std::vector<uint8_t> out{NXRT_ATTR_DICT};
    for (int k = 0; k < 4; ++k)
      out.push_back(static_cast<uint8_t>(count >> (8 * k)));
    out.insert(out.end(), bytes.begin(), bytes.end());
    return out;
  }

private:
  void key(const std::string &name) {
    ++count;
    raw32(name.size());
    bytes.insert(bytes.end(), name.begin(), name.end());
  }
  void raw32(uint32_t v) {
    for (int k = 0; k < 4; ++k)
      bytes.push_back(static_cast<uint8_t>(v >> (8 * k)));
  }
  void raw64(uint64_t v) {
    for (int k = 0; k < 8; ++k)
      bytes.push_back(static_cast<uint8_t>(v >> (8 * k)));
  }
  std::vector<uint8_t> bytes;
  uint32_t count = 0;
};

// Runtime + program fixture for tests that invoke sites.
class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    rt = nxrt_runtime_create();
    program = nxrt_program_create(rt, "test");
  }
  void TearDown() override {
    nxrt_bridge_close(rt);
    nxrt_program_destroy(program);
    nxrt_runtime_destroy(rt);
  }

  nxrt_site_t *addSite(nxrt_site_kind_t kind, const char *name,
                       const char *loc = "test.mlir:1:1",
                       const std::vector<uint8_t> &attrs = {}) {
    nxrt_status_t *error = nullptr;
    nxrt_site_t *site = nxrt_program_add_site(
        program, kind, name, loc, attrs.data(), attrs.size(), &error);
    EXPECT_EQ(error, nullptr) << nxrt_status_message(error);
    nxrt_status_free(error);
    return site;
  }

  void registerInline(const char *name, nxrt_handler_fn fn,
                      void *user = nullptr) {
    nxrt_callback_desc_t desc{NXRT_DISPATCH_INLINE, fn, user, 0};
    NXRT_ASSERT_OK(nxrt_register_callback(rt, name, &desc));
  }
  void registerBridge(const char *name, int64_t timeoutMs = 0) {
    nxrt_callback_desc_t desc{NXRT_DISPATCH_BRIDGE, nullptr, nullptr,
                              timeoutMs};
    NXRT_ASSERT_OK(nxrt_register_callback(rt, name, &desc));
  }

  nxrt_runtime_t *rt = nullptr;
  nxrt_program_t *program = nullptr;
};

} // namespace nxrt_test

#endif // NXRT_UNITTESTS_TESTUTIL_H
