//===- TensorLiterals.cpp - tensor values as text, both ways --------------===//
//
// Printing follows MLIR's dense-literal syntax, and parsing accepts it, so
// nx-runner's --input and its printed results round-trip.
//
//===----------------------------------------------------------------------===//

#include "nx/Runner/Runner.h"

#include "nx/Dialect/Nx/IR/RuntimeTypes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <complex>
#include <cstring>

using namespace mlir;
using namespace mlir::nx::runner;
using llvm::createStringError;
using llvm::Expected;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Formatting
//===----------------------------------------------------------------------===//

std::string mlir::nx::runner::formatType(const nxrt_tensor_t &view) {
  std::string s = "tensor<";
  for (int32_t i = 0; i < view.rank; ++i)
    s += std::to_string(view.dims[i]) + "x";
  s += nxrt_dtype_name(view.dtype);
  s += ">";
  return s;
}

template <typename T>
static void appendFloat(std::string &out, T value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (ec != std::errc()) {
    out += "?";
    return;
  }
  out.append(buffer, end);
}

static void appendHalf(std::string &out, uint16_t bits,
                       const llvm::fltSemantics &semantics) {
  llvm::APFloat value(semantics, llvm::APInt(16, bits));
  appendFloat(out, value.convertToFloat());
}

static void appendElement(std::string &out, nxrt_dtype_t dtype,
                          const uint8_t *p) {
  auto load = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  switch (dtype) {
  case NXRT_PRED:
    out += *p ? "true" : "false";
    return;
  case NXRT_I8:
    out += std::to_string(load(int8_t{}));
    return;
  case NXRT_I16:
    out += std::to_string(load(int16_t{}));
    return;
  case NXRT_I32:
    out += std::to_string(load(int32_t{}));
    return;
  case NXRT_I64:
    out += std::to_string(load(int64_t{}));
    return;
  case NXRT_U8:
    out += std::to_string(load(uint8_t{}));
    return;
  case NXRT_U16:
    out += std::to_string(load(uint16_t{}));
    return;
  case NXRT_U32:
    out += std::to_string(load(uint32_t{}));
    return;
  case NXRT_U64:
    out += std::to_string(load(uint64_t{}));
    return;
  case NXRT_F16:
    appendHalf(out, load(uint16_t{}), llvm::APFloat::IEEEhalf());
    return;
  case NXRT_BF16:
    appendHalf(out, load(uint16_t{}), llvm::APFloat::BFloat());
    return;
  case NXRT_F32:
    appendFloat(out, load(float{}));
    return;
  case NXRT_F64:
    appendFloat(out, load(double{}));
    return;
  case NXRT_C64: {
    float re, im;
    std::memcpy(&re, p, 4);
    std::memcpy(&im, p + 4, 4);
    out += "(";
    appendFloat(out, re);
    out += ", ";
    appendFloat(out, im);
    out += ")";
    return;
  }
  case NXRT_C128: {
    double re, im;
    std::memcpy(&re, p, 8);
    std::memcpy(&im, p + 8, 8);
    out += "(";
    appendFloat(out, re);
    out += ", ";
    appendFloat(out, im);
    out += ")";
    return;
  }
  default:
    out += "?";
    return;
  }
}

static void formatDim(std::string &out, const nxrt_tensor_t &view,
                      int32_t dim, const uint8_t *&p, size_t elementSize) {
  if (dim == view.rank) {
    appendElement(out, view.dtype, p);
    p += elementSize;
    return;
  }
  out += "[";
  for (int64_t i = 0; i < view.dims[dim]; ++i) {
    if (i)
      out += ", ";
    formatDim(out, view, dim + 1, p, elementSize);
  }
  out += "]";
}

std::string mlir::nx::runner::formatValues(const nxrt_tensor_t &view) {
  size_t elementSize = nxrt_dtype_size(view.dtype);
  if (elementSize == 0 || (view.rank > 0 && !view.dims))
    return "<invalid tensor>";
  std::string out;
  const uint8_t *p = static_cast<const uint8_t *>(view.data);
  formatDim(out, view, 0, p, elementSize);
  return out;
}

//===----------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------===//

