//===- NpyFilesTest.cpp - HostTensor to and from .npy bytes ---------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ParseLiteral.h"
#include "nxhost/HostTensor.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

using namespace nxhost;

namespace {

std::string npyBytes(const HostTensor &tensor) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (llvm::Error err = tensor.writeNpy(os))
    ADD_FAILURE() << llvm::toString(std::move(err));
  return bytes;
}

/// The error of reading `bytes` as a .npy file ("" when it reads).
std::string npyError(llvm::StringRef bytes) {
  auto tensor = HostTensor::parseNpy(bytes, "x.npy");
  return tensor ? "" : llvm::toString(tensor.takeError());
}

/// A version 1.0 file with `header` (padded) and `data`.
std::string npyFile(std::string header, llvm::StringRef data) {
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string file = "\x93NUMPY\x01";
  file += '\0';
  file += static_cast<char>(header.size() & 0xFF);
  file += static_cast<char>(header.size() >> 8);
  return file + header + data.str();
}

TEST(NpyFiles, EveryNumPyDTypeRoundTrips) {
  for (const char *text :
       {"[1.5, -2]:tensor<2xf32>", "[[1, 2], [3, 4]]:tensor<2x2xf64>",
        "[-0.25]:tensor<1xf16>", "[true, false]:tensor<2xi1>",
        "[-128, 127]:tensor<2xi8>", "[-3]:tensor<1xi16>", "7:tensor<i32>",
        "[-9]:tensor<1xi64>", "[255]:tensor<1xui8>", "[65535]:tensor<1xui16>",
        "[4000000000]:tensor<1xui32>", "[18446744073709551615]:tensor<1xui64>",
        "[(1, -2)]:tensor<1xcomplex<f32>>", "[(0.5, 3)]:tensor<1xcomplex<f64>>",
        "[]:tensor<3x0xf32>"}) {
    HostTensor tensor = nxhost_test::parseLiteral(text);
    auto back = HostTensor::parseNpy(npyBytes(tensor), "x.npy");
    ASSERT_TRUE(static_cast<bool>(back))
        << text << ": " << llvm::toString(back.takeError());
    EXPECT_TRUE(*back == tensor)
        << text << " read back as " << back->toString();
  }
}

TEST(NpyFiles, ABFloat16TensorHasNoNpyForm) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  llvm::Error err =
      nxhost_test::parseLiteral("[1]:tensor<1xbf16>").writeNpy(os);
  EXPECT_EQ(llvm::toString(std::move(err)),
            "cannot write a bf16 tensor to .npy (no NumPy dtype)");
}

TEST(NpyFiles, AHeaderPast64KiBIsWrittenInVersion2) {
  // 30000 dimensions of 1: a 90 KB shape, past version 1.0's 16-bit count.
  std::vector<int64_t> shape(30000, 1);
  auto tensor = HostTensor::create(NXRT_F32, shape);
  ASSERT_TRUE(static_cast<bool>(tensor));
  std::string bytes = npyBytes(*tensor);
  EXPECT_EQ(bytes[6], '\x02');
  auto back = HostTensor::parseNpy(bytes, "x.npy");
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_TRUE(*back == *tensor);
}

TEST(NpyFiles, AHeaderThatLiesIsAnErrorBeforeAnyAllocation) {
  const char *header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000,), }";
  EXPECT_EQ(npyError(npyFile(header, std::string(8, '\0'))),
            "'x.npy' is not a valid .npy file: expected 4000000000000 bytes "
            "of data, found 8");
  EXPECT_EQ(npyError(npyFile("{'descr': '<f4', 'fortran_order': False, "
                             "'shape': (4611686018427387904, 4), }",
                             "")),
            "'x.npy' is not a valid .npy file: shape '(4611686018427387904, "
            "4)' is too large");
}

TEST(NpyFiles, MalformedFilesSayWhy) {
  EXPECT_EQ(npyError("not a numpy file"),
            "'x.npy' is not a valid .npy file: bad magic");
  std::string version9 = npyFile("{}", "");
  version9[6] = 9;
  EXPECT_EQ(npyError(version9),
            "'x.npy' is not a valid .npy file: unsupported version 9");
  EXPECT_EQ(npyError(npyFile("{}", "").substr(0, 20)),
            "'x.npy' is not a valid .npy file: truncated header");
  EXPECT_EQ(npyError(npyFile("{'descr': '<f4', 'shape': (2,), }", "")),
            "'x.npy' is not a valid .npy file: missing descr, fortran_order "
            "or shape");
  EXPECT_EQ(npyError(npyFile("{'descr': '<f4', 'fortran_order': False, "
                             "'shape': (2, -1), }",
                             "")),
            "'x.npy' is not a valid .npy file: malformed shape '(2, -1)'");
  EXPECT_EQ(npyError(npyFile("{'descr': '>f4', 'fortran_order': False, "
                             "'shape': (1,), }",
                             "abcd")),
            "'x.npy': unsupported .npy dtype '>f4'");
  EXPECT_EQ(npyError(npyFile("{'descr': '<f4', 'fortran_order': True, "
                             "'shape': (1,), }",
                             "abcd")),
            "'x.npy': Fortran-order .npy files are not supported");
}

} // namespace
