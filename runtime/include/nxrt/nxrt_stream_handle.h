/*===- nxrt_stream_handle.h - Stream handle bytes, written and checked ----===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * The one definition of the stream handle layout that nxrt.h describes under
 * "Streams", as inline functions: the compiler embeds handles in programs
 * without linking libnxrt, the importer of exported programs reads them
 * back, and libnxrt checks every handle a program passes it. Plain C.
 *
 *===----------------------------------------------------------------------===*/

#ifndef NXRT_STREAM_HANDLE_H
#define NXRT_STREAM_HANDLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nxrt/nxrt.h"

/* What is wrong with a handle's bytes, in the order they are checked. */
typedef enum nxrt_stream_handle_error_t {
  NXRT_STREAM_HANDLE_OK = 0,
  /* Fewer bytes than the header plus a one-byte name. */
  NXRT_STREAM_HANDLE_TOO_SHORT = 1,
  NXRT_STREAM_HANDLE_BAD_MAGIC = 2,
  NXRT_STREAM_HANDLE_BAD_VERSION = 3,
  /* Bytes 5..7 are not zero. */
  NXRT_STREAM_HANDLE_RESERVED_NOT_ZERO = 4,
  /* The name length is outside 1..NXRT_STREAM_NAME_MAX. */
  NXRT_STREAM_HANDLE_BAD_LENGTH = 5,
  /* The name length is not the number of bytes after the header. */
  NXRT_STREAM_HANDLE_LENGTH_MISMATCH = 6,
  /* The name is not UTF-8, or holds a NUL byte. */
  NXRT_STREAM_HANDLE_BAD_NAME = 7
} nxrt_stream_handle_error_t;

/* The size of the handle of a `len`-byte name: 0 when the length is outside
 * 1..NXRT_STREAM_NAME_MAX. */
static inline size_t nxrt_stream_handle_size(size_t len) {
  if (len == 0 || len > NXRT_STREAM_NAME_MAX)
    return 0;
  return NXRT_STREAM_HANDLE_HEADER_SIZE + len;
}

/* Writes the handle of the `len`-byte `name` into `out` when `out_len` holds
 * it; returns its size either way (0 for a bad length, writing nothing). */
static inline size_t nxrt_stream_handle_write(const char *name, size_t len,
                                              uint8_t *out, size_t out_len) {
  size_t size = nxrt_stream_handle_size(len);
  if (size == 0 || !out || out_len < size)
    return size;
  memcpy(out, NXRT_STREAM_HANDLE_MAGIC, 4);
  out[4] = NXRT_STREAM_HANDLE_VERSION;
  out[5] = out[6] = out[7] = 0;
  for (int k = 0; k < 4; ++k)
    out[8 + k] = (uint8_t)(len >> (8 * k));
  memcpy(out + NXRT_STREAM_HANDLE_HEADER_SIZE, name, len);
  return size;
}

/* The name length field (bytes 8..11) of a handle of at least
 * NXRT_STREAM_HANDLE_HEADER_SIZE bytes. */
static inline uint32_t nxrt_stream_handle_length_field(const uint8_t *p) {
  return (uint32_t)p[8] | (uint32_t)p[9] << 8 | (uint32_t)p[10] << 16 |
         (uint32_t)p[11] << 24;
}

/* Whether the `n` bytes at `p` are UTF-8 without overlong forms, surrogates
 * or code points past U+10FFFF. */
static inline int nxrt_stream_handle_valid_utf8(const uint8_t *p, size_t n) {
  static const uint32_t min_code_point[5] = {0, 0, 0x80, 0x800, 0x10000};
  size_t i = 0;
  while (i < n) {
    uint8_t c = p[i];
    size_t len;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return 0;
    }
    if (n - i < len)
      return 0;
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80)
        return 0;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    if (cp < min_code_point[len] || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return 0;
    i += len;
  }
  return 1;
}

/* Checks the `size` bytes at `p` as a handle. When it is one, the name is
 * the size - NXRT_STREAM_HANDLE_HEADER_SIZE bytes after the header. */
static inline nxrt_stream_handle_error_t
nxrt_stream_handle_check(const uint8_t *p, size_t size) {
  if (size < NXRT_STREAM_HANDLE_HEADER_SIZE + 1)
    return NXRT_STREAM_HANDLE_TOO_SHORT;
  if (memcmp(p, NXRT_STREAM_HANDLE_MAGIC, 4) != 0)
    return NXRT_STREAM_HANDLE_BAD_MAGIC;
  if (p[4] != NXRT_STREAM_HANDLE_VERSION)
    return NXRT_STREAM_HANDLE_BAD_VERSION;
  if (p[5] || p[6] || p[7])
    return NXRT_STREAM_HANDLE_RESERVED_NOT_ZERO;
  uint32_t len = nxrt_stream_handle_length_field(p);
  if (len == 0 || len > NXRT_STREAM_NAME_MAX)
    return NXRT_STREAM_HANDLE_BAD_LENGTH;
  if ((size_t)len != size - NXRT_STREAM_HANDLE_HEADER_SIZE)
    return NXRT_STREAM_HANDLE_LENGTH_MISMATCH;
  const uint8_t *name = p + NXRT_STREAM_HANDLE_HEADER_SIZE;
  if (memchr(name, 0, len) || !nxrt_stream_handle_valid_utf8(name, len))
    return NXRT_STREAM_HANDLE_BAD_NAME;
  return NXRT_STREAM_HANDLE_OK;
}

#endif /* NXRT_STREAM_HANDLE_H */