/// Appends ".0" to every decimal integer literal in `text` (not to hex
/// literals, which MLIR reads as bit patterns, nor to parts of floats).
static std::string addFractions(StringRef text) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    bool startsNumber = llvm::isDigit(c) &&
                        (i == 0 || !(llvm::isAlnum(text[i - 1]) ||
                                     text[i - 1] == '.' || text[i - 1] == '_'));
    if (!startsNumber) {
      out += c;
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() &&
           (llvm::isAlnum(text[j]) || text[j] == '.' ||
            ((text[j] == '-' || text[j] == '+') &&
             (text[j - 1] == 'e' || text[j - 1] == 'E'))))
      ++j;
    StringRef token = text.slice(i, j);
    out += token.str();
    if (llvm::all_of(token, llvm::isDigit))
      out += ".0";
    i = j;
  }
  return out;
}

Expected<HostTensor> HostTensor::parseLiteral(StringRef text,
                                              MLIRContext &context) {
  size_t colon = text.rfind(":tensor<");
  if (colon == StringRef::npos)
    colon = text.rfind(':');
  if (colon == StringRef::npos)
    return llvm::createStringError("expected VALUE:TYPE (e.g. '[1, 2]:tensor<2xf32>'), "
                     "got '" +
                     text + "'");
  StringRef valueText = text.take_front(colon).trim();
  StringRef typeText = text.drop_front(colon + 1).trim();

  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (!diagnostics.empty())
      diagnostics += "; ";
    diagnostics += diag.str();
    return success();
  });

  Type type = parseType(typeText, &context);
  if (!type)
    return llvm::createStringError("invalid type '" + typeText + "'" +
                     (diagnostics.empty() ? "" : ": " + diagnostics));
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || !tensorType.hasStaticShape())
    return llvm::createStringError("type '" + typeText +
                     "' is not a statically shaped ranked tensor type");
  nxrt_dtype_t dtype = getRuntimeDType(tensorType.getElementType());
  if (dtype == NXRT_DTYPE_INVALID)
    return llvm::createStringError("unsupported element type in '" + typeText + "'");

  // MLIR's dense<> syntax wants float literals for float elements; accept
  // integers there too ("[1, 2]:tensor<2xf32>") by giving them a fraction.
  std::string values = valueText.str();
  Type elementType = tensorType.getElementType();
  if (isa<FloatType>(elementType) ||
      (isa<ComplexType>(elementType) &&
       isa<FloatType>(cast<ComplexType>(elementType).getElementType())))
    values = addFractions(values);
  std::string attrText = "dense<" + values + "> : " + typeText.str();
  diagnostics.clear();
  Attribute attr = parseAttribute(attrText, &context);
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense)
    return llvm::createStringError("invalid value '" + valueText + "' for " + typeText +
                     (diagnostics.empty() ? "" : ": " + diagnostics));

  HostTensor tensor(dtype, tensorType.getShape());
  uint8_t *out = static_cast<uint8_t *>(tensor.data());
  size_t elementSize = nxrt_dtype_size(dtype);
  if (dtype == NXRT_C64 || dtype == NXRT_C128) {
    for (std::complex<llvm::APFloat> v :
         dense.getValues<std::complex<llvm::APFloat>>()) {
      if (dtype == NXRT_C64) {
        float parts[2] = {v.real().convertToFloat(),
                          v.imag().convertToFloat()};
        std::memcpy(out, parts, 8);
      } else {
        double parts[2] = {v.real().convertToDouble(),
                           v.imag().convertToDouble()};
        std::memcpy(out, parts, 16);
      }
      out += elementSize;
    }
  } else if (isa<FloatType>(tensorType.getElementType())) {
    for (llvm::APFloat v : dense.getValues<llvm::APFloat>()) {
      uint64_t bits = v.bitcastToAPInt().getZExtValue();
      std::memcpy(out, &bits, elementSize); // little-endian host
      out += elementSize;
    }
  } else {
    for (llvm::APInt v : dense.getValues<llvm::APInt>()) {
      uint64_t bits = v.getZExtValue();
      if (dtype == NXRT_PRED)
        *out = bits ? 1 : 0;
      else
        std::memcpy(out, &bits, elementSize); // little-endian host
      out += elementSize;
    }
  }
  return tensor;
}
