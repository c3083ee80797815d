//===- TensorLiteralParser.cpp - `VALUE:TYPE` tensor literals -------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// HostTensor::parseLiteral reads what nx-runner and nxrt-run accept as
// --input: a ranked tensor TYPE in MLIR's spelling and a VALUE in the syntax
// of MLIR's dense<...> attribute. It is written by hand rather than on
// MLIR's parser so that nxrt-run needs no MLIR; both runners use it, so they
// accept the same literals. Beyond dense<...>, integers are accepted for
// float elements ("[1, 2]:tensor<2xf32>") and inf / nan are spelled out.
//
//===----------------------------------------------------------------------===//

#include "nxhost/HostTensor.h"

#include "Elements.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <cctype>
#include <cstring>
#include <functional>
#include <optional>

using namespace nxhost;
using llvm::Expected;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// TYPE
//===----------------------------------------------------------------------===//

/// The dtype whose MLIR spelling is `name`; signed integers (si8...) share
/// the signless ones' storage.
static nxrt_dtype_t elementDType(StringRef name) {
  if (name.starts_with("si"))
    name = name.drop_front();
#define NXRT_DTYPE(dtype, bytes, mlir, npy, kind, width, ctype)                \
  if (name == mlir)                                                            \
    return dtype;
#include "nxrt/nxrt_dtypes.def"
  return NXRT_DTYPE_INVALID;
}

namespace {
struct ParsedType {
  nxrt_dtype_t dtype;
  llvm::SmallVector<int64_t, 4> shape;
};
} // namespace

/// Dimensions a literal's type may have: its values nest as deep, and
/// parsing them takes a stack frame a level. A rank-15000 literal fit on a
/// command line and overflowed the stack; larger ranks come in .npy files.
static constexpr size_t kMaxLiteralRank = 256;

static llvm::Error tooManyDimensions(size_t rank) {
  return llvm::createStringError(
      "a literal's type has at most " + llvm::Twine(kMaxLiteralRank) +
      " dimensions, got " + llvm::Twine(rank) + " (use a .npy file)");
}

static Expected<ParsedType> parseTensorType(StringRef text) {
  auto invalid = [&](const llvm::Twine &why) {
    return llvm::createStringError("invalid type '" + text + "': " + why);
  };
  StringRef body = text;
  if (!body.consume_front("tensor<") || !body.consume_back(">"))
    return invalid("expected tensor<DIMSxELEMENT>, e.g. tensor<2x3xf32>");
  ParsedType type;
  // Dimensions are "<int>x" or "?x"; the element type ("complex<f32>" has no
  // 'x' before its '<') is what follows the last of them.
  while (!body.empty() && (llvm::isDigit(body[0]) || body[0] == '?')) {
    size_t x = body.find('x');
    if (x == StringRef::npos)
      break;
    StringRef dim = body.take_front(x);
    if (dim == "?")
      return llvm::createStringError(
          "type '" + text + "' is not a statically shaped ranked tensor type");
    int64_t size;
    if (dim.getAsInteger(10, size) || size < 0)
      return invalid("bad dimension '" + dim + "'");
    type.shape.push_back(size);
    body = body.drop_front(x + 1);
  }
  if (type.shape.size() > kMaxLiteralRank)
    return tooManyDimensions(type.shape.size());
  type.dtype = elementDType(body.trim());
  if (type.dtype == NXRT_DTYPE_INVALID)
    return invalid("unknown element type '" + body +
                   "' (expected i1, i8-i64, si8-si64, ui8-ui64, f16, bf16, "
                   "f32, f64, complex<f32> or complex<f64>)");
  return type;
}

//===----------------------------------------------------------------------===//
// VALUE
//===----------------------------------------------------------------------===//

namespace {

/// Recursive-descent parser of a dense<...> body into a tensor's bytes.
class ValueParser {
public:
  ValueParser(StringRef text, const ParsedType &type, uint8_t *out)
      : text(text), type(type), out(out),
        elementSize(nxrt_dtype_size(type.dtype)) {}

