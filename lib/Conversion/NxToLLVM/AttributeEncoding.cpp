//===- AttributeEncoding.cpp - typed attributes for the runtime ------------===//

#include "AttributeEncoding.h"

#include "nxrt/nxrt.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Endian.h"

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
      return f64(floating.getValueAsDouble());
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
    if (auto dense = dyn_cast<DenseI64ArrayAttr>(attr))
      return integers(dense.asArrayRef());
    if (auto dense = dyn_cast<DenseI32ArrayAttr>(attr))
      return integers(dense.asArrayRef());
    if (auto dense = dyn_cast<DenseBoolArrayAttr>(attr)) {
      tag(NXRT_ATTR_ARRAY);
      u32(dense.size());
      for (bool value : dense.asArrayRef())
        (void)boolean(value);
      return success();
    }
    if (auto dense = dyn_cast<DenseF64ArrayAttr>(attr)) {
      tag(NXRT_ATTR_ARRAY);
      u32(dense.size());
      for (double value : dense.asArrayRef())
        (void)f64(value);
      return success();
    }
    if (auto dense = dyn_cast<DenseF32ArrayAttr>(attr)) {
      tag(NXRT_ATTR_ARRAY);
      u32(dense.size());
      for (float value : dense.asArrayRef())
        (void)f64(value);
      return success();
    }
    if (auto elements = dyn_cast<DenseIntOrFPElementsAttr>(attr)) {
      Type elementType = elements.getElementType();
      tag(NXRT_ATTR_ARRAY);
      u32(elements.getNumElements());
      if (isa<FloatType>(elementType)) {
        for (const APFloat &value : elements.getValues<APFloat>())
          (void)f64(value.convertToDouble());
        return success();
      }
      for (const APInt &value : elements.getValues<APInt>())
        if (failed(encodeInteger(elementType, value)))
          return failure();
      return success();
    }
    return emitError(loc) << "cannot pass attribute '" << path << "' = "
                          << attr
                          << " to the host: expected an integer, float, "
                             "string, symbol, array or dictionary";
  }

  std::string take() { return std::move(bytes); }

private:
  LogicalResult encodeInteger(Type type, const APInt &value) {
    if (type.isInteger(1))
      return boolean(value.getBoolValue());
    if (value.getBitWidth() > 64)
      return emitError(loc) << "cannot pass a " << value.getBitWidth()
                            << "-bit integer to the host: at most 64 bits";
    bool isUnsigned = type.isUnsignedInteger();
    int64_t word = isUnsigned ? static_cast<int64_t>(value.getZExtValue())
                              : value.getSExtValue();
    tag(NXRT_ATTR_I64);
    append<uint64_t>(static_cast<uint64_t>(word));
    return success();
  }

  template <typename T> LogicalResult integers(ArrayRef<T> values) {
    tag(NXRT_ATTR_ARRAY);
    u32(values.size());
    for (T value : values) {
      tag(NXRT_ATTR_I64);
      append<uint64_t>(static_cast<uint64_t>(static_cast<int64_t>(value)));
    }
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
