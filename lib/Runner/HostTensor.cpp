//===- HostTensor.cpp - owning host tensors, literals, .npy ----------------===//

#include "nx/Runner/Runner.h"

#include "nx/Conversion/NxToLLVM/RuntimeTypes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <complex>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::nx::runner;
using llvm::createStringError;
using llvm::Expected;
using llvm::StringRef;

static llvm::Error makeError(const llvm::Twine &message) {
  return createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// dtypes
//===----------------------------------------------------------------------===//

nxrt_dtype_t mlir::nx::runner::getDType(Type type) {
  return getRuntimeDType(type);
}

//===----------------------------------------------------------------------===//
// HostTensor basics
//===----------------------------------------------------------------------===//

void HostTensor::FreeDeleter::operator()(void *p) const { std::free(p); }

static bool computeByteSize(nxrt_dtype_t dtype, llvm::ArrayRef<int64_t> shape,
                            size_t &bytes) {
  size_t size = nxrt_dtype_size(dtype);
  if (size == 0)
    return false;
  for (int64_t dim : shape) {
    if (dim < 0)
      return false;
    if (dim != 0 && size > SIZE_MAX / static_cast<size_t>(dim))
      return false;
    size *= static_cast<size_t>(dim);
  }
  bytes = size;
  return true;
}

HostTensor::HostTensor(nxrt_dtype_t dtype, llvm::ArrayRef<int64_t> shape)
    : dtype_(dtype), shape_(shape.begin(), shape.end()) {
  if (!computeByteSize(dtype, shape, size_)) {
    dtype_ = NXRT_DTYPE_INVALID;
    shape_.clear();
    size_ = 0;
    return;
  }
  size_t allocated = (size_ + 63) / 64 * 64;
  if (allocated == 0)
    allocated = 64;
  void *p = std::aligned_alloc(64, allocated);
  if (!p) {
    llvm::report_bad_alloc_error("nx-runner: out of memory");
  }
  std::memset(p, 0, allocated);
  data_.reset(static_cast<uint8_t *>(p));
}

Expected<HostTensor> HostTensor::create(nxrt_dtype_t dtype,
                                        llvm::ArrayRef<int64_t> shape) {
  size_t bytes;
  if (!computeByteSize(dtype, shape, bytes))
    return makeError("invalid tensor: dtype " +
                     StringRef(nxrt_dtype_name(dtype)) + ", shape [" +
                     llvm::join(llvm::map_range(shape,
                                                [](int64_t d) {
                                                  return std::to_string(d);
                                                }),
                                ", ") +
                     "]");
  return HostTensor(dtype, shape);
}

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape_)
    n *= d;
  return n;
}

nxrt_tensor_t HostTensor::view() const {
  nxrt_tensor_t v;
  v.dtype = dtype_;
  v.rank = static_cast<int32_t>(shape_.size());
  v.dims = shape_.data();
  v.data = const_cast<uint8_t *>(data_.get());
  return v;
}

HostTensor HostTensor::clone() const {
  HostTensor copy(dtype_, shape_);
  if (size_)
    std::memcpy(copy.data(), data(), size_);
  return copy;
}

bool HostTensor::operator==(const HostTensor &other) const {
  return dtype_ == other.dtype_ && shape_ == other.shape_ &&
         size_ == other.size_ &&
         (size_ == 0 || std::memcmp(data(), other.data(), size_) == 0);
}

