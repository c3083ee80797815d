//===- AttributesTest.cpp - Typed attribute encoding ----------------------===//
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

struct Parsed {
  explicit Parsed(const std::vector<uint8_t> &bytes) {
    status.reset(nxrt_attrs_parse(bytes.data(), bytes.size(), &attrs));
  }
  ~Parsed() { nxrt_attrs_free(attrs); }
  Status status;
  nxrt_attrs_t *attrs = nullptr;
};

TEST(NxrtAttrs, EmptyBlobIsEmptyDict) {
  nxrt_attrs_t *attrs = nullptr;
  NXRT_ASSERT_OK(nxrt_attrs_parse(nullptr, 0, &attrs));
  ASSERT_NE(attrs, nullptr);
  EXPECT_EQ(nxrt_attrs_size(attrs), 0u);
  EXPECT_EQ(nxrt_attrs_find(attrs, "x"), nullptr);
  nxrt_attrs_free(attrs);
}

TEST(NxrtAttrs, DocumentedExampleBytes) {
  // {"mode": "complete"}, byte for byte as in nxrt.h.
  std::vector<uint8_t> bytes = {0x06, 1,   0,   0,   0,    4,   0,   0,  0,
                                'm',  'o', 'd', 'e', 0x04, 8,   0,   0,  0,
                                'c',  'o', 'm', 'p', 'l',  'e', 't', 'e'};
  EXPECT_EQ(bytes, Attrs().str("mode", "complete").encode());
  Parsed p(bytes);
  ASSERT_EQ(p.status, nullptr) << message(p.status);
  const char *mode;
  size_t len;
  NXRT_ASSERT_OK(nxrt_attrs_get_string(p.attrs, "mode", &mode, &len));
  EXPECT_STREQ(mode, "complete");
  EXPECT_EQ(len, 8u);
}

TEST(NxrtAttrs, AllKindsRoundTrip) {
  Parsed p(Attrs()
               .i64("i", -42)
               .f64("f", 2.5)
               .boolean("b", true)
               .str("s", "hi")
               .i64Array("a", {1, 2, 3})
               .dict("d", Attrs().boolean("inner", false))
               .encode());
  ASSERT_EQ(p.status, nullptr) << message(p.status);
  ASSERT_EQ(nxrt_attrs_size(p.attrs), 6u);
  EXPECT_STREQ(nxrt_attrs_name_at(p.attrs, 0), "i");
  EXPECT_STREQ(nxrt_attrs_name_at(p.attrs, 5), "d");
  EXPECT_EQ(nxrt_attrs_name_at(p.attrs, 6), nullptr);
  EXPECT_EQ(nxrt_attrs_value_at(p.attrs, 6), nullptr);
  EXPECT_EQ(nxrt_attr_kind(nxrt_attrs_value_at(p.attrs, 3)), NXRT_ATTR_STRING);

  int64_t i;
  double f;
  int b;
  NXRT_EXPECT_OK(nxrt_attrs_get_i64(p.attrs, "i", &i));
  EXPECT_EQ(i, -42);
  NXRT_EXPECT_OK(nxrt_attrs_get_f64(p.attrs, "f", &f));
  EXPECT_EQ(f, 2.5);
  NXRT_EXPECT_OK(nxrt_attrs_get_bool(p.attrs, "b", &b));
  EXPECT_EQ(b, 1);
  NXRT_EXPECT_OK(nxrt_attr_i64(nxrt_attrs_find(p.attrs, "i"), &i));
  NXRT_EXPECT_OK(nxrt_attr_f64(nxrt_attrs_find(p.attrs, "f"), &f));
  NXRT_EXPECT_OK(nxrt_attr_bool(nxrt_attrs_find(p.attrs, "b"), &b));
  const char *s;
  NXRT_EXPECT_OK(nxrt_attr_string(nxrt_attrs_find(p.attrs, "s"), &s, nullptr));
  EXPECT_STREQ(s, "hi");

  const nxrt_attr_t *a = nxrt_attrs_find(p.attrs, "a");
  size_t n;
  NXRT_ASSERT_OK(nxrt_attr_array_size(a, &n));
  ASSERT_EQ(n, 3u);
  NXRT_EXPECT_OK(nxrt_attr_i64(nxrt_attr_array_at(a, 2), &i));
  EXPECT_EQ(i, 3);
  EXPECT_EQ(nxrt_attr_array_at(a, 3), nullptr);

  const nxrt_attrs_t *d;
  NXRT_ASSERT_OK(nxrt_attr_dict(nxrt_attrs_find(p.attrs, "d"), &d));
  NXRT_EXPECT_OK(nxrt_attrs_get_bool(d, "inner", &b));
  EXPECT_EQ(b, 0);
}