  /// Parses the whole text: a nested list matching the shape, or a single
  /// element splatted over it.
  llvm::Error parse() {
    skipSpace();
    // The tensor exists, so its byte size is valid; its dimensions'
    // product may still pass INT64_MAX on the way to a zero.
    size_t count =
        *HostTensor::byteSizeOf(type.dtype, type.shape) / elementSize;
    // An empty tensor's value may be nothing (MLIR's `dense<>`) or `[]`
    // (how the runners and NumPy print it), whatever its shape.
    if (count == 0 &&
        (pos == text.size() || text.drop_front(pos).rtrim() == "[]"))
      return llvm::Error::success();
    if (peek() != '[' || type.shape.empty()) {
      uint8_t *first = out;
      if (auto err = parseElement())
        return err;
      for (size_t i = 1; i < count; ++i)
        std::memcpy(first + i * elementSize, first, elementSize);
    } else if (auto err = parseList(0)) {
      return err;
    }
    skipSpace();
    if (pos != text.size())
      return error("unexpected '" + text.drop_front(pos) + "' after the value");
    return llvm::Error::success();
  }

private:
  char peek() const { return pos < text.size() ? text[pos] : '\0'; }
  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (peek() != c)
      return false;
    ++pos;
    return true;
  }
  llvm::Error error(const llvm::Twine &message) const {
    return llvm::createStringError(message + " at column " +
                                   llvm::Twine(pos + 1));
  }
  llvm::Error expected(StringRef what) const {
    StringRef found = text.drop_front(pos).take_front(12);
    return error("expected " + what + ", found " +
                 (found.empty() ? "the end" : "'" + found + "'"));
  }

  /// `[e, e, ...]` with shape[dim] elements, each a list for the next
  /// dimension or an element at the innermost one.
  llvm::Error parseList(size_t dim) {
    if (!consume('['))
      return expected("'[' (dimension " + std::to_string(dim) + " of size " +
                      std::to_string(type.shape[dim]) + ")");
    size_t open = pos - 1;
    int64_t n = 0;
    skipSpace();
    if (peek() != ']') {
      do {
        skipSpace();
        if (n == type.shape[dim])
          return error("dimension " + llvm::Twine(dim) + " has more than " +
                       llvm::Twine(type.shape[dim]) + " element(s)");
        if (auto err = dim + 1 == type.shape.size() ? parseElement()
                                                    : parseList(dim + 1))
          return err;
        ++n;
      } while (consume(','));
    }
    if (!consume(']'))
      return expected("',' or ']'");
    if (n != type.shape[dim]) {
      pos = open;
      return error("dimension " + llvm::Twine(dim) + " has " + llvm::Twine(n) +
                   " element(s), expected " + llvm::Twine(type.shape[dim]));
    }
    return llvm::Error::success();
  }

  /// The text of one number: sign, digits, '.', exponent, hex digits, or
  /// the words inf / nan.
  StringRef numberToken() {
    skipSpace();
    size_t start = pos;
    if (peek() == '-' || peek() == '+')
      ++pos;
    while (pos < text.size() &&
           (llvm::isAlnum(text[pos]) || text[pos] == '.' ||
            ((text[pos] == '-' || text[pos] == '+') &&
             (text[pos - 1] == 'e' || text[pos - 1] == 'E') &&
             !text.slice(start, pos).contains_insensitive("0x"))))
      ++pos;
    return text.slice(start, pos);
  }

  llvm::Error parseElement() {
    if (getElementKind(type.dtype) == ElementKind::Complex) {
      if (!consume('('))
        return expected("a complex value '(re, im)'");
      const llvm::fltSemantics &semantics = *getFloatSemantics(type.dtype);
      size_t half = elementSize / 2;
      if (auto err = parseFloat(semantics, out))
        return err;
      if (!consume(','))
        return expected("',' between the real and imaginary parts");
      if (auto err = parseFloat(semantics, out + half))
        return err;
      if (!consume(')'))
        return expected("')'");
      out += elementSize;
      return llvm::Error::success();
    }
    if (const llvm::fltSemantics *semantics = getFloatSemantics(type.dtype))
      return store(parseFloat(*semantics, out));
    return store(parseInteger());
  }

