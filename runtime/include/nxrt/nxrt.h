/*===- nxrt.h - nx-mlir host runtime C ABI -------------------------------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * libnxrt is the library compiled nx programs call into and host programs
 * link against. This header is the whole ABI: plain C, no C++ types, so the
 * LLVM lowering, C hosts and NIFs can all use it.
 *
 * Conventions used throughout:
 *  - Errors are reported as `nxrt_status_t *`. NULL means OK. A non-NULL
 *    status returned by the runtime is owned by the caller, who frees it with
 *    nxrt_status_free(). Codes use absl::StatusCode numbering.
 *  - "Thread-safe" means any number of threads may call the function at the
 *    same time on the same objects. The runtime never holds one of its locks
 *    while user code (handlers, hooks) runs, so user code may call back into
 *    the runtime, including starting nested runs.
 *  - Timeouts are in milliseconds; a value <= 0 means "no deadline".
 *  - Tensors are dense, row-major, described by nxrt_tensor_t views that
 *    never own their data.
 *  - Every enum ends in a *_MAX_ENUM = 0x7fffffff sentinel so it is int-sized
 *    and any int a C caller passes is a valid value (out-of-range values are
 *    rejected with an error, never undefined behaviour).
 *
 *===----------------------------------------------------------------------===*/

#ifndef NXRT_NXRT_H
#define NXRT_NXRT_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define NXRT_API __declspec(dllexport)
#else
#define NXRT_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever this header or what compiled code expects of the library
 * changes incompatibly. 2: compiled code stops at a failure
 * (nxrt_run_failed, nxrt_invoke_failed) and allocates its heap buffers
 * through the library (_mlir_memref_to_llvm_*). 3: typed integer and float
 * attributes (INT, FLOAT). 4: callbacks bound INLINE can be routed through
 * the bridge (nxrt_runtime_set_callback_dispatch, nxrt_request_serve). 5:
 * __nx_init adds its sites from a list of records (nxrt_program_add_sites).
 * 6: compiled code calls nxrt_gemm_f32 / _f64 for contractions, whose
 * threads nxrt_set_compute_threads sets. 7: strided memref.copy calls
 * nxrt_memref_copy (ahead-of-time objects carry no MLIR runtime library).
 * 8: compiled code shares large contractions among its OpenMP team, a part
 * per thread (nxrt_gemm_part_f32 / _f64); the BLAS runs single-threaded.
 * 9: compiled code calls nxrt_conv2d_f32 for 2-D convolutions (oneDNN).
 * 10: __nx_init of a program with f32 products calls nxrt_gemm_prepare.
 * 11: nxrt_gemm_* and nxrt_gemm_part_* take `accumulate` last: 0 writes the
 * product over C instead of adding it, so compiled code no longer zeroes C
 * first. 12: compiled code checks its heap allocations and reports one that
 * failed through nxrt_out_of_memory; hosts read a site's kind and name
 * (nxrt_site_kind, nxrt_site_name). 13: __nx_init prepares the first run:
 * nxrt_threads_prepare and nxrt_heap_prepare. 14: __nx_init makes the
 * kernels of convolutions of constant sizes (nxrt_conv2d_prepare_f32). 15:
 * compiled code hands a product's bias and ReLU to the product
 * (nxrt_gemm_part_epilogue_f32) instead of running them as a pass of their
 * own. 16: compiled code calls nxrt_gemm_bf16_f32 / nxrt_gemm_part_bf16_f32
 * for products of bf16 into f32, and nxrt_gemm_i8_i32 /
 * nxrt_gemm_part_i8_i32 for products of i8 into i32; __nx_init calls
 * nxrt_gemm_prepare_widened. 17: compiled code calls nxrt_gemm_f16_f32 /
 * nxrt_gemm_part_f16_f32 for products of f16 into f32; __nx_init calls
 * nxrt_gemm_prepare_padded. 18: __nx_init makes the oneDNN kernels of bf16
 * and i8 products of constant sizes (nxrt_gemm_prepare_bf16_f32,
 * nxrt_gemm_prepare_i8_i32). 19: nxrt_gemm_prepare_widened takes the
 * operands' dtype first and maps nothing a product of that dtype does not
 * widen on this CPU. */
#define NXRT_API_VERSION 19

/* Returns NXRT_API_VERSION of the library actually loaded, so a host can
 * detect a mismatch with the header it was compiled against.
 * Thread-safe; no ownership involved. */
NXRT_API uint32_t nxrt_api_version(void);

/*===----------------------------------------------------------------------===*
 * Status
 *===----------------------------------------------------------------------===*/

/* Same numbering as absl::StatusCode / google.rpc.Code. */
typedef enum nxrt_status_code_t {
  NXRT_OK = 0,
  NXRT_CANCELLED = 1,
  NXRT_UNKNOWN = 2,
  NXRT_INVALID_ARGUMENT = 3,
  NXRT_DEADLINE_EXCEEDED = 4,
  NXRT_NOT_FOUND = 5,
  NXRT_ALREADY_EXISTS = 6,
  NXRT_PERMISSION_DENIED = 7,
  NXRT_RESOURCE_EXHAUSTED = 8,
  NXRT_FAILED_PRECONDITION = 9,
  NXRT_ABORTED = 10,
  NXRT_OUT_OF_RANGE = 11,
  NXRT_UNIMPLEMENTED = 12,
  NXRT_INTERNAL = 13,
  NXRT_UNAVAILABLE = 14,
  NXRT_DATA_LOSS = 15,
  NXRT_UNAUTHENTICATED = 16,
  NXRT_STATUS_CODE_MAX_ENUM = 0x7fffffff
} nxrt_status_code_t;

/* An error: a code and a message. NULL stands for OK. */
typedef struct nxrt_status nxrt_status_t;

/* Creates a status; this is how handlers report errors. `message` is copied
 * (NULL is treated as ""). Returns NULL when code == NXRT_OK; an unknown code
 * is mapped to NXRT_UNKNOWN. The caller owns the result (free it, or return
 * it from a handler, which hands ownership to the runtime). Thread-safe. */
NXRT_API nxrt_status_t *nxrt_status_create(nxrt_status_code_t code,
                                           const char *message);

/* Code of `status`; NXRT_OK for NULL. Does not take ownership. Thread-safe
 * (statuses are immutable). */
NXRT_API nxrt_status_code_t nxrt_status_code(const nxrt_status_t *status);

/* NUL-terminated message of `status`, "" for NULL. The pointer stays valid
 * until the status is freed. Thread-safe. */
NXRT_API const char *nxrt_status_message(const nxrt_status_t *status);

/* Frees a status; NULL is a no-op. Not thread-safe for the same status. */
NXRT_API void nxrt_status_free(nxrt_status_t *status);

/*===----------------------------------------------------------------------===*
 * Element types and tensor views
 *===----------------------------------------------------------------------===*/

typedef enum nxrt_dtype_t {
  NXRT_DTYPE_INVALID = 0,
  NXRT_PRED = 1, /* i1, stored as one byte holding 0 or 1 */
  NXRT_I8 = 2,
  NXRT_I16 = 3,
  NXRT_I32 = 4,
  NXRT_I64 = 5,
  NXRT_U8 = 6,
  NXRT_U16 = 7,
  NXRT_U32 = 8,
  NXRT_U64 = 9,
  NXRT_F16 = 10,
  NXRT_BF16 = 11,
  NXRT_F32 = 12,
  NXRT_F64 = 13,
  NXRT_C64 = 14,  /* complex<f32>: real then imaginary */
  NXRT_C128 = 15, /* complex<f64> */
  /* An ordering token: no elements, rank 0, data NULL. Only custom-call
   * targets see one, where the program passes or returns a token (an XLA
   * FFI handler gets XLA_FFI_DataType_TOKEN). Not a tensor element type:
   * nxrt_dtype_size gives 0 and nxrt_dtype_name "token". */
  NXRT_TOKEN = 16,
  NXRT_DTYPE_MAX_ENUM = 0x7fffffff
} nxrt_dtype_t;

/* Bytes per element; 0 for an invalid dtype. Thread-safe. */
NXRT_API size_t nxrt_dtype_size(nxrt_dtype_t dtype);

/* MLIR spelling of the element type ("f32", "ui8", "i1", "complex<f32>"),
 * or "invalid". Static storage. Thread-safe. */
NXRT_API const char *nxrt_dtype_name(nxrt_dtype_t dtype);

/* A non-owning view of a dense row-major tensor. `dims` has `rank` entries
 * (may be NULL when rank == 0). */
typedef struct nxrt_tensor_t {
  nxrt_dtype_t dtype;
  int32_t rank;
  const int64_t *dims;
  void *data;
} nxrt_tensor_t;

/* Byte size of the data a view describes (product of dims times dtype size);
 * 0 for a malformed view (invalid dtype, negative rank/dim, NULL dims with
 * rank > 0, overflow). Thread-safe. */
NXRT_API size_t nxrt_tensor_byte_size(const nxrt_tensor_t *tensor);

/* Whether `a` and `b` have the same dtype, rank and dims (their data is not
 * compared): 1 or 0. Thread-safe. */
NXRT_API int nxrt_tensor_same_type(const nxrt_tensor_t *a,
                                   const nxrt_tensor_t *b);