TEST(NxrtAttrs, KindMismatchAndMissingErrors) {
  Parsed p(Attrs().i64("n", 1).str("s", "x").encode());
  ASSERT_EQ(p.status, nullptr);
  const char *s;
  Status e1(nxrt_attrs_get_string(p.attrs, "n", &s, nullptr));
  EXPECT_EQ(nxrt_status_code(e1.get()), NXRT_INVALID_ARGUMENT);
  EXPECT_EQ(message(e1), "attribute 'n' has type i64, expected string");
  int b;
  Status e2(nxrt_attrs_get_bool(p.attrs, "missing", &b));
  EXPECT_EQ(nxrt_status_code(e2.get()), NXRT_NOT_FOUND);
  EXPECT_EQ(message(e2), "missing attribute 'missing'");
  double f;
  Status e3(nxrt_attr_f64(nxrt_attrs_find(p.attrs, "s"), &f));
  EXPECT_EQ(message(e3), "attribute has type string, expected f64");
  size_t n;
  Status e4(nxrt_attr_array_size(nxrt_attrs_find(p.attrs, "n"), &n));
  EXPECT_EQ(message(e4), "attribute has type i64, expected array");
  const nxrt_attrs_t *d;
  Status e5(nxrt_attr_dict(nxrt_attrs_find(p.attrs, "n"), &d));
  EXPECT_EQ(message(e5), "attribute has type i64, expected dict");
  int64_t i;
  Status e6(nxrt_attr_i64(nullptr, &i));
  EXPECT_EQ(message(e6), "attribute is null");
  Status e7(nxrt_attrs_get_f64(p.attrs, "n", &f));
  EXPECT_EQ(message(e7), "attribute 'n' has type i64, expected f64");
  Status e8(nxrt_attrs_get_i64(p.attrs, "s", &i));
  EXPECT_EQ(message(e8), "attribute 's' has type string, expected i64");
}

TEST(NxrtAttrs, TypedIntegersAndFloatsReadBackTheirType) {
  Parsed p(Attrs()
               .integer("big", NXRT_UNSIGNED, 64, ~uint64_t(0))
               .integer("small", NXRT_SIGNED, 8, static_cast<uint64_t>(-128))
               .integer("odd", NXRT_SIGNLESS, 3, static_cast<uint64_t>(-4))
               .floating("half", NXRT_F16, 0.5)
               .floating("brain", NXRT_BF16, -1.5)
               .floating("single", NXRT_F32, static_cast<double>(0.1f))
               .f64("double", 0.1)
               .i64("plain", -1)
               .encode());
  ASSERT_EQ(p.status, nullptr);
  const nxrt_attr_t *big = nxrt_attrs_find(p.attrs, "big");
  EXPECT_EQ(nxrt_attr_kind(big), NXRT_ATTR_INT);
  uint64_t u = 0;
  EXPECT_EQ(nxrt_attr_u64(big, &u), nullptr);
  EXPECT_EQ(u, ~uint64_t(0));
  uint32_t width = 0;
  nxrt_signedness_t signedness = NXRT_SIGNLESS;
  EXPECT_EQ(nxrt_attr_int_type(big, &width, &signedness), nullptr);
  EXPECT_EQ(width, 64u);
  EXPECT_EQ(signedness, NXRT_UNSIGNED);
  // 2^64-1 never reads as -1.
  int64_t i = 0;
  Status e1(nxrt_attr_i64(big, &i));
  EXPECT_EQ(nxrt_status_code(e1.get()), NXRT_INVALID_ARGUMENT);
  EXPECT_EQ(message(e1), "attribute has type ui64, expected a signless or "
                         "signed integer (read unsigned integers with "
                         "nxrt_attr_u64)");
  Status e2(nxrt_attrs_get_u64(p.attrs, "small", &u));
  EXPECT_EQ(message(e2),
            "attribute 'small' has type si8, expected an unsigned integer");
  EXPECT_EQ(nxrt_attrs_get_i64(p.attrs, "small", &i), nullptr);
  EXPECT_EQ(i, -128);
  EXPECT_EQ(nxrt_attrs_get_i64(p.attrs, "odd", &i), nullptr);
  EXPECT_EQ(i, -4);
  EXPECT_EQ(
      nxrt_attr_int_type(nxrt_attrs_find(p.attrs, "odd"), &width, &signedness),
      nullptr);
  EXPECT_EQ(width, 3u);
  EXPECT_EQ(signedness, NXRT_SIGNLESS);
  // A plain i64 is a 64-bit signless integer.
  EXPECT_EQ(nxrt_attr_int_type(nxrt_attrs_find(p.attrs, "plain"), &width,
                               &signedness),
            nullptr);
  EXPECT_EQ(width, 64u);
  EXPECT_EQ(signedness, NXRT_SIGNLESS);

  float f = 0;
  double d = 0;
  nxrt_dtype_t dtype = NXRT_DTYPE_INVALID;
  EXPECT_EQ(nxrt_attrs_get_f32(p.attrs, "half", &f), nullptr);
  EXPECT_EQ(f, 0.5f);
  EXPECT_EQ(nxrt_attr_float_dtype(nxrt_attrs_find(p.attrs, "half"), &dtype),
            nullptr);
  EXPECT_EQ(dtype, NXRT_F16);
  EXPECT_EQ(nxrt_attrs_get_f64(p.attrs, "brain", &d), nullptr);
  EXPECT_EQ(d, -1.5);
  EXPECT_EQ(nxrt_attrs_get_f32(p.attrs, "single", &f), nullptr);
  EXPECT_EQ(f, 0.1f);
  EXPECT_EQ(nxrt_attr_float_dtype(nxrt_attrs_find(p.attrs, "double"), &dtype),
            nullptr);
  EXPECT_EQ(dtype, NXRT_F64);
  Status e3(nxrt_attrs_get_f32(p.attrs, "double", &f));
  EXPECT_EQ(message(e3), "attribute 'double' has type f64, expected f32, f16 "
                         "or bf16 (read f64 with nxrt_attr_f64)");
  Status e4(nxrt_attrs_get_f64(p.attrs, "big", &d));
  EXPECT_EQ(message(e4), "attribute 'big' has type ui64, expected f64");
  Status e5(nxrt_attr_float_dtype(big, &dtype));
  EXPECT_EQ(message(e5), "attribute has type ui64, expected a float");
}