  llvm::Error store(llvm::Error err) {
    if (err)
      return err;
    out += elementSize;
    return llvm::Error::success();
  }

  /// A float element: a decimal number (integers included), inf / nan with
  /// an optional sign, or a hexadecimal bit pattern as in MLIR.
  llvm::Error parseFloat(const llvm::fltSemantics &semantics, uint8_t *dst) {
    size_t start = (skipSpace(), pos);
    StringRef token = numberToken();
    if (token.empty())
      return expected("a floating-point number");
    unsigned bits = llvm::APFloat::getSizeInBits(semantics);
    StringRef magnitude = token;
    bool negative = magnitude.consume_front("-");
    if (!negative)
      magnitude.consume_front("+");
    uint64_t pattern;
    if (magnitude.starts_with_insensitive("0x")) {
      if (negative || magnitude.drop_front(2).getAsInteger(16, pattern) ||
          (bits < 64 && pattern >> bits)) {
        pos = start;
        return error("invalid " + llvm::Twine(bits) +
                     "-bit hexadecimal float pattern '" + token + "'");
      }
    } else {
      llvm::APFloat value(semantics);
      std::string spelled = magnitude.lower();
      if (spelled == "inf" || spelled == "infinity") {
        value = llvm::APFloat::getInf(semantics, negative);
      } else if (spelled == "nan") {
        value = llvm::APFloat::getNaN(semantics, negative);
      } else {
        bool wellFormed = !magnitude.empty() && llvm::isDigit(magnitude[0]);
        auto status = wellFormed
                          ? value.convertFromString(
                                token, llvm::APFloat::rmNearestTiesToEven)
                          : llvm::createStringError("not a number");
        if (!status) {
          llvm::consumeError(status.takeError());
          pos = start;
          return expected("a floating-point number");
        }
      }
      pattern = value.bitcastToAPInt().getZExtValue();
    }
    std::memcpy(dst, &pattern, bits / 8); // little-endian host
    return llvm::Error::success();
  }

  /// An integer element: decimal or hexadecimal, optionally negative, in
  /// the range of the type (signless types take either interpretation, as
  /// MLIR does); true / false for i1.
  llvm::Error parseInteger() {
    size_t start = (skipSpace(), pos);
    StringRef token = numberToken();
    nxrt_dtype_t dtype = type.dtype;
    if (dtype == NXRT_PRED && (token == "true" || token == "false")) {
      *out = token == "true";
      return llvm::Error::success();
    }
    StringRef magnitude = token;
    bool negative = magnitude.consume_front("-");
    uint64_t value;
    if (magnitude.empty() || !llvm::isDigit(magnitude[0]) ||
        magnitude.getAsInteger(0, value)) {
      pos = start;
      return expected(dtype == NXRT_PRED ? "true, false, 0 or 1"
                                         : "an integer");
    }
    bool isUnsigned = dtype == NXRT_U8 || dtype == NXRT_U16 ||
                      dtype == NXRT_U32 || dtype == NXRT_U64;
    unsigned bits = dtype == NXRT_PRED ? 1 : elementSize * 8;
    uint64_t unsignedMax = bits == 64 ? ~0ull : (1ull << bits) - 1;
    // Signless: from the signed minimum to the unsigned maximum.
    uint64_t negativeMax = bits == 1 ? 0 : 1ull << (bits - 1);
    bool inRange =
        negative ? !isUnsigned && value <= negativeMax : value <= unsignedMax;
    if (!inRange) {
      pos = start;
      return error("integer " + token + " does not fit in " +
                   nxrt_dtype_name(dtype));
    }
    uint64_t bitsValue = negative ? 0 - value : value;
    std::memcpy(out, &bitsValue, elementSize); // little-endian host
    return llvm::Error::success();
  }