/* Writes the MLIR type of `tensor` ("tensor<2x3xf32>", "tensor<f32>"; a
 * negative size, dynamic in a signature, is "?") to
 * `buffer`, at most `size` bytes with the terminating NUL (none when size is
 * 0), and returns the type's length without the NUL, as snprintf does: a
 * result of `size` or more means the type was cut. Thread-safe; writes only
 * `buffer`, which stays the caller's. */
NXRT_API size_t nxrt_tensor_type_string(const nxrt_tensor_t *tensor,
                                        char *buffer, size_t size);

/*===----------------------------------------------------------------------===*
 * Typed attributes
 *
 * Custom-call attributes and elixir_call static_args are a typed dictionary
 * (like XLA's typed FFI). Compiled code embeds them as a constant byte string
 * in this encoding; the runtime decodes and validates it once, in
 * nxrt_program_add_site. All integers are little-endian.
 *
 *   blob   := <empty>           (an empty dictionary)
 *           | value             (must be a dict value, and use every byte)
 *   value  := tag payload
 *   tag 0x01 I64    payload: 8 bytes, two's complement
 *   tag 0x02 F64    payload: 8 bytes, IEEE-754 binary64
 *   tag 0x03 BOOL   payload: 1 byte, 0x00 or 0x01 (anything else is invalid)
 *   tag 0x04 STRING payload: u32 byte length, then that many bytes of UTF-8
 *                   (no terminator; embedded NUL is invalid)
 *   tag 0x05 ARRAY  payload: u32 count, then `count` values (may be mixed)
 *   tag 0x06 DICT   payload: u32 count, then `count` entries:
 *                   entry := u32 name length, name bytes (UTF-8, non-empty,
 *                   no NUL), value; names are unique within a dict
 *   tag 0x07 INT    payload: u8 signedness (nxrt_signedness_t), u8 bit width
 *                   (1-64), 8 bytes: the value sign-extended (signless,
 *                   signed) or zero-extended (unsigned) to 64 bits, within
 *                   the range of its type
 *   tag 0x08 FLOAT  payload: u8 dtype (NXRT_F16, NXRT_BF16, NXRT_F32 or
 *                   NXRT_F64), 8 bytes: the value as IEEE-754 binary64,
 *                   exactly representable in that dtype
 *   Nesting deeper than NXRT_ATTR_MAX_DEPTH levels is invalid.
 *
 * The compiler writes a signless i64 as I64, an f64 as F64, an i1 (and a
 * unit attribute) as BOOL, any other integer (i8, si16, ui64, i3, ...) as
 * INT and any other float (f16, bf16, f32) as FLOAT, so a handler reads back
 * the type it was given; dense arrays (array<i32: ...>, dense<...>) are
 * arrays of their element type. Integers wider than 64 bits are a compile
 * error.
 *
 * Example: {"mode": "complete"} encodes as
 *   06 01000000  04000000 "mode"  04 08000000 "complete"
 *===----------------------------------------------------------------------===*/

typedef enum nxrt_attr_kind_t {
  NXRT_ATTR_I64 = 1,
  NXRT_ATTR_F64 = 2,
  NXRT_ATTR_BOOL = 3,
  NXRT_ATTR_STRING = 4,
  NXRT_ATTR_ARRAY = 5,
  NXRT_ATTR_DICT = 6,
  NXRT_ATTR_INT = 7,
  NXRT_ATTR_FLOAT = 8,
  NXRT_ATTR_KIND_MAX_ENUM = 0x7fffffff
} nxrt_attr_kind_t;

/* Signedness of an integer attribute, as in MLIR's i8 / si8 / ui8. */
typedef enum nxrt_signedness_t {
  NXRT_SIGNLESS = 0,
  NXRT_SIGNED = 1,
  NXRT_UNSIGNED = 2,
  NXRT_SIGNEDNESS_MAX_ENUM = 0x7fffffff
} nxrt_signedness_t;

#define NXRT_ATTR_MAX_DEPTH 32

/* A decoded dictionary and a decoded value. Both are immutable and owned by
 * whatever handed them out (a site, a request, a parsed blob), so all
 * accessors below are thread-safe and pointers they return live as long as
 * the owner. */
typedef struct nxrt_attrs nxrt_attrs_t;
typedef struct nxrt_attr nxrt_attr_t;

/* Decodes and validates a blob. On success stores a new dictionary in *out
 * (free with nxrt_attrs_free) and returns NULL; on malformed input returns an
 * INVALID_ARGUMENT status naming the byte offset and leaves *out NULL. Never
 * reads outside [data, data + len). Thread-safe. */
NXRT_API nxrt_status_t *nxrt_attrs_parse(const uint8_t *data, size_t len,
                                         nxrt_attrs_t **out);

/* Frees a dictionary returned by nxrt_attrs_parse; NULL is a no-op. Must not
 * be used on dictionaries owned by sites or requests. */
NXRT_API void nxrt_attrs_free(nxrt_attrs_t *attrs);

/* Number of entries, and the i-th entry's name / value in encoding order
 * (NULL when i is out of range). */
NXRT_API size_t nxrt_attrs_size(const nxrt_attrs_t *attrs);
NXRT_API const char *nxrt_attrs_name_at(const nxrt_attrs_t *attrs, size_t i);
NXRT_API const nxrt_attr_t *nxrt_attrs_value_at(const nxrt_attrs_t *attrs,
                                                size_t i);

/* Value named `name`, or NULL when absent. */
NXRT_API const nxrt_attr_t *nxrt_attrs_find(const nxrt_attrs_t *attrs,
                                            const char *name);

/* Kind of a value. */
NXRT_API nxrt_attr_kind_t nxrt_attr_kind(const nxrt_attr_t *attr);

/* Typed reads of a value. Each returns NULL and stores the value, or an
 * INVALID_ARGUMENT status ("attribute has type string, expected bool") when
 * the type differs. Strings are NUL-terminated; *len (optional) excludes the
 * terminator. Arrays/dicts hand out pointers owned by the same owner.
 *  - nxrt_attr_i64: signless and signed integers (I64, INT) of any width,
 *    sign-extended; unsigned ones are rejected (read them with
 *    nxrt_attr_u64, so 2^64-1 never reads as -1);
 *  - nxrt_attr_u64: unsigned integers only;
 *  - nxrt_attr_f64: every float (F64, FLOAT; widening is exact);
 *  - nxrt_attr_f32: f32, f16 and bf16 (exact); an f64 is rejected.
 * nxrt_attr_int_type / nxrt_attr_float_dtype tell the type itself: an I64 is
 * a 64-bit signless integer, an F64 an NXRT_F64. */
NXRT_API nxrt_status_t *nxrt_attr_i64(const nxrt_attr_t *attr, int64_t *out);
NXRT_API nxrt_status_t *nxrt_attr_u64(const nxrt_attr_t *attr, uint64_t *out);
NXRT_API nxrt_status_t *nxrt_attr_int_type(const nxrt_attr_t *attr,
                                           uint32_t *width,
                                           nxrt_signedness_t *signedness);
NXRT_API nxrt_status_t *nxrt_attr_f64(const nxrt_attr_t *attr, double *out);
NXRT_API nxrt_status_t *nxrt_attr_f32(const nxrt_attr_t *attr, float *out);
NXRT_API nxrt_status_t *nxrt_attr_float_dtype(const nxrt_attr_t *attr,
                                              nxrt_dtype_t *out);
NXRT_API nxrt_status_t *nxrt_attr_bool(const nxrt_attr_t *attr, int *out);
NXRT_API nxrt_status_t *nxrt_attr_string(const nxrt_attr_t *attr,
                                         const char **out, size_t *len);
NXRT_API nxrt_status_t *nxrt_attr_array_size(const nxrt_attr_t *attr,
                                             size_t *out);
/* Element i of an array; NULL when not an array or out of range. */
NXRT_API const nxrt_attr_t *nxrt_attr_array_at(const nxrt_attr_t *attr,
                                               size_t i);
NXRT_API nxrt_status_t *nxrt_attr_dict(const nxrt_attr_t *attr,
                                       const nxrt_attrs_t **out);

/* Lookup-by-name conveniences: NOT_FOUND ("missing attribute 'mode'") when
 * absent, INVALID_ARGUMENT ("attribute 'mode' has type i64, expected
 * string") on a kind mismatch. */
NXRT_API nxrt_status_t *nxrt_attrs_get_i64(const nxrt_attrs_t *attrs,
                                           const char *name, int64_t *out);
NXRT_API nxrt_status_t *nxrt_attrs_get_u64(const nxrt_attrs_t *attrs,
                                           const char *name, uint64_t *out);
NXRT_API nxrt_status_t *nxrt_attrs_get_f64(const nxrt_attrs_t *attrs,
                                           const char *name, double *out);
NXRT_API nxrt_status_t *nxrt_attrs_get_f32(const nxrt_attrs_t *attrs,
                                           const char *name, float *out);
NXRT_API nxrt_status_t *nxrt_attrs_get_bool(const nxrt_attrs_t *attrs,
                                            const char *name, int *out);
NXRT_API nxrt_status_t *nxrt_attrs_get_string(const nxrt_attrs_t *attrs,
                                              const char *name,
                                              const char **out, size_t *len);

