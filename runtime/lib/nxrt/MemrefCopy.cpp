//===- MemrefCopy.cpp - strided memref.copy for compiled code -------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// memref.copy between memrefs that are not both contiguous lowers to a call
// of MLIR's `memrefCopy` (CRunnerUtils). Defining it here, with the same
// ABI, lets ahead-of-time objects run against libnxrt alone: nx-compile
// renames the calls to nxrt_memref_copy and the JIT binds `memrefCopy` to
// it, so neither needs libmlir_c_runner_utils.
//
//===----------------------------------------------------------------------===//

#include "nxrt/nxrt.h"

#include <cstring>
#include <vector>

namespace {

/// MLIR's UnrankedMemRefType: what `source` and `destination` point to.
struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};

/// A view of a ranked descriptor {T *allocated, T *aligned, int64_t offset,
/// int64_t sizes[rank], int64_t strides[rank]}; every field is 8 bytes.
struct StridedView {
  explicit StridedView(const UnrankedDescriptor &unranked)
      : rank(unranked.rank) {
    auto *words = static_cast<const int64_t *>(unranked.descriptor);
    char *aligned;
    std::memcpy(&aligned, &words[1], sizeof(aligned));
    offset = words[2];
    data = aligned;
    sizes = words + 3;
    strides = words + 3 + rank;
  }

  int64_t rank;
  char *data;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;
};

} // namespace

extern "C" NXRT_API void nxrt_memref_copy(int64_t elementSize, void *source,
                                          void *destination) {
  StridedView src(*static_cast<UnrankedDescriptor *>(source));
  StridedView dst(*static_cast<UnrankedDescriptor *>(destination));
  int64_t rank = src.rank;
  for (int64_t d = 0; d < rank; ++d)
    if (src.sizes[d] == 0)
      return;
  char *from = src.data + src.offset * elementSize;
  char *to = dst.data + dst.offset * elementSize;
  if (rank == 0) {
    std::memcpy(to, from, elementSize);
    return;
  }
  // The innermost dimension is copied as one block when it is contiguous on
  // both sides; the outer dimensions are walked like an odometer.
  int64_t inner = rank - 1;
  bool contiguous = src.strides[inner] == 1 && dst.strides[inner] == 1;
  int64_t block = contiguous ? src.sizes[inner] * elementSize : elementSize;
  int64_t outerDims = contiguous ? inner : rank;
  std::vector<int64_t> index(rank, 0);
  int64_t srcOffset = 0, dstOffset = 0;
  while (true) {
    std::memcpy(to + dstOffset * elementSize, from + srcOffset * elementSize,
                block);
    int64_t d = outerDims - 1;
    for (; d >= 0; --d) {
      if (++index[d] < src.sizes[d]) {
        srcOffset += src.strides[d];
        dstOffset += dst.strides[d];
        break;
      }
      srcOffset -= src.strides[d] * (src.sizes[d] - 1);
      dstOffset -= dst.strides[d] * (dst.sizes[d] - 1);
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}
