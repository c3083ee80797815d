//===- TensorLiteralParserTest.cpp - HostTensor::parseLiteral -------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ParseLiteral.h"
#include "nxhost/HostTensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace nxhost;

namespace {

using nxhost_test::parseLiteral;

/// The error message of parsing `text` ("" when it parses).
std::string error(llvm::StringRef text) {
  auto t = HostTensor::parseLiteral(text);
  return t ? "" : llvm::toString(t.takeError());
}

TEST(TensorLiteralParser, RoundTripsWhatTheRunnersPrint) {
  for (const char *text :
       {"[1, 2.5, -3, 0.1]:tensor<4xf32>",
        "[[1, 2, 3], [4, 5, 6]]:tensor<2x3xi32>", "7:tensor<i64>",
        "[true, false]:tensor<2xi1>",
        "[(1, -2), (0.5, 3)]:tensor<2xcomplex<f32>>", "[255, 0]:tensor<2xui8>",
        "[]:tensor<0xf64>", "[1.5, -2]:tensor<2xbf16>",
        "[-0.25]:tensor<1xf16>"}) {
    HostTensor t = parseLiteral(text);
    EXPECT_EQ(t.valuesString() + ":" + t.typeString(), text);
  }
}

TEST(TensorLiteralParser, ScalarSplatsOverTheShape) {
  EXPECT_EQ(parseLiteral("3:tensor<2x2xf64>").valuesString(),
            "[[3, 3], [3, 3]]");
  EXPECT_EQ(parseLiteral("true:tensor<3xi1>").valuesString(),
            "[true, true, true]");
  EXPECT_EQ(parseLiteral("(1, 2):tensor<2xcomplex<f64>>").valuesString(),
            "[(1, 2), (1, 2)]");
}

TEST(TensorLiteralParser, NumberSpellings) {
  EXPECT_EQ(parseLiteral("[0x10, -0x10, 1]:tensor<3xi32>").valuesString(),
            "[16, -16, 1]");
  EXPECT_EQ(parseLiteral("[1e3, -2.5E-1, 3.]:tensor<3xf64>").valuesString(),
            "[1000, -0.25, 3]");
  EXPECT_EQ(parseLiteral("[inf, -inf]:tensor<2xf32>").valuesString(),
            "[inf, -inf]");
  EXPECT_TRUE(std::isnan(
      *static_cast<const float *>(parseLiteral("nan:tensor<f32>").data())));
  // A hexadecimal float is a bit pattern, as in MLIR.
  EXPECT_EQ(parseLiteral("0x3F800000:tensor<f32>").valuesString(), "1");
  EXPECT_EQ(parseLiteral("[1, 0]:tensor<2xi1>").valuesString(),
            "[true, false]");
  EXPECT_EQ(parseLiteral("[-128, 255]:tensor<2xi8>").valuesString(),
            "[-128, -1]");
  EXPECT_EQ(parseLiteral("-1:tensor<si16>").valuesString(), "-1");
  EXPECT_EQ(parseLiteral("18446744073709551615:tensor<ui64>").valuesString(),
            "18446744073709551615");
  EXPECT_EQ(parseLiteral(" [ [1] , [2] ] : tensor<2x1xi64> ").valuesString(),
            "[[1], [2]]");
}

TEST(TensorLiteralParser, FloatsRoundToNearestEven) {
  // 1 + 2^-11 is halfway between two halves: ties to even (1).
  uint16_t bits;
  std::memcpy(&bits, parseLiteral("1.00048828125:tensor<f16>").data(), 2);
  EXPECT_EQ(bits, 0x3C00);
}

TEST(TensorLiteralParser, ErrorsSayWhatWasExpectedAndWhere) {
  EXPECT_EQ(error("[1, 2, 3]"), "expected VALUE:TYPE (e.g. "
                                "'[1, 2]:tensor<2xf32>'), got '[1, 2, 3]'");
  EXPECT_EQ(error("[1, 2]:tensor<3xf32>"),
            "invalid value '[1, 2]' for tensor<3xf32>: dimension 0 has 2 "
            "element(s), expected 3 at column 1");
  EXPECT_EQ(error("[1, 2, 3]:tensor<?xf32>"),
            "type 'tensor<?xf32>' is not a statically shaped ranked tensor "
            "type");
  EXPECT_EQ(
      error("[1, 2, 3]:tensor<3xfoo>")
          .rfind("invalid type 'tensor<3xfoo>': unknown element type 'foo'", 0),
      0u);
  EXPECT_EQ(error("1:memref<f32>").rfind("invalid type 'memref<f32>'", 0), 0u);
  EXPECT_EQ(error("[1.5]:tensor<1xi32>"),
            "invalid value '[1.5]' for tensor<1xi32>: expected an integer, "
            "found '1.5]' at column 2");
  EXPECT_EQ(error("256:tensor<ui8>"),
            "invalid value '256' for tensor<ui8>: integer 256 does not fit in "
            "ui8 at column 1");
  EXPECT_EQ(error("-1:tensor<ui8>"),
            "invalid value '-1' for tensor<ui8>: integer -1 does not fit in "
            "ui8 at column 1");
  EXPECT_EQ(error("[1, 2, 3]:tensor<2xi64>"),
            "invalid value '[1, 2, 3]' for tensor<2xi64>: dimension 0 has "
            "more than 2 element(s) at column 8");
  EXPECT_EQ(error("[[1], [2, 3]]:tensor<2x1xf32>"),
            "invalid value '[[1], [2, 3]]' for tensor<2x1xf32>: dimension 1 "
            "has more than 1 element(s) at column 11");
  EXPECT_EQ(error("[[1, 2]]:tensor<2xf32>"),
            "invalid value '[[1, 2]]' for tensor<2xf32>: expected a "
            "floating-point number, found '[1, 2]]' at column 2");
  EXPECT_EQ(error("[1, 2] x:tensor<2xf32>"),
            "invalid value '[1, 2] x' for tensor<2xf32>: unexpected 'x' after "
            "the value at column 8");
  EXPECT_EQ(error("maybe:tensor<i1>"),
            "invalid value 'maybe' for tensor<i1>: expected true, false, 0 or "
            "1, found 'maybe' at column 1");
  EXPECT_EQ(error("[1, 2]:tensor<2xcomplex<f32>>"),
            "invalid value '[1, 2]' for tensor<2xcomplex<f32>>: expected a "
            "complex value '(re, im)', found '1, 2]' at column 2");
}

TEST(TensorLiteralParser, EmptyTensorsPrintAndParseAsNothing) {
  // Any shape with a zero: "[]", as NumPy prints it, or no value at all.
  EXPECT_EQ(parseLiteral("[]:tensor<2x0xf32>").valuesString(), "[]");
  EXPECT_EQ(parseLiteral("[[], []]:tensor<2x0xf32>").valuesString(), "[]");
  EXPECT_EQ(parseLiteral(":tensor<3x0x2xi8>").typeString(), "tensor<3x0x2xi8>");
  EXPECT_EQ(parseLiteral("2x0xf64=").typeString(), "tensor<2x0xf64>");
  // No list per element of the other dimensions: 10^12 of them here.
  HostTensor huge = parseLiteral("1000000x1000000x0xf32=");
  EXPECT_EQ(huge.numElements(), 0);
  EXPECT_EQ(huge.valuesString(), "[]");
  // Their product passes INT64_MAX before the zero.
  EXPECT_EQ(parseLiteral("[]:tensor<4611686018427387904x2x0xi8>").numElements(),
            0);
}

TEST(TensorLiteralParser, SizesThatOverflowAreErrors) {
  EXPECT_EQ(error("9223372036854775807x9223372036854775807xf32=1 2"),
            "'9223372036854775807x9223372036854775807xf32=1 2' has a number "
            "of values that is neither 1 nor the shape's element count");
  EXPECT_EQ(error("1:tensor<9223372036854775807x9223372036854775807xf32>")
                .rfind("invalid tensor: dtype f32", 0),
            0u);
}

TEST(TensorLiteralParser, RanksAreBoundedBeforeValuesNest) {
  // Values nest a level per dimension; a rank-15000 literal, which fits on
  // a command line, overflowed the stack.
  std::string ones;
  for (int i = 0; i < 15000; ++i)
    ones += "1x";
  std::string expected = "a literal's type has at most 256 dimensions, got "
                         "15000 (use a .npy file)";
  EXPECT_EQ(error("1:tensor<" + ones + "f32>"), expected);
  EXPECT_EQ(error(ones + "f32=1 2"), expected);
  std::string rank256;
  for (int i = 0; i < 256; ++i)
    rank256 += "1x";
  EXPECT_EQ(parseLiteral("[" + std::string(255, '[') + "5" +
                         std::string(256, ']') + ":tensor<" + rank256 + "i32>")
                .rank(),
            256);
}

} // namespace