/*===----------------------------------------------------------------------===*
 * Runtime, registry and handlers
 *===----------------------------------------------------------------------===*/

typedef struct nxrt_runtime nxrt_runtime_t;
typedef struct nxrt_run nxrt_run_t;
typedef struct nxrt_program nxrt_program_t;
typedef struct nxrt_site nxrt_site_t;
typedef struct nxrt_stream nxrt_stream_t;
typedef struct nxrt_request nxrt_request_t;
typedef struct nxrt_value nxrt_value_t;

/* What a handler sees for one invocation. Everything is valid only for the
 * duration of the handler call.
 *  - args:    operand views, in place (the program's buffers; do not write).
 *  - results: preallocated output buffers with their dtype/dims; the handler
 *             writes the outputs straight into results[i].data. Empty for
 *             io_callback.
 *  - attrs:   the site's decoded attributes / static_args (never NULL).
 *  - name:    callback or custom-call target name (without '@').
 *  - location: the op's source location, e.g. "model.mlir:12:5".
 *  - run:     the run the call belongs to. */
typedef struct nxrt_call_t {
  const nxrt_tensor_t *args;
  size_t nargs;
  nxrt_tensor_t *results;
  size_t nresults;
  const nxrt_attrs_t *attrs;
  const char *name;
  const char *location;
  nxrt_run_t *run;
} nxrt_call_t;

/* Host callbacks and custom-call targets share this signature. Return NULL
 * on success, or a status from nxrt_status_create (ownership passes to the
 * runtime). Handlers may run on any compute thread, concurrently. */
typedef nxrt_status_t *(*nxrt_handler_fn)(void *user_data,
                                          const nxrt_call_t *call);

/* Creates a runtime with the built-in custom-call targets (see "Built-in
 * linear algebra") already registered. Never returns NULL (aborts only if
 * memory is exhausted, like operator new). Thread-safe among nxrt calls.
 * The first call sets KMP_BLOCKTIME=1 (milliseconds) in the environment
 * unless it is set already: compiled parallel loop nests run on libomp,
 * whose idle workers would otherwise spin for 200 ms after each loop nest,
 * taking the cores from host threads and other processes.
 * With glibc, the first call also raises malloc's mmap threshold to 32 MiB
 * and its trim threshold to 128 MiB (mallopt), unless the environment tunes
 * them (MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_, GLIBC_TUNABLES):
 * compiled code allocates and frees its intermediate buffers on every call,
 * and mapping fresh pages for each cost a transformer block a third of its
 * time. The process keeps up to 128 MiB of freed memory mapped.
 * Not thread-safe with respect to other threads' getenv/setenv calls made
 * at the same time (POSIX setenv). */
NXRT_API nxrt_runtime_t *nxrt_runtime_create(void);

/* Destroys a runtime. Preconditions: every program and stream created from
 * it has been destroyed, every run has ended and no other thread is using it
 * (call nxrt_bridge_close first to release threads blocked in
 * nxrt_bridge_pull). NULL is a no-op. Not thread-safe. */
NXRT_API void nxrt_runtime_destroy(nxrt_runtime_t *runtime);

typedef enum nxrt_dispatch_mode_t {
  /* The compute thread calls `fn` directly: zero copy both ways. */
  NXRT_DISPATCH_INLINE = 0,
  /* Requests go to the host-owned dispatcher (the bridge hook if one is
   * installed, else nxrt_bridge_pull); the compute thread waits for
   * nxrt_bridge_reply. */
  NXRT_DISPATCH_BRIDGE = 1,
  NXRT_DISPATCH_MODE_MAX_ENUM = 0x7fffffff
} nxrt_dispatch_mode_t;

typedef struct nxrt_callback_desc_t {
  nxrt_dispatch_mode_t mode;
  /* INLINE: the handler (required). BRIDGE: must be NULL. */
  nxrt_handler_fn fn;
  void *user_data;
  /* BRIDGE: how long one call may wait for its reply, in ms (<= 0: only the
   * run deadline applies). INLINE callbacks cannot be interrupted; only the
   * run deadline is checked, before each call. */
  int64_t timeout_ms;
} nxrt_callback_desc_t;

/* Binds host callback `name` (used by elixir_call and io_callback sites).
 * `name` and `desc` are copied. ALREADY_EXISTS if `name` is bound,
 * INVALID_ARGUMENT for a bad descriptor. Thread-safe; sites that were added
 * before the name was bound resolve it on their next invocation. */
NXRT_API nxrt_status_t *
nxrt_register_callback(nxrt_runtime_t *runtime, const char *name,
                       const nxrt_callback_desc_t *desc);

/* Binds custom-call target `target` to an inline handler. Same rules as
 * nxrt_register_callback; targets and callbacks are separate namespaces. */
NXRT_API nxrt_status_t *nxrt_register_custom_call(nxrt_runtime_t *runtime,
                                                  const char *target,
                                                  nxrt_handler_fn fn,
                                                  void *user_data);

/* Chooses where callbacks bound INLINE run, for runs begun after the call:
 *  - NXRT_DISPATCH_INLINE (the default): on the compute thread.
 *  - NXRT_DISPATCH_BRIDGE: each call becomes a bridge request, like a call
 *    of a callback bound BRIDGE, except that it always goes to the pull
 *    queue, never to the bridge hook: the host's dispatchers
 *    (nxrt_bridge_pull) receive it and run the bound handler with
 *    nxrt_request_serve, on their own threads. `timeout_ms` bounds the wait
 *    for each reply (<= 0: only the run deadline). A host uses this to keep
 *    every callback off its compute threads - including those that a
 *    callback library binds inline - while the library's streams and bridge
 *    hook keep serving the program, all on one runtime: the hook, whoever
 *    installed it, still receives the calls of callbacks bound BRIDGE and
 *    nothing else, so a library's hook need only know its own callbacks. A
 *    host that routes callbacks must therefore pull, even when a hook is
 *    installed, or routed calls wait until their deadline.
 *    A run begun on a thread while it serves a request (in the handler
 *    nxrt_request_serve runs, at any depth) is not routed: its callbacks
 *    run inline on that thread. A callback that runs a program with
 *    callbacks of its own thus never waits for a dispatcher that is itself
 *    busy waiting, whatever the number of dispatchers.
 * Callbacks bound BRIDGE and custom-call targets are not affected (targets
 * are native kernels and always run inline). INVALID_ARGUMENT for an
 * unknown mode. Thread-safe. */
NXRT_API nxrt_status_t *
nxrt_runtime_set_callback_dispatch(nxrt_runtime_t *runtime,
                                   nxrt_dispatch_mode_t mode,
                                   int64_t timeout_ms);

/*===----------------------------------------------------------------------===*
 * Programs and call sites (used by compiled code at load time)
 *===----------------------------------------------------------------------===*/

typedef enum nxrt_site_kind_t {
  /* args: operands; results: the declared outputs (the output template). */
  NXRT_SITE_ELIXIR_CALL = 0,
  /* args: operands; results: nresults must be 0, or the results must alias
   * the operands one to one (same data pointers) - nothing is copied. */
  NXRT_SITE_IO_CALLBACK = 1,
  /* args/results as declared by the custom call; `name` is the target. */
  NXRT_SITE_CUSTOM_CALL = 2,
  /* args[0]: stream handle (ui8[N]), args[1..]: payload (copied into the
   * stream). results: none, or one i1/ui8 scalar set to 1 (the outfeed's success
   * flag). `name` is ignored: the stream comes from the handle. */
  NXRT_SITE_OUTFEED = 3,
  /* args[0]: stream handle, args[1]: tag (ui8[8]). results[0]: next tag
   * (ui8[8]), results[1..]: payload, filled from the next infeed value,
   * which must match their dtypes and dims. Attribute "timeout_ms" (i64,
   * optional) bounds the wait in addition to the run deadline. */
  NXRT_SITE_INFEED = 4,
  /* An io_callback whose callback may be left unbound (an optional hook):
   * while no handler is registered under `name`, invoking it does nothing
   * and succeeds. Otherwise as NXRT_SITE_IO_CALLBACK. */
  NXRT_SITE_OPTIONAL_IO_CALLBACK = 5,
  NXRT_SITE_KIND_MAX_ENUM = 0x7fffffff
} nxrt_site_kind_t;

/* Creates an (empty) program: the load-time container of call sites, owned
 * by the caller. `name` is copied and only used in messages (may be NULL).
 * Returns NULL when runtime is NULL. Thread-safe. */
NXRT_API nxrt_program_t *nxrt_program_create(nxrt_runtime_t *runtime,
                                             const char *name);

/* Destroys a program and its sites. No run may be using its sites and no
 * bridge request from it may be unreleased. NULL is a no-op. */
NXRT_API void nxrt_program_destroy(nxrt_program_t *program);

/* Adds a call site: resolves `name` to its handler once and decodes `attrs`
 * once (see "Typed attributes"). Returns the site (owned by the program) and
 * leaves *error untouched, or returns NULL and stores an INVALID_ARGUMENT
 * status in *error (if error != NULL) for an invalid kind or malformed
 * attributes. An unknown callback/target name is NOT a load error: the site
 * is created and each invocation fails the run with "unknown callback @name
 * at <location>" until the name is registered. `name` and `location` are
 * copied. Site ids are dense, starting at 0, in creation order.
 * Thread-safe with respect to other programs; serialize calls on the same
 * program with its invocations (normally all sites are added at load). */
