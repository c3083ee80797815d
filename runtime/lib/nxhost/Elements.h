//===- Elements.h - element values by the dtype table -----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Hosts print, parse and convert element values by their dtype's row in
// nxrt_dtypes.def (its kind, width and C type), not by a switch over the
// dtypes each: a type added to the table is handled everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef NXHOST_ELEMENTS_H
#define NXHOST_ELEMENTS_H

#include "nxrt/nxrt.h"

#include "llvm/ADT/APFloat.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>

namespace nxhost {

/// How an element type's values are written: the table's `kind`.
enum class ElementKind { Int, UInt, Float, BFloat, Complex };

/// The kind of `dtype`, or nullopt for a dtype not in the table.
inline std::optional<ElementKind> getElementKind(nxrt_dtype_t dtype) {
  switch (dtype) {
#define NXRT_DTYPE(dtype, bytes, mlir, npy, kind, width, ctype)                \
  case dtype:                                                                  \
    return ElementKind::kind;
#include "nxrt/nxrt_dtypes.def"
  default:
    return std::nullopt;
  }
}

/// Loads the element of type `dtype` at `element` as its C type and calls
/// `visit(kind, width, parts)`, `parts` a std::array of one value (two for a
/// Complex element: real and imaginary parts; f16 and bf16 as their bits).
/// Returns false, calling nothing, for a dtype not in the table.
template <typename Visitor>
bool visitElement(nxrt_dtype_t dtype, const void *element, Visitor &&visit) {
  switch (dtype) {
#define NXRT_DTYPE(dtype, bytes, mlir, npy, kind, width, ctype)                \
  case dtype: {                                                                \
    std::array<ctype, (bytes) / sizeof(ctype)> parts;                          \
    std::memcpy(parts.data(), element, bytes);                                 \
    visit(ElementKind::kind, width, parts);                                    \
    return true;                                                               \
  }
#include "nxrt/nxrt_dtypes.def"
  default:
    return false;
  }
}

/// The IEEE semantics of `width` bits (16, 32 or 64).
inline const llvm::fltSemantics *ieeeSemantics(int width) {
  return width == 16   ? &llvm::APFloat::IEEEhalf()
         : width == 32 ? &llvm::APFloat::IEEEsingle()
                       : &llvm::APFloat::IEEEdouble();
}

/// The semantics of a float element type (a Complex one's parts), or
/// nullptr for an integer or invalid one.
inline const llvm::fltSemantics *getFloatSemantics(nxrt_dtype_t dtype) {
  switch (dtype) {
#define NXRT_DTYPE(dtype, bytes, mlir, npy, kind, width, ctype)                \
  case dtype:                                                                  \
    if (ElementKind::kind == ElementKind::BFloat)                              \
      return &llvm::APFloat::BFloat();                                         \
    if (ElementKind::kind == ElementKind::Float ||                             \
        ElementKind::kind == ElementKind::Complex)                             \
      return ieeeSemantics(width);                                             \
    return nullptr;
#include "nxrt/nxrt_dtypes.def"
  default:
    return nullptr;
  }
}

/// The value of a 16-bit float (f16 or bf16, by `kind`) stored as `bits`.
inline float halfToFloat(ElementKind kind, uint16_t bits) {
  const llvm::fltSemantics &semantics = kind == ElementKind::BFloat
                                            ? llvm::APFloat::BFloat()
                                            : llvm::APFloat::IEEEhalf();
  return llvm::APFloat(semantics, llvm::APInt(16, bits)).convertToFloat();
}

} // namespace nxhost

#endif // NXHOST_ELEMENTS_H