std::string HostTensor::typeString() const { return formatType(view()); }
std::string HostTensor::valuesString() const { return formatValues(view()); }
std::string HostTensor::toString() const {
  return typeString() + " = " + valuesString();
}

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
    return makeError("expected VALUE:TYPE (e.g. '[1, 2]:tensor<2xf32>'), "
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
    return makeError("invalid type '" + typeText + "'" +
                     (diagnostics.empty() ? "" : ": " + diagnostics));
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || !tensorType.hasStaticShape())
    return makeError("type '" + typeText +
                     "' is not a statically shaped ranked tensor type");
  nxrt_dtype_t dtype = getDType(tensorType.getElementType());
  if (dtype == NXRT_DTYPE_INVALID)
    return makeError("unsupported element type in '" + typeText + "'");

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
    return makeError("invalid value '" + valueText + "' for " + typeText +
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

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

namespace {
struct NpyType {
  const char *descr;
  nxrt_dtype_t dtype;
};
} // namespace

static const NpyType kNpyTypes[] = {
    {"|b1", NXRT_PRED}, {"|i1", NXRT_I8},   {"<i2", NXRT_I16},
    {"<i4", NXRT_I32},  {"<i8", NXRT_I64},  {"|u1", NXRT_U8},
    {"<u2", NXRT_U16},  {"<u4", NXRT_U32},  {"<u8", NXRT_U64},
    {"<f2", NXRT_F16},  {"<f4", NXRT_F32},  {"<f8", NXRT_F64},
    {"<c8", NXRT_C64},  {"<c16", NXRT_C128},
};

static nxrt_dtype_t npyDType(StringRef descr) {
  // Single-byte types may be written with any byte-order character.
  if (descr.size() == 3 && (descr[0] == '<' || descr[0] == '=') &&
      (descr[1] == 'i' || descr[1] == 'u' || descr[1] == 'b') &&
      descr[2] == '1')
    descr = descr.drop_front();
  for (const NpyType &t : kNpyTypes) {
    StringRef d = t.descr;
    if (descr == d || (d[0] == '|' && descr == d.drop_front()) ||
        (d[0] == '<' && descr.size() == d.size() && descr[0] == '=' &&
         descr.drop_front() == d.drop_front()))
      return t.dtype;
  }
  return NXRT_DTYPE_INVALID;
}

static const char *npyDescr(nxrt_dtype_t dtype) {
  for (const NpyType &t : kNpyTypes)
    if (t.dtype == dtype)
      return t.descr;
  return nullptr;
}

/// Value of `'key': <value>` in a .npy header dict, up to the next top-level
/// ',' or '}' (tuples are kept whole).
static std::optional<StringRef> npyHeaderField(StringRef header,
                                               StringRef key) {
  std::string quoted1 = ("'" + key + "'").str();
  std::string quoted2 = ("\"" + key + "\"").str();
  size_t pos = header.find(quoted1);
  size_t keyLen = quoted1.size();
  if (pos == StringRef::npos) {
    pos = header.find(quoted2);
    keyLen = quoted2.size();
  }
  if (pos == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(pos + keyLen).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  int depth = 0;
  size_t i = 0;
  for (; i < rest.size(); ++i) {
    char c = rest[i];
    if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']')
      --depth;
    else if ((c == ',' || c == '}') && depth == 0)
      break;
  }
  return rest.take_front(i).trim();
}

Expected<HostTensor> HostTensor::readNpy(StringRef path) {
  auto bufferOr = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!bufferOr)
    return makeError("cannot read '" + path +
                     "': " + bufferOr.getError().message());
  StringRef bytes = (*bufferOr)->getBuffer();
  auto bad = [&](const llvm::Twine &why) {
    return makeError("'" + path + "' is not a valid .npy file: " + why);
  };
  if (bytes.size() < 10 || !bytes.starts_with("\x93NUMPY"))
    return bad("bad magic");
  uint8_t major = bytes[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = llvm::support::endian::read16le(bytes.data() + 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return bad("truncated header");
    headerLen = llvm::support::endian::read32le(bytes.data() + 8);
    headerStart = 12;
  } else {
    return bad("unsupported version " + llvm::Twine(major));
  }
  if (headerStart + headerLen > bytes.size())
    return bad("truncated header");
  StringRef header = bytes.substr(headerStart, headerLen);
  auto descr = npyHeaderField(header, "descr");
  auto fortran = npyHeaderField(header, "fortran_order");
  auto shapeText = npyHeaderField(header, "shape");
  if (!descr || !fortran || !shapeText)
    return bad("missing descr, fortran_order or shape");
  StringRef d = descr->trim("'\"");
  nxrt_dtype_t dtype = npyDType(d);
  if (dtype == NXRT_DTYPE_INVALID)
    return makeError("'" + path + "': unsupported .npy dtype '" + d + "'");
  if (*fortran != "False")
    return makeError("'" + path +
                     "': Fortran-order .npy files are not supported");
  StringRef s = *shapeText;
  if (!s.consume_front("(") || !s.consume_back(")"))
    return bad("malformed shape '" + *shapeText + "'");
  llvm::SmallVector<int64_t, 4> shape;
  llvm::SmallVector<StringRef, 4> parts;
  s.split(parts, ',');
  for (StringRef part : parts) {
    part = part.trim();
    if (part.empty())
      continue;
    int64_t dim;
    if (part.getAsInteger(10, dim) || dim < 0)
      return bad("malformed shape '" + *shapeText + "'");
    shape.push_back(dim);
  }
  auto tensor = HostTensor::create(dtype, shape);
  if (!tensor)
    return tensor.takeError();
  size_t dataStart = headerStart + headerLen;
  if (bytes.size() - dataStart != tensor->byteSize())
    return bad("expected " + llvm::Twine(tensor->byteSize()) +
               " bytes of data, found " + llvm::Twine(bytes.size() - dataStart));
  if (tensor->byteSize())
    std::memcpy(tensor->data(), bytes.data() + dataStart, tensor->byteSize());
  if (dtype == NXRT_PRED) {
    for (uint8_t &b : llvm::MutableArrayRef<uint8_t>(
             static_cast<uint8_t *>(tensor->data()), tensor->byteSize()))
      b = b ? 1 : 0;
  }
  return std::move(*tensor);
}

llvm::Error HostTensor::writeNpy(StringRef path) const {
  const char *descr = npyDescr(dtype_);
  if (!descr)
    return makeError("cannot write a " + llvm::Twine(nxrt_dtype_name(dtype_)) +
                     " tensor to .npy (no NumPy dtype)");
  std::string header = "{'descr': '" + std::string(descr) +
                       "', 'fortran_order': False, 'shape': (";
  // "()", "(4,)", "(2, 3)".
  for (size_t i = 0; i < shape_.size(); ++i)
    header += (i ? ", " : "") + std::to_string(shape_[i]);
  if (shape_.size() == 1)
    header += ",";
  header += "), }";
  // Pad with spaces so that magic + len + header + '\n' is a multiple of 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError("cannot write '" + path + "': " + ec.message());
  os << "\x93NUMPY" << '\x01' << '\x00';
  char len[2];
  llvm::support::endian::write16le(len, static_cast<uint16_t>(header.size()));
  os.write(len, 2);
  os << header;
  if (size_)
    os.write(reinterpret_cast<const char *>(data()), size_);
  os.close();
  if (os.has_error())
    return makeError("cannot write '" + path + "': " + os.error().message());
  return llvm::Error::success();
}