NXRT_API nxrt_site_t *
nxrt_program_add_site(nxrt_program_t *program, nxrt_site_kind_t kind,
                      const char *name, const char *location,
                      const uint8_t *attrs, size_t attrs_len,
                      nxrt_status_t **error);

/* One call site as compiled code describes it: __nx_init hands a list of
 * these, linked through `next`, to nxrt_program_add_sites. Each record is
 * followed in memory by the bytes its offsets index: the NUL-terminated
 * callee name and `file:line:col` location, and `attrs_len` bytes of typed
 * attributes. `site` is written by nxrt_program_add_sites; compiled code
 * reads it at each call. */
typedef struct nxrt_site_record_t {
  struct nxrt_site_record_t *next;
  nxrt_site_t *site;
  int64_t kind; /* nxrt_site_kind_t */
  int64_t name_offset;
  int64_t location_offset;
  int64_t attrs_offset;
  int64_t attrs_len;
} nxrt_site_record_t;

/* Adds the site of `first` and of every record after it (following `next`
 * to NULL), in that order, as nxrt_program_add_site does, and stores each
 * site in its record's `site`. Returns NULL, or the first error (the sites
 * added before it stay). `first` NULL adds nothing. The caller owns the
 * records; the call only reads them and writes `site`. Thread-safety as
 * nxrt_program_add_site. */
NXRT_API nxrt_status_t *nxrt_program_add_sites(nxrt_program_t *program,
                                               nxrt_site_record_t *first);

/* Site by dense id, NULL when out of range (compiled code that stores ids
 * rather than pointers; invoking a NULL site fails the run as "unknown call
 * site"). */
NXRT_API nxrt_site_t *nxrt_program_site(const nxrt_program_t *program,
                                        uint32_t id);
NXRT_API size_t nxrt_program_num_sites(const nxrt_program_t *program);
NXRT_API uint32_t nxrt_site_id(const nxrt_site_t *site);

/* What a site is, for a host that lists a program's sites (a runner opening
 * the streams its outfeeds write): its kind as added (an optional
 * io_callback reads NXRT_SITE_OPTIONAL_IO_CALLBACK; NXRT_SITE_ELIXIR_CALL
 * for NULL), and its name: the callback or target without '@', or the
 * stream's name ("" for NULL), valid while the program lives. Thread-safe. */
NXRT_API nxrt_site_kind_t nxrt_site_kind(const nxrt_site_t *site);
NXRT_API const char *nxrt_site_name(const nxrt_site_t *site);

/*===----------------------------------------------------------------------===*
 * Runs and invocation (used by compiled code per execution)
 *===----------------------------------------------------------------------===*/

typedef struct nxrt_run_options_t {
  /* Deadline for the whole run, counted from nxrt_run_begin (<= 0: none). */
  int64_t timeout_ms;
} nxrt_run_options_t;

/* Begins a run (options may be NULL) and pushes it on the calling thread's
 * run stack, so nxrt_run_current() returns it until it ends; the caller owns
 * it until nxrt_run_end. Returns NULL when runtime is NULL. Runs are
 * independent: any number may be active on different threads, and a handler
 * may begin a nested run on its own thread. Thread-safe. */
NXRT_API nxrt_run_t *nxrt_run_begin(nxrt_runtime_t *runtime,
                                    const nxrt_run_options_t *options);

/* Innermost run begun and not yet ended on the calling thread, or NULL.
 * Thread-safe (thread-local). */
NXRT_API nxrt_run_t *nxrt_run_current(void);

/* Nonzero once `run` has failed; 0 while it has not, and for NULL. Compiled
 * code calls it after each call of a function that may have stopped on a
 * failure, so that it stops too. Thread-safe; no ownership involved. */
NXRT_API int32_t nxrt_run_failed(const nxrt_run_t *run);

/* First failure of the run (NULL if none) without ending it. The caller
 * owns the returned copy. Thread-safe. */
NXRT_API nxrt_status_t *nxrt_run_status(const nxrt_run_t *run);

/* Ends and frees the run, removing it from the calling thread's run stack,
 * and returns its first failure (caller-owned) or NULL. Must be called on
 * the thread that began the run, after every invocation on it returned.
 * After a failure it also frees every heap buffer compiled code allocated
 * during the run and had not freed (see "Failures in compiled code"). */
NXRT_API nxrt_status_t *nxrt_run_end(nxrt_run_t *run);

/* Failures in compiled code.
 *
 * Code produced by nx-lower-to-cpu stops at the first failure: when
 * nxrt_invoke returns a status, the function making the call returns at
 * once, and so does every compiled caller up to the entry point (each checks
 * nxrt_run_failed after a call). No loop iterates again and no other host
 * call is made. Functions that stopped this way return all-zero values: a
 * memref result has NULL pointers and zero sizes, and must not be read or
 * freed. The host learns what failed from nxrt_run_end, whose message names
 * the callback (or target, or stream) and the op's file:line:col. Heap
 * buffers the code had allocated are freed by nxrt_run_end, so a failed run
 * leaks nothing and the process goes on working.
 *
 * A heap allocation that fails stops the code the same way: compiled code
 * checks every buffer it allocates and reports a NULL one through
 * nxrt_out_of_memory, which fails the run with RESOURCE_EXHAUSTED naming
 * the size and the op's file:line:col.
 *
 * The run's deadline is checked by every nxrt_invoke, so a compiled loop
 * that keeps calling the host past it stops with a DEADLINE_EXCEEDED failure
 * at its next call. Compiled code that makes no host call is not
 * interrupted. */

/* Invokes `site` within `run`. Returns NULL on success; on failure records
 * the first failure in the run and returns a caller-owned status whose
 * message names the op, e.g. "callback @name at f.mlir:12:5 failed: ...",
 * "... timed out after 100 ms", "unknown callback @name at ...". Once the
 * run has failed, returns ABORTED at once without invoking anything. Views
 * are borrowed for the duration of the call; results are preallocated by the
 * caller. The inline path neither allocates nor compares strings.
 * Thread-safe: several threads may invoke sites of the same run. */
NXRT_API nxrt_status_t *nxrt_invoke(nxrt_run_t *run, nxrt_site_t *site,
                                    const nxrt_tensor_t *args, size_t nargs,
                                    nxrt_tensor_t *results, size_t nresults);

/* Compiled code's failure path, called once with the non-NULL status
 * nxrt_invoke returned; takes ownership of `status` and frees it. When `run`
 * is NULL the code is running outside any run (for example a lowered module
 * under a generic JIT runner): nothing would ever see the failure and the
 * results were never written, so this prints the status's message to stderr
 * and aborts the process instead of returning. Thread-safe. */
NXRT_API void nxrt_invoke_failed(nxrt_run_t *run, nxrt_status_t *status);

/* Compiled code's report of a heap allocation of `bytes` bytes that failed,
 * at the op `location` ("file:line:col", a static string; NULL reads as
 * "unknown location"): records RESOURCE_EXHAUSTED, "out of memory at
 * <location>: cannot allocate a buffer of <bytes> bytes", as the run's
 * failure unless it already has one. The code then stops as after a failed
 * nxrt_invoke. Allocations inside a parallel region report from a worker
 * thread. With a NULL `run` (outside any run) nothing would see the
 * failure, so this prints the message to stderr and aborts the process.
 * Thread-safe. */
NXRT_API void nxrt_out_of_memory(nxrt_run_t *run, uint64_t bytes,
                                 const char *location);

/*===----------------------------------------------------------------------===*
 * Tracing host calls
 *===----------------------------------------------------------------------===*/

/* One finished host call (callback, custom call or stream operation), as a
 * tracer sees it. Everything is valid only for the duration of the tracer
 * call. Calls skipped because the run had already failed or was past its
 * deadline are not traced.
 *  - name:     callback or custom-call target name (without '@'); the
 *              site's name for stream operations.
 *  - location: the op's source location, e.g. "model.mlir:12:5".
 *  - what:     the op as failure messages name it, e.g.
 *              "callback @log at model.mlir:12:5".
 *  - kind:     the site's kind.
 *  - dispatch: how the call ran: "inline" (on the compute thread),
 *              "bridge" (through the host's dispatcher; the duration
 *              includes the wait for the reply), "stream" (an outfeed or
 *              infeed; an infeed's duration includes the wait for its
 *              value) or "unbound" (an optional hook with no handler:
 *              nothing ran).
 *  - duration_ns: wall time from dispatch to return.
 *  - code:     NXRT_OK, or the failure's code.
 *  - run:      the run the call belongs to. */
typedef struct nxrt_trace_event_t {
  const char *name;
  const char *location;
  const char *what;
  nxrt_site_kind_t kind;
  const char *dispatch;
  int64_t duration_ns;
  nxrt_status_code_t code;
  nxrt_run_t *run;
} nxrt_trace_event_t;

/* Receives each traced call, on the thread that made it (any compute
 * thread, concurrently), after the call returned and before compiled code
 * goes on. Must not fail, block for long or invoke sites. */
typedef void (*nxrt_trace_fn)(void *user_data,
                              const nxrt_trace_event_t *event);

