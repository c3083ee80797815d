//===- NpyFiles.cpp - HostTensor to and from NumPy .npy files -------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nxhost/HostTensor.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace nxhost;
using llvm::createStringError;
using llvm::Expected;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

namespace {
struct NpyType {
  const char *descr;
  nxrt_dtype_t dtype;
};
} // namespace

// Types NumPy has no descriptor for (bf16) have an empty one, which no
// header matches.
static const NpyType kNpyTypes[] = {
#define NXRT_DTYPE(dtype, bytes, mlir, npy, kind, width, ctype) {npy, dtype},
#include "nxrt/nxrt_dtypes.def"
};

static nxrt_dtype_t npyDType(StringRef descr) {
  // Single-byte types may be written with any byte-order character.
  if (descr.size() == 3 && (descr[0] == '<' || descr[0] == '=') &&
      (descr[1] == 'i' || descr[1] == 'u' || descr[1] == 'b') &&
      descr[2] == '1')
    descr = descr.drop_front();
  for (const NpyType &t : kNpyTypes) {
    StringRef d = t.descr;
    if (d.empty())
      continue;
    if (descr == d || (d[0] == '|' && descr == d.drop_front()) ||
        (d[0] == '<' && descr.size() == d.size() && descr[0] == '=' &&
         descr.drop_front() == d.drop_front()))
      return t.dtype;
  }
  return NXRT_DTYPE_INVALID;
}

static const char *npyDescr(nxrt_dtype_t dtype) {
  for (const NpyType &t : kNpyTypes)
    if (t.dtype == dtype && *t.descr)
      return t.descr;
  return nullptr;
}

static llvm::Error noNpyDType(nxrt_dtype_t dtype) {
  return llvm::createStringError("cannot write a " +
                                 llvm::Twine(nxrt_dtype_name(dtype)) +
                                 " tensor to .npy (no NumPy dtype)");
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
    return llvm::createStringError("cannot read '" + path +
                                   "': " + bufferOr.getError().message());
  return parseNpy((*bufferOr)->getBuffer(), path);
}

Expected<HostTensor> HostTensor::parseNpy(StringRef bytes, StringRef path) {
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError("'" + path +
                                   "' is not a valid .npy file: " + why);
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
    return bad("unsupported version " +
               llvm::Twine(static_cast<unsigned>(major)));
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
    return llvm::createStringError("'" + path + "': unsupported .npy dtype '" +
                                   d + "'");
  if (*fortran != "False")
    return llvm::createStringError(
        "'" + path + "': Fortran-order .npy files are not supported");
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
  // The header's claim is checked against the file before anything is
  // allocated for it: a header may claim more than memory holds.
  std::optional<size_t> claimed = HostTensor::byteSizeOf(dtype, shape);
  size_t dataStart = headerStart + headerLen;
  if (!claimed)
    return bad("shape '" + *shapeText + "' is too large");
  if (bytes.size() - dataStart != *claimed)
    return bad("expected " + llvm::Twine(*claimed) + " bytes of data, found " +
               llvm::Twine(bytes.size() - dataStart));
  // Every byte is copied from the file.
  auto tensor = HostTensor::create(dtype, shape, /*zeroed=*/false);
  if (!tensor)
    return tensor.takeError();
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
  if (!npyDescr(elementType))
    return noNpyDType(elementType);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot write '" + path +
                                   "': " + ec.message());
  if (auto err = writeNpy(os))
    return err;
  os.close();
  if (os.has_error())
    return llvm::createStringError("cannot write '" + path +
                                   "': " + os.error().message());
  return llvm::Error::success();
}

llvm::Error HostTensor::writeNpy(llvm::raw_ostream &os) const {
  const char *descr = npyDescr(elementType);
  if (!descr)
    return noNpyDType(elementType);
  std::string header = "{'descr': '" + std::string(descr) +
                       "', 'fortran_order': False, 'shape': (";
  // "()", "(4,)", "(2, 3)".
  for (size_t i = 0; i < dims.size(); ++i)
    header += (i ? ", " : "") + std::to_string(dims[i]);
  if (dims.size() == 1)
    header += ",";
  header += "), }";
  // Version 1.0 counts the header in 16 bits, 2.0 in 32: a tensor of
  // thousands of dimensions needs the latter.
  bool wide = 10 + header.size() + 1 + 63 > UINT16_MAX;
  size_t prefix = wide ? 12 : 10;
  // Pad with spaces so that magic + len + header + '\n' is a multiple of 64.
  size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  os << "\x93NUMPY" << (wide ? '\x02' : '\x01') << '\x00';
  // The header's length, little endian: 2 bytes, or 4 in version 2.0.
  uint32_t length = static_cast<uint32_t>(header.size());
  char len[4] = {static_cast<char>(length), static_cast<char>(length >> 8),
                 static_cast<char>(length >> 16),
                 static_cast<char>(length >> 24)};
  os.write(len, wide ? 4 : 2);
  os << header;
  if (numBytes)
    os.write(reinterpret_cast<const char *>(data()), numBytes);
  return llvm::Error::success();
}
