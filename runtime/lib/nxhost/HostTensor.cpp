//===- HostTensor.cpp - owning, dense host tensors ------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nxhost/HostTensor.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdlib>
#include <cstring>
#include <system_error>

using namespace nxhost;
using llvm::createStringError;
using llvm::Expected;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// HostTensor basics
//===----------------------------------------------------------------------===//

void HostTensor::FreeDeleter::operator()(void *p) const { std::free(p); }

std::optional<size_t> HostTensor::byteSizeOf(nxrt_dtype_t dtype,
                                             llvm::ArrayRef<int64_t> shape) {
  size_t size = nxrt_dtype_size(dtype);
  if (size == 0)
    return std::nullopt;
  for (int64_t dim : shape) {
    if (dim < 0)
      return std::nullopt;
    if (dim != 0 && size > SIZE_MAX / static_cast<size_t>(dim))
      return std::nullopt;
    size *= static_cast<size_t>(dim);
  }
  // Storage is allocated in whole 64-byte lines.
  if (size > SIZE_MAX - 63)
    return std::nullopt;
  return size;
}

/// The 64-byte aligned storage of `bytes` bytes, in whole lines, or null.
static void *allocateStorage(size_t bytes) {
  size_t allocated = (bytes + 63) / 64 * 64;
  return std::aligned_alloc(64, allocated == 0 ? 64 : allocated);
}

Expected<HostTensor> HostTensor::create(nxrt_dtype_t dtype,
                                        llvm::ArrayRef<int64_t> shape,
                                        bool zeroed) {
  std::optional<size_t> bytes = byteSizeOf(dtype, shape);
  if (!bytes)
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "invalid tensor: dtype " + StringRef(nxrt_dtype_name(dtype)) +
            ", shape [" +
            llvm::join(llvm::map_range(
                           shape, [](int64_t d) { return std::to_string(d); }),
                       ", ") +
            "]");
  void *storage = allocateStorage(*bytes);
  if (!storage) {
    nxrt_tensor_t type{dtype, static_cast<int32_t>(shape.size()), shape.data(),
                       nullptr};
    return llvm::createStringError(
        std::make_error_code(std::errc::not_enough_memory),
        "RESOURCE_EXHAUSTED: out of memory for %s (%zu bytes)",
        formatType(type).c_str(), *bytes);
  }
  HostTensor tensor;
  tensor.elementType = dtype;
  tensor.dims.assign(shape.begin(), shape.end());
  tensor.numBytes = *bytes;
  tensor.storage.reset(static_cast<uint8_t *>(storage));
  if (zeroed)
    std::memset(storage, 0, (*bytes + 63) / 64 * 64);
  return tensor;
}

/// What the constructors that cannot fail make of `create`'s outcome: an
/// invalid (empty) tensor for an invalid dtype or shape; for memory the
/// allocator refuses - sizes the program chose, not the user - an abort.
static HostTensor takeCreated(Expected<HostTensor> created) {
  if (created)
    return std::move(*created);
  std::error_code code = llvm::errorToErrorCode(created.takeError());
  if (code == std::errc::not_enough_memory)
    llvm::report_bad_alloc_error("out of memory for a host tensor");
  return HostTensor();
}

HostTensor::HostTensor(nxrt_dtype_t dtype, llvm::ArrayRef<int64_t> shape)
    : HostTensor(takeCreated(create(dtype, shape, /*zeroed=*/true))) {}

HostTensor HostTensor::uninitialized(nxrt_dtype_t dtype,
                                     llvm::ArrayRef<int64_t> shape) {
  return takeCreated(create(dtype, shape, /*zeroed=*/false));
}

int64_t HostTensor::numElements() const {
  // Not the dimensions' product: [2^62, 2, 0] holds no element, but its
  // first two dimensions' product passes INT64_MAX.
  size_t elementSize = nxrt_dtype_size(elementType);
  return elementSize ? static_cast<int64_t>(numBytes / elementSize) : 0;
}

nxrt_tensor_t HostTensor::view() const {
  nxrt_tensor_t v;
  v.dtype = elementType;
  v.rank = static_cast<int32_t>(dims.size());
  v.dims = dims.data();
  v.data = const_cast<uint8_t *>(storage.get());
  return v;
}

HostTensor HostTensor::clone() const {
  HostTensor copy = uninitialized(elementType, dims);
  if (numBytes)
    std::memcpy(copy.data(), data(), numBytes);
  return copy;
}

Expected<HostTensor> HostTensor::copy() const {
  Expected<HostTensor> copy = create(elementType, dims, /*zeroed=*/false);
  if (copy && numBytes)
    std::memcpy(copy->data(), data(), numBytes);
  return copy;
}

bool HostTensor::operator==(const HostTensor &other) const {
  return elementType == other.elementType && dims == other.dims &&
         numBytes == other.numBytes &&
         (numBytes == 0 || std::memcmp(data(), other.data(), numBytes) == 0);
}

std::string HostTensor::typeString() const { return formatType(view()); }
std::string HostTensor::valuesString() const { return formatValues(view()); }
std::string HostTensor::toString() const {
  return typeString() + " = " + valuesString();
}