/* Installs `fn` (NULL: none) as the runtime's tracer, replacing the
 * previous one, for runs begun after the call; runs in progress keep the
 * tracer they began with, so `user_data` must stay valid until they end.
 * Without a tracer and without the trace log, nxrt_invoke measures
 * nothing: tracing costs only runs that have it. No-op for a NULL runtime.
 * Thread-safe. */
NXRT_API void nxrt_runtime_set_tracer(nxrt_runtime_t *runtime,
                                      nxrt_trace_fn fn, void *user_data);

/* Turns the trace log on (nonzero) or off, for runs begun after the call:
 * one line per traced call on stderr, written in one piece, e.g.
 *   nxrt: trace: io_callback @log at m.mlir:4:9: inline, 12.5 us
 *   nxrt: trace: callback @f at m.mlir:7:3: bridge, 1.02 ms, failed: INTERNAL
 * A runtime starts with the log on when the environment variable
 * NXRT_TRACE is set to anything but "" or "0" at nxrt_runtime_create, so
 * any host can be traced without a change. The log and a tracer work
 * independently. No-op for a NULL runtime. Thread-safe. */
NXRT_API void nxrt_runtime_set_trace_log(nxrt_runtime_t *runtime,
                                         int32_t enabled);

/* The name of a site kind as the dialect spells it: "elixir_call",
 * "io_callback", "custom_call", "outfeed", "infeed" ("io_callback" for an
 * optional one), or "unknown". The string is static. Thread-safe. */
NXRT_API const char *nxrt_site_kind_name(nxrt_site_kind_t kind);

/* The heap allocator of compiled code: nx-lower-to-cpu lowers memref
 * allocations to MLIR's generic allocation functions
 * (finalize-memref-to-llvm{use-generic-functions=1}), defined here as
 * malloc, aligned_alloc (alignment, size) and free, plus a record in the
 * calling thread's current run that lets nxrt_run_end free what a failed
 * run left behind. Outside a run they are the plain libc functions.
 * Buffers are compatible with free(). Thread-safe; a buffer allocated in a
 * run and released through _mlir_memref_to_llvm_free must be released on
 * that run's thread before the run ends (compiled code does), or the failed
 * run would free it again. */
NXRT_API void *_mlir_memref_to_llvm_alloc(size_t size);
NXRT_API void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                  size_t size);
NXRT_API void _mlir_memref_to_llvm_free(void *ptr);

/* Copies the elements of one strided memref into another of the same shape
 * and element type: the `memrefCopy` of MLIR's CRunnerUtils, with its ABI,
 * which is what memref.copy between non-contiguous memrefs lowers to.
 * `source` and `destination` each point to an unranked memref descriptor
 * {int64_t rank; void *descriptor}, `descriptor` to a ranked one
 * {T *allocated, T *aligned, int64_t offset, int64_t sizes[rank],
 * int64_t strides[rank]}; `element_size` is in bytes. Nothing is copied
 * when a size is 0. Neither buffer is owned or freed; they must not
 * overlap. Thread-safe (no state). */
NXRT_API void nxrt_memref_copy(int64_t element_size, void *source,
                               void *destination);

/*===----------------------------------------------------------------------===*
 * Bridge dispatch (host side)
 *
 * A bridge call becomes a request with a unique reply tag. A call of a
 * callback bound BRIDGE is handed to the hook if one is installed (on the
 * compute thread, like enif_send from a NIF), else queued for
 * nxrt_bridge_pull; a call of a callback bound INLINE that the run routes
 * through the bridge (nxrt_runtime_set_callback_dispatch) is always queued
 * for nxrt_bridge_pull. The compute thread then waits until
 * nxrt_bridge_reply(tag) or the deadline: it spins while recent replies
 * came quickly (at most 200 us per call, and not at all while the machine
 * has more runnable threads than CPUs), then parks. A puller with nothing
 * to pull spins at most a few microseconds before it parks.
 *===----------------------------------------------------------------------===*/

/* Called once per request of a callback bound BRIDGE (never for routed
 * inline callbacks), on the compute thread, with a request reference the
 * hook owns (release it with nxrt_request_release). Keep it short: queue
 * the request, send a message, or reply right away. */
typedef void (*nxrt_bridge_hook_fn)(void *user_data, nxrt_request_t *request);

/* Installs the hook (fn == NULL returns to pull mode), one per runtime: it
 * replaces any hook installed before. Requests issued after the call use
 * the new setting. Thread-safe. */
NXRT_API void nxrt_bridge_set_hook(nxrt_runtime_t *runtime,
                                   nxrt_bridge_hook_fn fn, void *user_data);

/* Waits up to timeout_ms (<= 0: forever) for the next queued request: a
 * call of a callback bound BRIDGE while no hook is installed, or of a
 * routed inline callback. Returns NULL and stores a request reference the
 * caller owns in *out, or DEADLINE_EXCEEDED (*out = NULL) when none
 * arrived, or CANCELLED once the bridge is closed. Requests come out in
 * the order they were issued; those that expired while queued are
 * skipped. Thread-safe: several dispatcher threads may pull. */
NXRT_API nxrt_status_t *nxrt_bridge_pull(nxrt_runtime_t *runtime,
                                         int64_t timeout_ms,
                                         nxrt_request_t **out);

/* Answers request `tag`. `status` (NULL = success) is consumed. On success
 * `results` must match the request's declared results exactly (count, dtype,
 * dims); their data is copied into the program's output buffers. A mismatch
 * fails the call with "expected the elixir_call function to match the given
 * output template (tensor<2xf32>), got (tensor<3xf32>)" and returns that
 * error to the replier too. A reply for an unknown, already answered or
 * expired tag changes nothing and returns NOT_FOUND / DEADLINE_EXCEEDED.
 * Thread-safe; may be called from any thread, including inside the hook. */
NXRT_API nxrt_status_t *nxrt_bridge_reply(nxrt_runtime_t *runtime, uint64_t tag,
                                          nxrt_status_t *status,
                                          const nxrt_tensor_t *results,
                                          size_t nresults);

/* Closes the bridge: wakes pullers (CANCELLED), fails every pending request
 * ("bridge dispatcher closed") and makes later bridge calls fail at once.
 * Idempotent. Thread-safe. */
NXRT_API void nxrt_bridge_close(nxrt_runtime_t *runtime);

/* Request accessors. Metadata (tag, names, dtypes, dims, attrs) stays valid
 * until the request is released. Argument DATA pointers returned by
 * nxrt_request_arg point into the program's buffers and are valid only while
 * the request is pending (before it is answered or its deadline passes);
 * nxrt_request_copy_arg is safe at any time. All are thread-safe. */
NXRT_API uint64_t nxrt_request_tag(const nxrt_request_t *request);
NXRT_API nxrt_site_kind_t nxrt_request_kind(const nxrt_request_t *request);
NXRT_API const char *nxrt_request_name(const nxrt_request_t *request);
NXRT_API const char *nxrt_request_location(const nxrt_request_t *request);
NXRT_API const nxrt_attrs_t *nxrt_request_attrs(const nxrt_request_t *request);
NXRT_API size_t nxrt_request_num_args(const nxrt_request_t *request);
/* Argument view, or NULL when out of range. */
NXRT_API const nxrt_tensor_t *nxrt_request_arg(const nxrt_request_t *request,
                                               size_t i);
/* Copies argument i into dst (capacity dst_len bytes, must be >= its byte
 * size). DEADLINE_EXCEEDED once the request is no longer pending,
 * OUT_OF_RANGE / INVALID_ARGUMENT for a bad index or short buffer. */
NXRT_API nxrt_status_t *nxrt_request_copy_arg(const nxrt_request_t *request,
                                              size_t i, void *dst,
                                              size_t dst_len);
NXRT_API size_t nxrt_request_num_results(const nxrt_request_t *request);
/* Declared result i (dtype/rank/dims; data is NULL), or NULL. */
NXRT_API const nxrt_tensor_t *
nxrt_request_result_template(const nxrt_request_t *request, size_t i);
/* Drops the caller's reference. NULL is a no-op. */
NXRT_API void nxrt_request_release(nxrt_request_t *request);

/* Serves `request` on the calling thread with the handler its callback is
 * bound to (see nxrt_runtime_set_callback_dispatch), then answers it. The
 * handler sees what an inline call would - arguments, attributes, name,
 * location - except that the arguments are copies (the compute thread stops
 * waiting at its deadline and may then free its buffers while the handler
 * still runs) and `call->run` is a run of the same runtime begun on the
 * calling thread for this call. Its results are written to buffers owned
 * by this function and copied into the program's on success; a failure is
 * answered as the handler's status.
 * Returns NULL once the answer was delivered; DEADLINE_EXCEEDED (handler
 * not run) or NOT_FOUND when the request was no longer pending; and
 * FAILED_PRECONDITION, leaving the request unanswered, when the callback is
 * bound BRIDGE and has no handler - the caller answers it with
 * nxrt_bridge_reply. Does not release the request. Thread-safe: several
 * threads may serve different requests at once. */
NXRT_API nxrt_status_t *nxrt_request_serve(nxrt_request_t *request);