TEST(NxrtAttrs, MalformedTypedValuesAreRejected) {
  struct {
    Attrs attrs;
    const char *message;
  } cases[] = {
      {Attrs().integer("x", NXRT_SIGNLESS, 0, 0),
       "malformed attributes at byte 11 of 21: int width is 0, expected 1-64"},
      {Attrs().integer("x", NXRT_SIGNLESS, 65, 0),
       "malformed attributes at byte 11 of 21: int width is 65, expected "
       "1-64"},
      {Attrs().integer("x", static_cast<nxrt_signedness_t>(3), 8, 0),
       "malformed attributes at byte 11 of 21: int signedness is 3, expected "
       "0-2"},
      {Attrs().integer("x", NXRT_UNSIGNED, 8, 256),
       "malformed attributes at byte 11 of 21: int value 0x100 does not fit "
       "its 8-bit type"},
      {Attrs().integer("x", NXRT_SIGNED, 8, 128),
       "malformed attributes at byte 11 of 21: int value 0x80 does not fit "
       "its 8-bit type"},
      {Attrs().floating("x", NXRT_I32, 1.0),
       "malformed attributes at byte 11 of 20: float dtype is 4, expected "
       "f16, bf16, f32 or f64"},
      {Attrs().floating("x", NXRT_F16, 0.1),
       "malformed attributes at byte 11 of 20: float value 0.1 is not a f16"},
      {Attrs().floating("x", NXRT_F16, 65536.0),
       "malformed attributes at byte 11 of 20: float value 65536 is not a "
       "f16"},
      {Attrs().floating("x", NXRT_BF16, 1.0 + 1.0 / 256),
       "malformed attributes at byte 11 of 20: float value 1.00391 is not a "
       "bf16"},
      {Attrs().floating("x", NXRT_F32, 0.1),
       "malformed attributes at byte 11 of 20: float value 0.1 is not a f32"},
  };
  for (const auto &c : cases) {
    Parsed p(c.attrs.encode());
    EXPECT_EQ(nxrt_status_code(p.status.get()), NXRT_INVALID_ARGUMENT);
    EXPECT_EQ(message(p.status), c.message);
  }
  // Every f16 and bf16 the compiler can write is accepted.
  Parsed ok(Attrs()
                .floating("max", NXRT_F16, 65504.0)
                .floating("tiny", NXRT_F16, std::ldexp(1.0, -24))
                .floating("b", NXRT_BF16, 1.0 + 1.0 / 128)
                .floating("bt", NXRT_BF16, std::ldexp(1.0, -133))
                .encode());
  EXPECT_EQ(ok.status, nullptr);
}

