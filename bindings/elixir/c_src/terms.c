/*===- terms.c - nxrt values as Erlang terms and back ---------------------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Tensors cross the NIF boundary as {data :: binary, type, shape}: data is
 * dense row-major in native byte order, type an Nx-style {kind, bits} tuple
 * and shape a tuple of dimensions. Errors are {:error, {code, message}}
 * with the nxrt status code as a lowercase atom.
 *
 *===----------------------------------------------------------------------===*/

#include "nx_nif.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

ERL_NIF_TERM nx_atom(ErlNifEnv *env, const char *name) {
  ERL_NIF_TERM atom;
  if (enif_make_existing_atom(env, name, &atom, ERL_NIF_LATIN1))
    return atom;
  return enif_make_atom(env, name);
}

ERL_NIF_TERM nx_ok(ErlNifEnv *env, ERL_NIF_TERM value) {
  return enif_make_tuple2(env, nx_atom(env, "ok"), value);
}

const char *nx_code_name(nxrt_status_code_t code) {
  static const char *const names[] = {"ok",
                                      "cancelled",
                                      "unknown",
                                      "invalid_argument",
                                      "deadline_exceeded",
                                      "not_found",
                                      "already_exists",
                                      "permission_denied",
                                      "resource_exhausted",
                                      "failed_precondition",
                                      "aborted",
                                      "out_of_range",
                                      "unimplemented",
                                      "internal",
                                      "unavailable",
                                      "data_loss",
                                      "unauthenticated"};
  if ((unsigned)code < sizeof(names) / sizeof(names[0]))
    return names[code];
  return "unknown";
}

static ERL_NIF_TERM make_string(ErlNifEnv *env, const char *s, size_t len) {
  ERL_NIF_TERM term;
  unsigned char *buf = enif_make_new_binary(env, len, &term);
  if (len)
    memcpy(buf, s, len);
  return term;
}

static ERL_NIF_TERM error_term(ErlNifEnv *env, nxrt_status_code_t code,
                               const char *message) {
  ERL_NIF_TERM reason =
      enif_make_tuple2(env, nx_atom(env, nx_code_name(code)),
                       make_string(env, message, strlen(message)));
  return enif_make_tuple2(env, nx_atom(env, "error"), reason);
}

ERL_NIF_TERM nx_status_error(ErlNifEnv *env, nxrt_status_t *status) {
  ERL_NIF_TERM term =
      error_term(env, nxrt_status_code(status), nxrt_status_message(status));
  nxrt_status_free(status);
  return term;
}

ERL_NIF_TERM nx_error(ErlNifEnv *env, nxrt_status_code_t code,
                      const char *format, ...) {
  char message[1024];
  va_list ap;
  va_start(ap, format);
  vsnprintf(message, sizeof(message), format, ap);
  va_end(ap);
  return error_term(env, code, message);
}

/* Element types as Nx names them, {kind, bits}, from libnxrt's table: Nx
 * counts every bit of the element (a complex<f32> is {:c, 64}) and calls i1
 * pred. */