/*===----------------------------------------------------------------------===*
 * Streams (docs/Design.md, "Streams")
 *
 * A named stream has an infeed queue (host -> program) and an outfeed queue
 * (program -> host). Compiled code refers to a stream by a handle: a ui8
 * tensor holding
 *   bytes 0..3  magic "NXSH"
 *   byte  4     NXRT_STREAM_HANDLE_VERSION
 *   bytes 5..7  zero
 *   bytes 8..11 u32 little-endian name length L (1..NXRT_STREAM_NAME_MAX)
 *   bytes 12..  L bytes of UTF-8 name (no NUL)
 * i.e. a tensor<(12+L)xui8>, usually an embedded constant. The runtime
 * validates every byte before use; bad handles fail the run.
 *
 * The infeed tag is a tensor<8xui8> holding a u64 little-endian sequence
 * number; each infeed returns tag + 1, so threading the tag from one infeed
 * into the next orders them by data dependency.
 *===----------------------------------------------------------------------===*/

#define NXRT_STREAM_HANDLE_MAGIC "NXSH"
#define NXRT_STREAM_HANDLE_VERSION 1
#define NXRT_STREAM_HANDLE_HEADER_SIZE 12
#define NXRT_STREAM_NAME_MAX 4096
#define NXRT_STREAM_TAG_SIZE 8

/* Encodes the handle for `name` into out (capacity out_len). Returns the
 * handle's size; writes only when out_len is large enough (call with
 * out == NULL to size). Returns 0 for an invalid name (NULL, empty, longer
 * than NXRT_STREAM_NAME_MAX). Thread-safe. */
NXRT_API size_t nxrt_stream_handle_encode(const char *name, uint8_t *out,
                                          size_t out_len);

/* Opens stream `name` (copied). ALREADY_EXISTS when an open stream has that
 * name. The caller owns the handle (nxrt_stream_destroy). Thread-safe. */
NXRT_API nxrt_status_t *nxrt_stream_open(nxrt_runtime_t *runtime,
                                         const char *name, nxrt_stream_t **out);

/* Closes the stream: the name is unregistered (free for reuse), blocked
 * infeeds and pops wake with an error, later pushes and infeeds/outfeeds
 * fail; outfeed values already queued can still be popped. Idempotent.
 * Thread-safe. */
NXRT_API void nxrt_stream_close(nxrt_stream_t *stream);

/* Closes (if open) and frees the caller's handle. NULL is a no-op. */
NXRT_API void nxrt_stream_destroy(nxrt_stream_t *stream);

/* Ends the stream's infeed: its host will push no more values. Those
 * already queued are still consumed, in order; after them an infeed of the
 * stream fails the run at once with OUT_OF_RANGE ("no more infeed values on
 * stream 's': the host ended its infeed after 2 value(s)") instead of
 * waiting for a value that cannot come, and infeeds already waiting wake
 * with that error. Later pushes fail with FAILED_PRECONDITION. The name
 * stays registered and the outfeed side is unaffected (outfeeds and
 * nxrt_stream_pop_outfeed work as before); nxrt_stream_close still closes
 * the stream. A host calls it once it knows nothing else will feed the
 * stream: only it holds the handle, and it has pushed everything it had
 * (nx-runner after its --infeed values). Idempotent, irreversible; NULL is
 * a no-op. Does not take ownership of `stream`. Thread-safe, including
 * with pushes and infeeds on other threads. */
NXRT_API void nxrt_stream_end_infeed(nxrt_stream_t *stream);

/* Queues one infeed value made of `n` tensors (data copied; an infeed site
 * consumes one whole value). FAILED_PRECONDITION if closed. Thread-safe. */
NXRT_API nxrt_status_t *nxrt_stream_push_infeed(nxrt_stream_t *stream,
                                                const nxrt_tensor_t *values,
                                                size_t n);

/* Waits up to timeout_ms (<= 0: forever) for the next outfeed value; stores
 * a caller-owned value in *out. DEADLINE_EXCEEDED when none arrived,
 * FAILED_PRECONDITION when closed and drained. Thread-safe. */
NXRT_API nxrt_status_t *nxrt_stream_pop_outfeed(nxrt_stream_t *stream,
                                                int64_t timeout_ms,
                                                nxrt_value_t **out);

/* Number of values waiting in each queue. Thread-safe. */
NXRT_API size_t nxrt_stream_infeed_size(const nxrt_stream_t *stream);
NXRT_API size_t nxrt_stream_outfeed_size(const nxrt_stream_t *stream);

/* An owned list of tensors popped from an outfeed, immutable until freed:
 * the accessors are thread-safe, nxrt_value_free is not (with respect to
 * other uses of the same value). */
NXRT_API size_t nxrt_value_size(const nxrt_value_t *value);
/* Tensor i (views into the value's storage), NULL when out of range. */
NXRT_API const nxrt_tensor_t *nxrt_value_tensor(const nxrt_value_t *value,
                                                size_t i);
NXRT_API void nxrt_value_free(nxrt_value_t *value);

/*===----------------------------------------------------------------------===*
 * Contractions of compiled code
 *
 * nx-lower-to-cpu turns linalg.matmul, batch_matmul and matvec on f32 and
 * f64 buffers into calls of these. f32 runs on oneDNN's GEMM, whose kernels
 * are chosen by the instruction sets the CPU reports at run time (AVX2,
 * AVX-512, ...), never by a table of CPU models; f64 runs on the CBLAS
 * libnxrt links (OpenBLAS where installed):
 *
 *   C[i] += A[i] B[i]   for i in [0, batch), when accumulate != 0
 *   C[i]  = A[i] B[i]   when accumulate == 0 (C's prior contents, NaNs
 *                       included, are never read)
 *
 * A[i] is m x k, B[i] is k x n and C[i] is m x n, starting batch_stride_x * i
 * elements after x. Element (r, c) of A is at a[r * a_rows + c * a_cols]
 * (strides in elements, like B and C): row-major, column-major and strided
 * views are all accepted. A column-major C runs as the row-major product
 * C^T = B^T A^T, and a single row or column (a matrix-vector product's
 * vector and result, whatever their other stride) as a row-major operand.
 * Layouts BLAS cannot take (a zero or overlapping stride, sizes beyond its
 * 32-bit integers, a column-major C with a bias and ReLU) are served by a
 * plain loop, so every valid memref gets the right result, many times more
 * slowly. C must not overlap A or B.
 *
 * nxrt_gemm_part_* computes part `part` of `parts` of the same product, for
 * 0 <= part < parts (other values compute nothing): compiled code forks an
 * OpenMP team of nxrt_compute_threads() threads for a large product and
 * has each thread compute one part. The parts cut the batches' rows into
 * equal ranges (whole batches when `parts` divides `batch`), or the
 * columns when there are fewer than 16 rows per part; no two parts write
 * the same element of C, and together they compute the whole product.
 *
 * Every call runs on the calling thread alone: oneDNN is called with a team
 * size of one, and the first call sets OpenBLAS to one thread
 * (openblas_set_num_threads(1)) for the whole process, LAPACK calls
 * included. The compute team is the only pool of threads; the libraries'
 * own workers, which spin between calls, would take the cores the team's
 * loop nests need. Thread-safe: calls may run
 * concurrently, on disjoint parts of C.
 *===----------------------------------------------------------------------===*/

/* The most threads compiled compute uses. OpenMP aborts the process when
 * the system refuses it a thread, as it does long before a million. */
#define NXRT_MAX_COMPUTE_THREADS 4096

/* Threads compiled compute may use: n >= 1 threads (at most
 * NXRT_MAX_COMPUTE_THREADS; more count as that many), or 0 for one per core
 * (the default). Applies to the whole process, every runtime and program
 * in it, from the next contraction or parallel loop nest on: each parallel
 * loop nest and each large contraction of nx-lower-to-cpu (OpenMP) forks a
 * team of nxrt_compute_threads() threads. Thread-safe. */
NXRT_API void nxrt_set_compute_threads(int n);
/* The number set by nxrt_set_compute_threads, resolved (0 reads as the
 * number of cores). Compiled parallel loop nests call it for their team
 * size. Thread-safe. */
NXRT_API int nxrt_compute_threads(void);

/* Compiles oneDNN's GEMM kernels for this CPU now instead of at the first f32
 * product, which would take tens of milliseconds longer than later ones
 * (about 40 ms on a virtual machine): __nx_init of a program with f32
 * products calls it, so the program's first run costs about what later runs
 * cost. Runs once per process; later calls return at once. Thread-safe. */
NXRT_API void nxrt_gemm_prepare(void);

/* Gives the calling thread and each thread of the compute team the buffers
 * that products of `dtype` operands (NXRT_BF16, NXRT_F16 or NXRT_I8:
 * nxrt_gemm_bf16_f32, nxrt_gemm_f16_f32, nxrt_gemm_i8_i32) widen their
 * operands into: `a_floats` and `b_floats` for A and B, `c_elements` for
 * the sums of an i8 product's runs. Writes them, so that the first product
 * finds their pages mapped instead of faulting them in (about 3 ms for a
 * 512x512x512 product on a virtual machine). Buffers already as large are
 * kept as they are. Maps nothing such a product does not use on this CPU:
 * bf16 products run on oneDNN's bf16 kernels where it has them, and i8
 * products on its int8 kernels where those are exact (AVX-512 VNNI, AMX),
 * which then use only `c_elements` (the sums of a product added to C);
 * other dtypes map nothing. __nx_init of a program with such products of
 * constant sizes calls it once per dtype, with the largest. Thread-safe. */
