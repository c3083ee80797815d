//===- MemrefCopyTest.cpp - nxrt_memref_copy ------------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

/// A ranked descriptor of rank R plus the unranked one pointing to it, laid
/// out as compiled code passes them.
template <int R> struct Memref {
  struct {
    void *allocated;
    void *aligned;
    int64_t offset;
    int64_t sizes[R > 0 ? R : 1];
    int64_t strides[R > 0 ? R : 1];
  } ranked;
  struct {
    int64_t rank;
    void *descriptor;
  } unranked;

  Memref(void *data, int64_t offset, std::vector<int64_t> sizes,
         std::vector<int64_t> strides) {
    ranked.allocated = ranked.aligned = data;
    ranked.offset = offset;
    for (int i = 0; i < R; ++i) {
      ranked.sizes[i] = sizes[i];
      ranked.strides[i] = strides[i];
    }
    unranked.rank = R;
    unranked.descriptor = &ranked;
  }
  void *get() { return &unranked; }
};

TEST(NxrtMemrefCopy, TransposedSourceIntoDenseDestination) {
  // Source: a 3x2 row-major buffer viewed as its 2x3 transpose.
  std::vector<float> src = {0, 1, 2, 3, 4, 5};
  std::vector<float> dst(6, -1);
  Memref<2> from(src.data(), 0, {2, 3}, {1, 2});
  Memref<2> to(dst.data(), 0, {2, 3}, {3, 1});
  nxrt_memref_copy(sizeof(float), from.get(), to.get());
  EXPECT_EQ(dst, (std::vector<float>{0, 2, 4, 1, 3, 5}));
}

TEST(NxrtMemrefCopy, ContiguousRowsWithOffsetsAndPadding) {
  // A 2x2 window at (1, 1) of a 3x4 source into a 2x2 window of a 2x3
  // destination at offset 1.
  std::vector<int32_t> src = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  std::vector<int32_t> dst(6, -1);
  Memref<2> from(src.data(), 5, {2, 2}, {4, 1});
  Memref<2> to(dst.data(), 1, {2, 2}, {3, 1});
  nxrt_memref_copy(sizeof(int32_t), from.get(), to.get());
  EXPECT_EQ(dst, (std::vector<int32_t>{-1, 5, 6, -1, 9, 10}));
}

TEST(NxrtMemrefCopy, RankZeroCopiesOneElement) {
  double src[2] = {1.5, 2.5};
  double dst = 0;
  Memref<0> from(src, 1, {}, {});
  Memref<0> to(&dst, 0, {}, {});
  nxrt_memref_copy(sizeof(double), from.get(), to.get());
  EXPECT_EQ(dst, 2.5);
}

TEST(NxrtMemrefCopy, EmptyShapeCopiesNothing) {
  int64_t src[4] = {1, 2, 3, 4};
  int64_t dst[4] = {0, 0, 0, 0};
  Memref<2> from(src, 0, {0, 4}, {4, 1});
  Memref<2> to(dst, 0, {0, 4}, {4, 1});
  nxrt_memref_copy(sizeof(int64_t), from.get(), to.get());
  EXPECT_EQ(dst[0], 0);
}

TEST(NxrtMemrefCopy, StridedInnermostDimension) {
  // Every other element of a rank-3 source (1x2x3 view, inner stride 2).
  std::vector<uint8_t> src(12);
  for (int i = 0; i < 12; ++i)
    src[i] = i;
  std::vector<uint8_t> dst(6, 0xff);
  Memref<3> from(src.data(), 0, {1, 2, 3}, {12, 6, 2});
  Memref<3> to(dst.data(), 0, {1, 2, 3}, {6, 3, 1});
  nxrt_memref_copy(1, from.get(), to.get());
  EXPECT_EQ(dst, (std::vector<uint8_t>{0, 2, 4, 6, 8, 10}));
}

} // namespace