TEST(NxrtAttrs, MalformedBlobsAreRejectedWithOffsets) {
  struct {
    std::vector<uint8_t> bytes;
    const char *message;
  } cases[] = {
      {{0x01, 0, 0, 0, 0, 0, 0, 0, 0},
       "malformed attributes at byte 0 of 9: top-level value has tag 0x01, "
       "expected a dict (0x06)"},
      {{0x06, 1, 0, 0, 0, 1, 0, 0, 0, 'x', 0x03, 2},
       "malformed attributes at byte 11 of 12: bool byte is 0x02, expected 0 "
       "or 1"},
      {{0x06, 1, 0, 0, 0, 1, 0, 0, 0, 'x', 0x09, 0},
       "malformed attributes at byte 10 of 12: unknown value tag 0x09"},
      {{0x06, 1, 0, 0, 0, 1, 0, 0, 0, 'x', 0x09},
       "malformed attributes at byte 5 of 11: dict of 1 entries exceeds the 6 "
       "remaining bytes"},
      {{0x06, 0, 0, 0, 0, 0xff},
       "malformed attributes at byte 5 of 6: 1 trailing bytes"},
      {{0x06, 0xff, 0xff, 0xff, 0xff},
       "malformed attributes at byte 5 of 5: dict of 4294967295 entries "
       "exceeds the 0 remaining bytes"},
      {{0x06, 1, 0, 0, 0, 0xff, 0, 0, 0, 'x', 0, 0},
       "malformed attributes at byte 5 of 12: string of 255 bytes exceeds the "
       "3 remaining bytes"},
      {{0x06, 1, 0, 0, 0, 0, 0, 0, 0, 0x03, 1, 0},
       "malformed attributes at byte 5 of 12: empty name"},
      {{0x06, 1, 0, 0, 0, 1, 0, 0, 0, 'x', 0x04, 1, 0, 0, 0, 0},
       "malformed attributes at byte 11 of 16: string contains a NUL byte"},
      {{0x06, 2, 0, 0, 0, 1, 0, 0, 0, 'x', 0x03, 1, 1, 0, 0, 0, 'x', 0x03, 0},
       "malformed attributes at byte 12 of 19: duplicate key 'x'"},
      {{0x06, 1, 0, 0, 0, 1, 0, 0, 0, 'x', 0x01, 1, 2},
       "malformed attributes at byte 11 of 13: truncated i64"},
      {{0x06, 1, 0, 0, 0, 1, 0, 0, 0, 'x', 0x07, 2, 8, 1},
       "malformed attributes at byte 13 of 14: truncated int"},
      {{0x06, 1, 0, 0, 0, 1, 0, 0, 0, 'x', 0x08, 12, 0, 0},
       "malformed attributes at byte 12 of 14: truncated float"},
  };
  for (const auto &c : cases) {
    Parsed p(c.bytes);
    EXPECT_EQ(nxrt_status_code(p.status.get()), NXRT_INVALID_ARGUMENT);
    EXPECT_EQ(message(p.status), c.message);
    EXPECT_EQ(p.attrs, nullptr);
  }
}

TEST(NxrtAttrs, DeepNestingIsRejectedNotOverflowed) {
  // 10000 nested single-element arrays would overflow a naive recursive
  // decoder's stack.
  std::vector<uint8_t> bytes = {0x06, 1, 0, 0, 0, 1, 0, 0, 0, 'x'};
  for (int i = 0; i < 10000; ++i)
    bytes.insert(bytes.end(), {0x05, 1, 0, 0, 0});
  bytes.insert(bytes.end(), {0x03, 1});
  Parsed p(bytes);
  EXPECT_NE(message(p.status).find("nesting deeper than 32 levels"),
            std::string::npos)
      << message(p.status);
}

TEST(NxrtAttrs, RandomBytesNeverCrash) {
  // Mutations of a valid blob plus pure noise: every outcome must be a clean
  // status (ASan/UBSan builds catch out-of-bounds reads).
  std::vector<uint8_t> valid = Attrs()
                                   .i64("a", 7)
                                   .str("b", "text")
                                   .i64Array("c", {1, 2})
                                   .dict("d", Attrs().f64("e", 1.0))
                                   .encode();
  std::mt19937 rng(1234);
  int ok = 0, rejected = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::vector<uint8_t> bytes = valid;
    if (iter % 4 == 0) {
      bytes.resize(rng() % 64);
      for (auto &b : bytes)
        b = rng();
    } else {
      int flips = 1 + rng() % 3;
      for (int k = 0; k < flips; ++k)
        bytes[rng() % bytes.size()] = rng();
      if (rng() % 3 == 0)
        bytes.resize(rng() % bytes.size());
    }
    // Copy to an exactly sized heap buffer so ASan sees any overread.
    std::unique_ptr<uint8_t[]> exact(new uint8_t[bytes.size() + 1]);
    std::copy(bytes.begin(), bytes.end(), exact.get());
    nxrt_attrs_t *attrs = nullptr;
    Status s(nxrt_attrs_parse(exact.get(), bytes.size(), &attrs));
    (s ? rejected : ok)++;
    if (s)
      EXPECT_EQ(attrs, nullptr);
    nxrt_attrs_free(attrs);
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(ok, 0);
}

} // namespace