NXRT_API void nxrt_gemm_prepare_widened(nxrt_dtype_t dtype, int64_t a_floats,
                                        int64_t b_floats, int64_t c_elements);

/* Gives the calling thread and each thread of the compute team the buffer
 * for the copy of B with padded rows that f32 products take on CPUs whose
 * f32 GEMM reads a small product's B in place (AVX2 without AVX-512): a B
 * whose rows lie a multiple of 1 KiB apart would make that GEMM's reads
 * conflict in the cache. `b_floats` floats, at most 2^21 (8 MiB; larger
 * copies are never made). Writes it, so that the first product finds its
 * pages mapped. Does nothing on other CPUs. __nx_init of a program with
 * such products of constant sizes calls it with the largest. Thread-safe. */
NXRT_API void nxrt_gemm_prepare_padded(int64_t b_floats);

/* Makes now the oneDNN kernels that the first nxrt_gemm_bf16_f32 of these
 * sizes and strides (`shared` 0), or the first parts of nxrt_gemm_part_bf16_f32
 * on a team of nxrt_compute_threads() threads (`shared` nonzero), would make,
 * so that the program's first run costs about what later runs cost: it
 * runs that product once, part after part on the calling thread, on zeros
 * of its own. Does nothing where the CPU has no bf16 kernels (the product
 * then widens its operands, see nxrt_gemm_prepare_widened), where a stride
 * is negative, or where an operand would span more than 2^22 elements (the
 * kernel's making is then small next to the product). A failed allocation
 * makes nothing. A team of another size makes its parts' kernels at their
 * first call. __nx_init calls it for every product of constant sizes and
 * strides. Thread-safe; no ownership involved. */
NXRT_API void nxrt_gemm_prepare_bf16_f32(
    int64_t shared, int64_t batch, int64_t m, int64_t n, int64_t k,
    int64_t batch_stride_a, int64_t a_rows, int64_t a_cols,
    int64_t batch_stride_b, int64_t b_rows, int64_t b_cols,
    int64_t batch_stride_c, int64_t c_rows, int64_t c_cols, int64_t accumulate);

/* The same for nxrt_gemm_i8_i32 and nxrt_gemm_part_i8_i32, on CPUs whose
 * oneDNN int8 kernels are exact (AVX-512 VNNI, AMX). Thread-safe. */
NXRT_API void nxrt_gemm_prepare_i8_i32(
    int64_t shared, int64_t batch, int64_t m, int64_t n, int64_t k,
    int64_t batch_stride_a, int64_t a_rows, int64_t a_cols,
    int64_t batch_stride_b, int64_t b_rows, int64_t b_cols,
    int64_t batch_stride_c, int64_t c_rows, int64_t c_cols, int64_t accumulate);

/* Starts the OpenMP team of nxrt_compute_threads() threads that compiled
 * parallel loop nests and products run on, instead of in the program's
 * first parallel region: __nx_init of a program with parallel loop nests
 * calls it. The threads stay for later regions; a later, larger
 * nxrt_set_compute_threads starts the others at the next region.
 * Thread-safe. */
NXRT_API void nxrt_threads_prepare(void);

/* Faults in twice `bytes` (at most 64 MiB) of the calling thread's malloc
 * heap and gives them back to it, so that the buffers a program's first run
 * allocates, and the libraries' workspaces, find their pages mapped instead
 * of faulting them in one by one (on a virtual machine, about 12 us a
 * page). __nx_init calls it with the most heap memory the compiled code
 * holds at once, estimated from its static allocations. The pages stay mapped under the heap settings of
 * nxrt_runtime_create; they serve runs on the calling thread, whose heap
 * (glibc arena) they belong to. Does nothing with a C library other than
 * glibc. Thread-safe. */
NXRT_API void nxrt_heap_prepare(uint64_t bytes);

NXRT_API void nxrt_gemm_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                            const float *a, int64_t batch_stride_a,
                            int64_t a_rows, int64_t a_cols, const float *b,
                            int64_t batch_stride_b, int64_t b_rows,
                            int64_t b_cols, float *c, int64_t batch_stride_c,
                            int64_t c_rows, int64_t c_cols, int64_t accumulate);
NXRT_API void nxrt_gemm_f64(int64_t batch, int64_t m, int64_t n, int64_t k,
                            const double *a, int64_t batch_stride_a,
                            int64_t a_rows, int64_t a_cols, const double *b,
                            int64_t batch_stride_b, int64_t b_rows,
                            int64_t b_cols, double *c, int64_t batch_stride_c,
                            int64_t c_rows, int64_t c_cols, int64_t accumulate);
NXRT_API void nxrt_gemm_part_f32(int64_t part, int64_t parts, int64_t batch,
                                 int64_t m, int64_t n, int64_t k,
                                 const float *a, int64_t batch_stride_a,
                                 int64_t a_rows, int64_t a_cols,
                                 const float *b, int64_t batch_stride_b,
                                 int64_t b_rows, int64_t b_cols, float *c,
                                 int64_t batch_stride_c, int64_t c_rows,
                                 int64_t c_cols, int64_t accumulate);
NXRT_API void nxrt_gemm_part_f64(int64_t part, int64_t parts, int64_t batch,
                                 int64_t m, int64_t n, int64_t k,
                                 const double *a, int64_t batch_stride_a,
                                 int64_t a_rows, int64_t a_cols,
                                 const double *b, int64_t batch_stride_b,
                                 int64_t b_rows, int64_t b_cols, double *c,
                                 int64_t batch_stride_c, int64_t c_rows,
                                 int64_t c_cols, int64_t accumulate);

/* Products of bf16 operands into f32, as linalg.matmul of bf16 into f32
 * computes them: each product exact in f32, summed in f32 (in an order of
 * the kernel's). A and B hold bf16's bits (the upper half of an f32's), C
 * holds f32; sizes, strides, parts and `accumulate` as nxrt_gemm_f32 and
 * nxrt_gemm_part_f32. Where the CPU has bf16 instructions (AVX-512 BF16,
 * AMX) they run on oneDNN's bf16 kernels, made for each shape and layout
 * at its first call and kept; those instructions read a subnormal bf16
 * operand as a zero of its sign, as PyTorch's products on such CPUs do.
 * Elsewhere both operands are widened to f32 in the calling thread's
 * buffers and run on oneDNN's f32 GEMM, subnormals included.
 * Thread-safe like nxrt_gemm_part_f32. */
NXRT_API void nxrt_gemm_bf16_f32(int64_t batch, int64_t m, int64_t n,
                                 int64_t k, const uint16_t *a,
                                 int64_t batch_stride_a, int64_t a_rows,
                                 int64_t a_cols, const uint16_t *b,
                                 int64_t batch_stride_b, int64_t b_rows,
                                 int64_t b_cols, float *c,
                                 int64_t batch_stride_c, int64_t c_rows,
                                 int64_t c_cols, int64_t accumulate);
NXRT_API void nxrt_gemm_part_bf16_f32(
    int64_t part, int64_t parts, int64_t batch, int64_t m, int64_t n,
    int64_t k, const uint16_t *a, int64_t batch_stride_a, int64_t a_rows,
    int64_t a_cols, const uint16_t *b, int64_t batch_stride_b, int64_t b_rows,
    int64_t b_cols, float *c, int64_t batch_stride_c, int64_t c_rows,
    int64_t c_cols, int64_t accumulate);

/* Products of f16 operands into f32, as linalg.matmul of f16 into f32
 * computes them: each product exact in f32, summed in f32 (in an order of
 * the kernel's). A and B hold IEEE half-precision bits, C holds f32; sizes,
 * strides, parts and `accumulate` as nxrt_gemm_f32 and nxrt_gemm_part_f32.
 * Both operands are widened to f32 (exact; with F16C where the CPU has it)
 * in the calling thread's buffers and run on oneDNN's f32 GEMM.
 * Thread-safe like nxrt_gemm_part_f32. */
NXRT_API void nxrt_gemm_f16_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                                const uint16_t *a, int64_t batch_stride_a,
                                int64_t a_rows, int64_t a_cols,
                                const uint16_t *b, int64_t batch_stride_b,
                                int64_t b_rows, int64_t b_cols, float *c,
                                int64_t batch_stride_c, int64_t c_rows,
                                int64_t c_cols, int64_t accumulate);
NXRT_API void nxrt_gemm_part_f16_f32(
    int64_t part, int64_t parts, int64_t batch, int64_t m, int64_t n,
    int64_t k, const uint16_t *a, int64_t batch_stride_a, int64_t a_rows,
    int64_t a_cols, const uint16_t *b, int64_t batch_stride_b, int64_t b_rows,
    int64_t b_cols, float *c, int64_t batch_stride_c, int64_t c_rows,
    int64_t c_cols, int64_t accumulate);

/* Products of i8 operands into i32, as linalg.matmul of i8 into i32
 * computes them: operands sign-extended, products and sums wrapping in
 * i32; sizes, strides, parts and `accumulate` as nxrt_gemm_f32. They run
 * on oneDNN's f32 GEMM of the operands widened to f32 in the calling
 * thread's buffers, 1024 steps of the reduction at a time (whose sums f32
 * holds exactly), the runs' sums added in i32: exact on every CPU.
 * Thread-safe like nxrt_gemm_part_f32. */