  StringRef text;
  const ParsedType &type;
  uint8_t *out;
  size_t elementSize;
  size_t pos = 0;
};

} // namespace

/// IREE's form of a tensor on the command line, SHAPExTYPE=VALUES
/// (`2x2xf32=1 2 3 4`, `f32=5`, brackets allowed and ignored, one value a
/// splat), as VALUE:TYPE; nothing when `text` is not of that form, and an
/// error when its count of values fits neither or its rank is too large.
static Expected<std::optional<std::string>> fromIreeForm(StringRef text) {
  auto [typeText, values] = text.split('=');
  if (values.data() == nullptr || typeText.contains(':') ||
      typeText.contains('<') || typeText.empty())
    return std::nullopt;
  llvm::SmallVector<StringRef> parts;
  typeText.trim().split(parts, 'x');
  llvm::SmallVector<int64_t> shape;
  for (StringRef dim : llvm::ArrayRef(parts).drop_back()) {
    int64_t size;
    if (dim.getAsInteger(10, size) || size < 0)
      return std::nullopt;
    shape.push_back(size);
  }
  if (shape.size() > kMaxLiteralRank)
    return tooManyDimensions(shape.size());
  llvm::SmallVector<std::string> tokens;
  std::string token;
  for (char c : values.str() + " ") {
    if (c == '[' || c == ']' || c == ',' || std::isspace(c)) {
      if (!token.empty())
        tokens.push_back(std::move(token));
      token.clear();
      continue;
    }
    token += c;
  }
  std::string type = "tensor<" + typeText.trim().str() + ">";
  if (tokens.size() == 1)
    return tokens.front() + ":" + type;
  auto countMismatch = [&] {
    return llvm::createStringError(
        "'" + text +
        "' has a number of values that is neither 1 nor the shape's element "
        "count");
  };
  // A count past INT64_MAX matches no list of values.
  int64_t elements = 1;
  for (int64_t size : shape)
    if (llvm::MulOverflow(elements, size, elements))
      return countMismatch();
  if (static_cast<int64_t>(tokens.size()) != elements)
    return countMismatch();
  // No values: MLIR's `dense<>` form, which any empty tensor takes, where
  // nesting lists would make one per element of the other dimensions.
  if (elements == 0)
    return ":" + type;
  // Nested as the shape says.
  size_t next = 0;
  std::function<std::string(size_t)> nest = [&](size_t dim) -> std::string {
    if (dim == shape.size())
      return tokens[next++];
    std::string out = "[";
    for (int64_t i = 0; i < shape[dim]; ++i)
      out += (i ? ", " : "") + nest(dim + 1);
    return out + "]";
  };
  return nest(0) + ":" + type;
}

Expected<HostTensor> HostTensor::parseLiteral(StringRef text) {
  if (!text.contains(":tensor<")) {
    Expected<std::optional<std::string>> converted = fromIreeForm(text);
    if (!converted)
      return converted.takeError();
    if (*converted)
      return parseLiteral(**converted);
  }
  size_t colon = text.rfind(":tensor<");
  if (colon == StringRef::npos)
    colon = text.rfind(':');
  if (colon == StringRef::npos)
    return llvm::createStringError(
        "expected VALUE:TYPE (e.g. '[1, 2]:tensor<2xf32>'), got '" + text +
        "'");
  StringRef valueText = text.take_front(colon).trim();
  StringRef typeText = text.drop_front(colon + 1).trim();
  auto type = parseTensorType(typeText);
  if (!type)
    return type.takeError();
  auto tensor = HostTensor::create(type->dtype, type->shape);
  if (!tensor)
    return tensor.takeError();
  ValueParser parser(valueText, *type, static_cast<uint8_t *>(tensor->data()));
  if (auto err = parser.parse())
    return llvm::createStringError("invalid value '" + valueText + "' for " +
                                   typeText + ": " +
                                   llvm::toString(std::move(err)));
  return tensor;
}
