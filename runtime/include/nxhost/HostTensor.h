//===- HostTensor.h - owning host tensors and their text form ---*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Part of nxhost, the MLIR-free host library behind both runners: nx-runner
// (JIT) and nxrt-run (ahead-of-time objects, no LLVM or MLIR installed). It
// uses LLVM Support's ADT and Error types like the rest of the project but
// links no LLVM library itself: nx-runner gets them from the shared libLLVM,
// nxrt-run from the static LLVMSupport archive.
//
//===----------------------------------------------------------------------===//

#ifndef NXHOST_HOSTTENSOR_H
#define NXHOST_HOSTTENSOR_H

#include "nxrt/nxrt.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace nxhost {

/// An owning, dense, row-major tensor in host memory (64-byte aligned).
/// Move-only; `clone()` makes a deep copy.
class HostTensor {
public:
  HostTensor() = default;
  /// A zero-filled tensor. The dtype must be valid and dims non-negative.
  HostTensor(nxrt_dtype_t dtype, llvm::ArrayRef<int64_t> shape);
  HostTensor(HostTensor &&) = default;
  HostTensor &operator=(HostTensor &&) = default;

  /// A zero-filled tensor (uninitialized unless `zeroed`, as
  /// `uninitialized` makes it), or an error for an invalid dtype, negative
  /// dims, a byte size that overflows, or memory the allocator refuses
  /// (RESOURCE_EXHAUSTED, with the size): the path for sizes a user gave.
  static llvm::Expected<HostTensor>
  create(nxrt_dtype_t dtype, llvm::ArrayRef<int64_t> shape, bool zeroed = true);

  /// The bytes a dense tensor of `dtype` and `shape` holds, or none for an
  /// invalid dtype, a negative dim or a size past SIZE_MAX.
  static std::optional<size_t> byteSizeOf(nxrt_dtype_t dtype,
                                          llvm::ArrayRef<int64_t> shape);

  /// A tensor whose bytes are left as the allocator gives them, for a caller
  /// that writes every one (a copy): zeroing a large buffer first costs as
  /// much as writing it, page faults included. Same requirements as the
  /// zero-filled constructor.
  static HostTensor uninitialized(nxrt_dtype_t dtype,
                                  llvm::ArrayRef<int64_t> shape);

  /// Parses `VALUE:TYPE`, e.g. `[1, 2, 3]:tensor<3xf32>`, `7:tensor<i64>`,
  /// `true:tensor<2xi1>` (a scalar VALUE is splatted). VALUE uses the syntax
  /// of MLIR's `dense<...>` attribute (TensorLiteralParser.cpp); a tensor
  /// without elements also takes `[]` or nothing. Types have at most 256
  /// dimensions.
  static llvm::Expected<HostTensor> parseLiteral(llvm::StringRef text);

  /// Reads / writes a NumPy .npy file (format 1.0-3.0, C order, little
  /// endian; dtypes bool, i1..i8, u1..u8, f2, f4, f8, c8, c16).
  static llvm::Expected<HostTensor> readNpy(llvm::StringRef path);
  llvm::Error writeNpy(llvm::StringRef path) const;
  /// The same from the bytes of a .npy file (`path` names them in errors)
  /// and to a stream (format 1.0, or 2.0 for a header past 64 KiB; an error
  /// only for a dtype NumPy lacks).
  static llvm::Expected<HostTensor> parseNpy(llvm::StringRef bytes,
                                             llvm::StringRef path);
  llvm::Error writeNpy(llvm::raw_ostream &os) const;

  HostTensor clone() const;
  /// The same as clone, or RESOURCE_EXHAUSTED (as `create`) when the
  /// allocator refuses the memory: the path for tensors a user sized.
  llvm::Expected<HostTensor> copy() const;

  nxrt_dtype_t dtype() const { return elementType; }
  llvm::ArrayRef<int64_t> shape() const { return dims; }
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  int64_t numElements() const;
  size_t byteSize() const { return numBytes; }
  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }

  /// A non-owning nxrt view of this tensor.
  nxrt_tensor_t view() const;

  /// MLIR spelling of the type, e.g. "tensor<2x3xf32>".
  std::string typeString() const;
  /// The values, nested by dimension: "[[1, 2], [3, 4]]"; a scalar prints
  /// bare ("5"), a tensor without elements "[]" whatever its shape. Floats
  /// use the shortest round-tripping form.
  std::string valuesString() const;
  /// "tensor<4xf32> = [1, 2, 3, 4]".
  std::string toString() const;

  /// Same dtype, shape and bytes.
  bool operator==(const HostTensor &other) const;
  bool operator!=(const HostTensor &other) const { return !(*this == other); }

private:
  struct FreeDeleter {
    void operator()(void *p) const;
  };
  nxrt_dtype_t elementType = NXRT_DTYPE_INVALID;
  llvm::SmallVector<int64_t, 4> dims;
  size_t numBytes = 0;
  std::unique_ptr<uint8_t[], FreeDeleter> storage;
};

/// Formats the values of an nxrt view like HostTensor::valuesString.
std::string formatValues(const nxrt_tensor_t &view);
/// "tensor<2x3xf32>" for an nxrt view.
std::string formatType(const nxrt_tensor_t &view);

} // namespace nxhost

#endif // NXHOST_HOSTTENSOR_H
