//===- AttributeEncoding.cpp - typed attributes for the runtime
//------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "AttributeEncoding.h"

#include "nxrt/nxrt.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/APInt.h"
#include "llvm/Support/Endian.h"

#include <algorithm>
#include <cstring>

using namespace mlir;

namespace {

class Encoder {
public:
  explicit Encoder(Location loc) : loc(loc) {}

  LogicalResult encode(Attribute attr, StringRef path) {
    if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
      tag(NXRT_ATTR_DICT);
      u32(dict.size());
      for (NamedAttribute entry : dict) {
        string(entry.getName().getValue());
        if (failed(encode(entry.getValue(),
                          (path + "." + entry.getName().getValue()).str())))
          return failure();
      }
      return success();
    }
    if (isa<UnitAttr>(attr))
      return boolean(true);
    if (auto boolAttr = dyn_cast<BoolAttr>(attr))
      return boolean(boolAttr.getValue());
    if (auto integer = dyn_cast<IntegerAttr>(attr))
      return encodeInteger(integer.getType(), integer.getValue());
    if (auto floating = dyn_cast<FloatAttr>(attr))
      return encodeFloat(floating.getType(), floating.getValue(), path);
    if (auto str = dyn_cast<StringAttr>(attr)) {
      tag(NXRT_ATTR_STRING);
      string(str.getValue());
      return success();
    }
    if (auto symbol = dyn_cast<FlatSymbolRefAttr>(attr)) {
      tag(NXRT_ATTR_STRING);
      string(symbol.getValue());
      return success();
    }
    if (auto array = dyn_cast<ArrayAttr>(attr)) {
      tag(NXRT_ATTR_ARRAY);
      u32(array.size());
      for (auto [index, element] : llvm::enumerate(array))
        if (failed(encode(element, (path + "[" + Twine(index) + "]").str())))
          return failure();
      return success();
    }
    // Dense arrays (array<i8: ...>, array<f32: ...>) are arrays of their
    // element type.
    if (auto dense = dyn_cast<DenseArrayAttr>(attr)) {
      Type elementType = dense.getElementType();
      unsigned width = elementType.getIntOrFloatBitWidth();
      ArrayRef<char> raw = dense.getRawData();
      tag(NXRT_ATTR_ARRAY);
      u32(dense.size());
      for (int64_t index = 0; index < dense.size(); ++index) {
        // Elements are stored in host byte order, i1 as one byte.
        unsigned bytes = std::max(1u, width / 8);
        APInt value(std::max(8u, width), 0);
        llvm::LoadIntFromMemory(value,
                                reinterpret_cast<const uint8_t *>(raw.data()) +
                                    index * bytes,
                                bytes);
        value = value.trunc(width);
        LogicalResult encoded =
            isa<FloatType>(elementType)
                ? encodeFloat(
                      elementType,
                      APFloat(cast<FloatType>(elementType).getFloatSemantics(),
                              value),
                      path)
                : encodeInteger(elementType, value);
        if (failed(encoded))
          return failure();
      }
      return success();
    }
    if (auto elements = dyn_cast<DenseIntOrFPElementsAttr>(attr)) {
      Type elementType = elements.getElementType();
      tag(NXRT_ATTR_ARRAY);
      u32(elements.getNumElements());
      if (isa<FloatType>(elementType)) {
        for (const APFloat &value : elements.getValues<APFloat>())
          if (failed(encodeFloat(elementType, value, path)))
            return failure();
        return success();
      }
      if (!elementType.isIntOrIndex())
        return emitError(loc)
               << "cannot pass attribute '" << path << "' = " << attr
               << " to the host: its elements are not "
                  "integers or floats";
      for (const APInt &value : elements.getValues<APInt>())
        if (failed(encodeInteger(elementType, value)))
          return failure();
      return success();
    }
    return emitError(loc) << "cannot pass attribute '" << path << "' = " << attr
                          << " to the host: expected an integer, float, "
                             "string, symbol, array or dictionary";
  }