NXRT_API void nxrt_gemm_i8_i32(int64_t batch, int64_t m, int64_t n, int64_t k,
                               const int8_t *a, int64_t batch_stride_a,
                               int64_t a_rows, int64_t a_cols, const int8_t *b,
                               int64_t batch_stride_b, int64_t b_rows,
                               int64_t b_cols, int32_t *c,
                               int64_t batch_stride_c, int64_t c_rows,
                               int64_t c_cols, int64_t accumulate);
NXRT_API void nxrt_gemm_part_i8_i32(
    int64_t part, int64_t parts, int64_t batch, int64_t m, int64_t n,
    int64_t k, const int8_t *a, int64_t batch_stride_a, int64_t a_rows,
    int64_t a_cols, const int8_t *b, int64_t batch_stride_b, int64_t b_rows,
    int64_t b_cols, int32_t *c, int64_t batch_stride_c, int64_t c_rows,
    int64_t c_cols, int64_t accumulate);

/* nxrt_gemm_part_f32, then an epilogue on each element of C the part
 * computed, while it is still in the calling core's cache:
 *
 *   C[i][r, c] = C[i][r, c] + bias[c * bias_stride]   when bias != NULL
 *   C[i][r, c] = maximum(C[i][r, c], +0.0)            when relu != 0
 *
 * in that order, after the product (and after `accumulate` added the old C:
 * the sums are the ones a separate elementwise pass would make). The maximum
 * is IEEE's `maximum`, like arith.maximumf: a NaN stays a NaN and -0.0
 * becomes +0.0. Compiled code calls it with part 0 of 1 for a product it
 * does not share. Thread-safe like nxrt_gemm_part_f32; `bias` is only read
 * and must not overlap C. */
NXRT_API void nxrt_gemm_part_epilogue_f32(
    int64_t part, int64_t parts, int64_t batch, int64_t m, int64_t n,
    int64_t k, const float *a, int64_t batch_stride_a, int64_t a_rows,
    int64_t a_cols, const float *b, int64_t batch_stride_b, int64_t b_rows,
    int64_t b_cols, float *c, int64_t batch_stride_c, int64_t c_rows,
    int64_t c_cols, int64_t accumulate, const float *bias,
    int64_t bias_stride, int64_t relu);

/*===----------------------------------------------------------------------===*
 * Convolutions of compiled code
 *
 * nx-lower-to-cpu turns f32 linalg.conv_2d_nhwc_hwcf, conv_2d_nhwc_fhwc,
 * conv_2d_nchw_fchw, depthwise_conv_2d_nhwc_hwc and the grouped
 * conv_2d_ngchw_gfchw and conv_2d_nhwgc_gfhwc on buffers (and 1-D ones, as
 * 2-D ones one row high) into calls of this, which runs oneDNN's
 * convolution (libnxrt links libdnnl):
 *
 *   acc[n, g*F + o, y, x] = sum over c < C, ky < KH, kx < KW of
 *       in[n, g*C + c, y*stride_h + ky*dilation_h - pad_top,
 *                      x*stride_w + kx*dilation_w - pad_left]
 *       * filter[g, o, c, ky, kx]
 *   out = acc (+ out, with NXRT_CONV2D_ACCUMULATE) (+ bias[channel])
 *   out = max(out, 0)                              (with NXRT_CONV2D_RELU)
 *
 * for n < batch, g < groups, o < F = out_channels, y < out_h, x < out_w,
 * with C = in_channels (both per group). Rows and columns of `in` outside
 * [0, height) x [0, width) read as zeros: `pad_top` and `pad_left` are
 * zero padding before the input (compiled code folds a zero tensor.pad in
 * here), and whatever the output reaches past its last row or column. A
 * `flags` of 0 writes over `out`; NXRT_CONV2D_ACCUMULATE adds to it
 * (linalg's semantics; compiled code drops a zero fill of the output and
 * passes 0). `bias` (NULL for none; element stride `bias_c`) and the ReLU
 * are an elementwise op that followed the convolution in place. Each
 * operand's element strides are given per dimension in the order of its
 * indices above (in: n, channel, row, column; filter: g, o, c, ky, kx; out:
 * n, channel, row, column), so NHWC, NCHW and every filter layout are the
 * same call. `out` must not overlap `in`, `filter` or `bias`.
 *
 * oneDNN's kernels are chosen and compiled once per shape, layout, padding,
 * flags and thread count, and kept for the process (at most 256; the cache
 * is emptied past that). The filter is reordered into the kernel's layout;
 * each thread keeps its last reorder per kernel (at most 32) with a copy of
 * the filter's bytes, and reorders again when they differ, so a filter
 * changed in place between calls is seen. A layout oneDNN's direct kernels
 * do not take (NCHW with many channels, which it would run as an im2col
 * copy and a GEMM) goes through theirs: input and output are reordered
 * around the kernel, into buffers the calling thread keeps. Every
 * primitive gets a scratchpad of the calling thread's own, never one shared
 * with other threads. A convolution oneDNN does not take runs as a plain
 * loop instead.
 *
 * Runs on nxrt_compute_threads() threads of the OpenMP runtime oneDNN is
 * bound to (one when called inside a parallel region): it sets the calling
 * thread's omp_set_num_threads for the call and restores it after.
 * Thread-safe: calls may run concurrently, on disjoint outputs. No
 * ownership changes hands.
 *===----------------------------------------------------------------------===*/

enum {
  NXRT_CONV2D_ACCUMULATE = 1,
  NXRT_CONV2D_RELU = 2,
};

NXRT_API void nxrt_conv2d_f32(
    int64_t batch, int64_t groups, int64_t in_channels, int64_t out_channels,
    int64_t height, int64_t width, int64_t kernel_h, int64_t kernel_w,
    int64_t out_h, int64_t out_w, int64_t stride_h, int64_t stride_w,
    int64_t dilation_h, int64_t dilation_w, int64_t pad_top, int64_t pad_left,
    int64_t flags, const float *input, int64_t input_n, int64_t input_c,
    int64_t input_h, int64_t input_w, const float *filter, int64_t filter_g,
    int64_t filter_o, int64_t filter_i, int64_t filter_h, int64_t filter_w,
    const float *bias, int64_t bias_c, float *output, int64_t output_n,
    int64_t output_c, int64_t output_h, int64_t output_w);

/* Chooses and compiles now the oneDNN kernel that nxrt_conv2d_f32 would
 * make at its first call with these sizes, flags and strides, with a bias
 * when `has_bias` is nonzero, on nxrt_compute_threads() threads; that call
 * then costs about what later ones cost. It also grows the calling
 * thread's buffers for the kernel (its scratchpad, and the input and output
 * in the kernel's layout where it has one of its own) and maps their
 * pages, which serves calls on that thread. __nx_init calls it for every
 * convolution of the program whose sizes and strides are constants. The
 * filter's reorder, which needs its values, stays with the first call.
 * Sizes the call would run as a loop or not at all make nothing.
 * Thread-safe; no ownership involved. */
NXRT_API void nxrt_conv2d_prepare_f32(
    int64_t batch, int64_t groups, int64_t in_channels, int64_t out_channels,
    int64_t height, int64_t width, int64_t kernel_h, int64_t kernel_w,
    int64_t out_h, int64_t out_w, int64_t stride_h, int64_t stride_w,
    int64_t dilation_h, int64_t dilation_w, int64_t pad_top, int64_t pad_left,
    int64_t flags, int64_t input_n, int64_t input_c, int64_t input_h,
    int64_t input_w, int64_t filter_g, int64_t filter_o, int64_t filter_i,
    int64_t filter_h, int64_t filter_w, int64_t has_bias, int64_t output_n,
    int64_t output_c, int64_t output_h, int64_t output_w);

/*===----------------------------------------------------------------------===*
 * Built-in linear algebra custom-call targets
 *
 * Registered on every runtime by nxrt_runtime_create, backed by LAPACK.
 * Leading dimensions are batch dimensions; matrices are row-major.
 *
 * qr_cpu_custom_call_f32 / _f64
 *   args:    A  [..., m, n]
 *   results: Q  [..., m, k], R [..., k, n] with k = min(m, n)  (reduced)
 *            Q  [..., m, m], R [..., m, n]                      (complete)
 *   attrs:   "mode": string, "reduced" (default) or "complete".
 *   Q has orthonormal columns, R is upper triangular, Q R = A.
 *
 * eigh_cpu_custom_call_f32 / _f64
 *   args:    A  [..., n, n] symmetric (only the lower triangle is read)
 *   results: eigenvalues [..., n] ascending, eigenvectors [..., n, n] with
 *            eigenvector j in column j (A v_j = w_j v_j).
 *   attrs:   none.
 *===----------------------------------------------------------------------===*/

#define NXRT_QR_F32_TARGET "qr_cpu_custom_call_f32"
#define NXRT_QR_F64_TARGET "qr_cpu_custom_call_f64"
#define NXRT_EIGH_F32_TARGET "eigh_cpu_custom_call_f32"
#define NXRT_EIGH_F64_TARGET "eigh_cpu_custom_call_f64"

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* NXRT_NXRT_H */