#define NX_KIND_Int(width) ((width) == 1 ? "pred" : "s")
#define NX_KIND_UInt(width) "u"
#define NX_KIND_Float(width) "f"
#define NX_KIND_BFloat(width) "bf"
#define NX_KIND_Complex(width) "c"
static const struct {
  nxrt_dtype_t dtype;
  const char *kind;
  int bits;
} dtype_names[] = {
#define NXRT_DTYPE(dtype, bytes, mlir, npy, kind, width, ctype)                \
  {dtype, NX_KIND_##kind(width), (bytes)*8},
#include "nxrt/nxrt_dtypes.def"
};
#define NUM_DTYPES (sizeof(dtype_names) / sizeof(dtype_names[0]))

ERL_NIF_TERM nx_make_dtype(ErlNifEnv *env, nxrt_dtype_t dtype) {
  for (size_t i = 0; i < NUM_DTYPES; ++i)
    if (dtype_names[i].dtype == dtype)
      return enif_make_tuple2(env, nx_atom(env, dtype_names[i].kind),
                              enif_make_int(env, dtype_names[i].bits));
  return nx_atom(env, "invalid");
}

int nx_get_dtype(ErlNifEnv *env, ERL_NIF_TERM term, nxrt_dtype_t *out) {
  int arity, bits;
  const ERL_NIF_TERM *items;
  char kind[8];
  if (!enif_get_tuple(env, term, &arity, &items) || arity != 2 ||
      !enif_get_atom(env, items[0], kind, sizeof(kind), ERL_NIF_LATIN1) ||
      !enif_get_int(env, items[1], &bits))
    return 0;
  for (size_t i = 0; i < NUM_DTYPES; ++i)
    if (dtype_names[i].bits == bits && strcmp(dtype_names[i].kind, kind) == 0) {
      *out = dtype_names[i].dtype;
      return 1;
    }
  return 0;
}

ERL_NIF_TERM nx_make_shape(ErlNifEnv *env, int32_t rank, const int64_t *dims) {
  ERL_NIF_TERM small[8] = {0};
  ERL_NIF_TERM *items =
      rank <= 8 ? small : enif_alloc(sizeof(ERL_NIF_TERM) * (size_t)rank);
  for (int32_t i = 0; i < rank; ++i)
    items[i] = enif_make_int64(env, dims[i]);
  ERL_NIF_TERM shape = enif_make_tuple_from_array(env, items, (unsigned)rank);
  if (items != small)
    enif_free(items);
  return shape;
}

void nx_type_string(char *buf, size_t len, nxrt_dtype_t dtype, int32_t rank,
                    const int64_t *dims) {
  nxrt_tensor_t type = {dtype, rank, dims, NULL};
  nxrt_tensor_type_string(&type, buf, len);
}

const char *nx_get_tensor(ErlNifEnv *env, ERL_NIF_TERM term, nxrt_tensor_t *out,
                          int64_t **dims_storage) {
  int arity, rank;
  const ERL_NIF_TERM *items, *dims;
  ErlNifBinary data;
  *dims_storage = NULL;
  if (!enif_get_tuple(env, term, &arity, &items) || arity != 3)
    return "a tensor must be {data, type, shape}";
  if (!enif_inspect_binary(env, items[0], &data))
    return "tensor data must be a binary";
  if (!nx_get_dtype(env, items[1], &out->dtype))
    return "unknown tensor type (expected {:s | :u | :f | :bf | :c | :pred, "
           "bits})";
  if (!enif_get_tuple(env, items[2], &rank, &dims))
    return "tensor shape must be a tuple of dimensions";
  int64_t *storage = enif_alloc(sizeof(int64_t) * (size_t)(rank ? rank : 1));
  for (int i = 0; i < rank; ++i) {
    ErlNifSInt64 d;
    if (!enif_get_int64(env, dims[i], &d) || d < 0) {
      enif_free(storage);
      return "tensor dimensions must be non-negative integers";
    }
    storage[i] = d;
  }
  out->rank = rank;
  out->dims = storage;
  out->data = data.data;
  *dims_storage = storage;
  size_t expected = nxrt_tensor_byte_size(out);
  int empty = 0;
  for (int i = 0; i < rank; ++i)
    empty |= storage[i] == 0;
  if ((expected == 0 && !empty) || expected != data.size) {
    enif_free(storage);
    *dims_storage = NULL;
    return "tensor data size does not match its type and shape";
  }
  return NULL;
}

const char *nx_get_tensors(ErlNifEnv *env, ERL_NIF_TERM list,
                           nxrt_tensor_t **out, size_t *n) {
  unsigned len;
  *out = NULL;
  *n = 0;
  if (!enif_get_list_length(env, list, &len))
    return "expected a list of tensors";
  nxrt_tensor_t *tensors = enif_alloc(sizeof(nxrt_tensor_t) * (len ? len : 1));
  ERL_NIF_TERM head, tail = list;
  for (unsigned i = 0; i < len; ++i) {
    enif_get_list_cell(env, tail, &head, &tail);
    int64_t *dims;
    const char *problem = nx_get_tensor(env, head, &tensors[i], &dims);
    if (problem) {
      nx_free_tensors(tensors, i);
      return problem;
    }
  }
  *out = tensors;
  *n = len;
  return NULL;
}

void nx_free_tensors(nxrt_tensor_t *tensors, size_t n) {
  for (size_t i = 0; i < n; ++i)
    enif_free((void *)tensors[i].dims);
  enif_free(tensors);
}

ERL_NIF_TERM nx_make_tensor(ErlNifEnv *env, const nxrt_tensor_t *tensor) {
  size_t size = nxrt_tensor_byte_size(tensor);
  ERL_NIF_TERM data;
  unsigned char *buf = enif_make_new_binary(env, size, &data);
  if (size)
    memcpy(buf, tensor->data, size);
  return enif_make_tuple3(env, data, nx_make_dtype(env, tensor->dtype),
                          nx_make_shape(env, tensor->rank, tensor->dims));
}

static ERL_NIF_TERM make_attr(ErlNifEnv *env, const nxrt_attr_t *attr) {
  switch (nxrt_attr_kind(attr)) {
  case NXRT_ATTR_BOOL: {
    int value = 0;
    nxrt_status_free(nxrt_attr_bool(attr, &value));
    return nx_atom(env, value ? "true" : "false");
  }
  case NXRT_ATTR_I64:
  case NXRT_ATTR_INT: {
    uint32_t width;
    nxrt_signedness_t signedness;
    nxrt_status_free(nxrt_attr_int_type(attr, &width, &signedness));
    if (signedness == NXRT_UNSIGNED) {
      uint64_t value = 0;
      nxrt_status_free(nxrt_attr_u64(attr, &value));
      return enif_make_uint64(env, value);
    }
    int64_t value = 0;
    nxrt_status_free(nxrt_attr_i64(attr, &value));
    return enif_make_int64(env, value);
  }
  case NXRT_ATTR_F64:
  case NXRT_ATTR_FLOAT: {
    double value = 0;
    nxrt_status_free(nxrt_attr_f64(attr, &value));
    return enif_make_double(env, value);
  }
  case NXRT_ATTR_STRING: {
    const char *s = "";
    size_t len = 0;
    nxrt_status_free(nxrt_attr_string(attr, &s, &len));
    return make_string(env, s, len);
  }
  case NXRT_ATTR_ARRAY: {
    size_t n = 0;
    nxrt_status_free(nxrt_attr_array_size(attr, &n));
    ERL_NIF_TERM list = enif_make_list(env, 0);
    for (size_t i = n; i-- > 0;)
      list = enif_make_list_cell(
          env, make_attr(env, nxrt_attr_array_at(attr, i)), list);
    return list;
  }
  case NXRT_ATTR_DICT: {
    const nxrt_attrs_t *dict = NULL;
    nxrt_status_free(nxrt_attr_dict(attr, &dict));
    return nx_make_attrs(env, dict);
  }
  default:
    return nx_atom(env, "invalid");
  }
}

ERL_NIF_TERM nx_make_attrs(ErlNifEnv *env, const nxrt_attrs_t *attrs) {
  ERL_NIF_TERM map = enif_make_new_map(env);
  size_t n = nxrt_attrs_size(attrs);
  for (size_t i = 0; i < n; ++i) {
    const char *name = nxrt_attrs_name_at(attrs, i);
    ERL_NIF_TERM key = make_string(env, name, strlen(name));
    enif_make_map_put(env, map, key,
                      make_attr(env, nxrt_attrs_value_at(attrs, i)), &map);
  }
  return map;
}

char *nx_binary_to_cstr(ErlNifEnv *env, ERL_NIF_TERM term) {
  ErlNifBinary bin;
  if (!enif_inspect_binary(env, term, &bin) || memchr(bin.data, 0, bin.size))
    return NULL;
  char *s = enif_alloc(bin.size + 1);
  memcpy(s, bin.data, bin.size);
  s[bin.size] = 0;
  return s;
}