  std::string take() { return std::move(bytes); }

private:
  /// A signless i64 is I64 and a signless i1 BOOL, as before typed
  /// integers existed; every other integer type keeps its width and
  /// signedness (INT). `index` is a signless i64.
  LogicalResult encodeInteger(Type type, const APInt &value) {
    if (type.isSignlessInteger(1))
      return boolean(value.getBoolValue());
    if (value.getBitWidth() > 64)
      return emitError(loc) << "cannot pass a " << value.getBitWidth()
                            << "-bit integer to the host: at most 64 bits";
    bool isUnsigned = type.isUnsignedInteger();
    uint64_t word = isUnsigned ? value.getZExtValue()
                               : static_cast<uint64_t>(value.getSExtValue());
    if (type.isIndex() || type.isSignlessInteger(64)) {
      tag(NXRT_ATTR_I64);
      append<uint64_t>(word);
      return success();
    }
    tag(NXRT_ATTR_INT);
    bytes.push_back(static_cast<char>(isUnsigned ? NXRT_UNSIGNED
                                      : type.isSignedInteger()
                                          ? NXRT_SIGNED
                                          : NXRT_SIGNLESS));
    bytes.push_back(static_cast<char>(value.getBitWidth()));
    append<uint64_t>(word);
    return success();
  }

  /// f64 is F64; f32, f16 and bf16 are FLOAT with their dtype (their value
  /// widens to f64 exactly). Other float types have no host dtype.
  LogicalResult encodeFloat(Type type, const APFloat &value, StringRef path) {
    nxrt_dtype_t dtype = type.isF64()    ? NXRT_F64
                         : type.isF32()  ? NXRT_F32
                         : type.isF16()  ? NXRT_F16
                         : type.isBF16() ? NXRT_BF16
                                         : NXRT_DTYPE_INVALID;
    if (dtype == NXRT_DTYPE_INVALID)
      return emitError(loc)
             << "cannot pass attribute '" << path << "' of type " << type
             << " to the host: floats must be f16, bf16, f32 "
                "or f64";
    double wide = value.convertToDouble();
    if (dtype == NXRT_F64)
      return f64(wide);
    tag(NXRT_ATTR_FLOAT);
    bytes.push_back(static_cast<char>(dtype));
    uint64_t bits;
    std::memcpy(&bits, &wide, sizeof(bits));
    append<uint64_t>(bits);
    return success();
  }

  LogicalResult boolean(bool value) {
    tag(NXRT_ATTR_BOOL);
    bytes.push_back(value ? 1 : 0);
    return success();
  }

  LogicalResult f64(double value) {
    tag(NXRT_ATTR_F64);
    uint64_t bits;
    static_assert(sizeof(bits) == sizeof(value));
    std::memcpy(&bits, &value, sizeof(bits));
    append<uint64_t>(bits);
    return success();
  }

  void tag(nxrt_attr_kind_t kind) { bytes.push_back(static_cast<char>(kind)); }
  void u32(size_t value) { append<uint32_t>(static_cast<uint32_t>(value)); }
  void string(StringRef value) {
    u32(value.size());
    bytes.append(value.begin(), value.end());
  }

  template <typename T> void append(T value) {
    char buffer[sizeof(T)];
    llvm::support::endian::write<T, llvm::endianness::little>(buffer, value);
    bytes.append(buffer, sizeof(T));
  }

  Location loc;
  std::string bytes;
};

} // namespace

FailureOr<std::string> nx::encodeHostAttributes(DictionaryAttr dict,
                                                Location loc) {
  // The empty dictionary is the empty blob (see nxrt.h).
  if (dict.empty())
    return std::string();
  Encoder encoder(loc);
  if (failed(encoder.encode(dict, "attrs")))
    return failure();
  return encoder.take();
}
