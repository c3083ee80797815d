/*===- xla_ffi.h - The XLA FFI C ABI, as libnxrt implements it ------------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * XLA's typed foreign-function interface ("XLA FFI", custom calls with
 * api_version = 4) is a C ABI: a handler is a C function taking a call
 * frame, and everything it asks of the runtime goes through a table of
 * function pointers the frame carries. libnxrt implements that table, so a
 * handler library built for XLA (or for JAX, through jax.ffi) runs under nx
 * without a rebuild.
 *
 * This header declares that ABI under XLA's own type and field names, so
 * that handlers written against either header compile against the other.
 * It was written from the published layout of API version 0.3 and updated
 * to 0.4 (jaxlib 0.11), which libnxrt reports; libnxrt also accepts
 * handlers built against 0.1 to 0.3 (see docs/FFI.md for the differences
 * and how they are told apart). 0.4 renamed the execution context to the
 * invoke context and Error_GetMessage to Error_GetDetails: both spellings
 * compile here.
 *
 * The nx-specific entry points (loading handler libraries, execution
 * context data) are in nxrt_ffi.h.
 *
 * ABI rules, as in XLA:
 *  - Every argument struct starts with `struct_size`, set by whoever fills
 *    the struct to the size it knows (the XLA_FFI_*_STRUCT_SIZE constants
 *    below). The callee reads only the fields both sides know: an older
 *    caller's smaller struct is accepted when it holds every field the call
 *    needs, and a newer caller's larger one always is.
 *  - An XLA_FFI_Error returned to a caller is owned by it; handlers hand
 *    theirs to the runtime by returning them.
 *===----------------------------------------------------------------------===*/

#ifndef NXRT_XLA_FFI_H
#define NXRT_XLA_FFI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The size of `type` up to and including `field`. */
#define XLA_FFI_STRUCT_SIZE(type, field)                                       \
  (offsetof(type, field) + sizeof(((type *)0)->field))

#define XLA_FFI_DEFINE_STRUCT_TRAITS(type, last_field)                         \
  typedef struct type type;                                                    \
  enum { type##_STRUCT_SIZE = XLA_FFI_STRUCT_SIZE(type, last_field) }

#define XLA_FFI_API_MAJOR 0
#define XLA_FFI_API_MINOR 4

typedef struct XLA_FFI_Api XLA_FFI_Api;
typedef struct XLA_FFI_InternalApi XLA_FFI_InternalApi;
typedef struct XLA_FFI_Error XLA_FFI_Error;
typedef struct XLA_FFI_ExecutionContext XLA_FFI_ExecutionContext;
/* API 0.4's name for the execution context. */
typedef struct XLA_FFI_ExecutionContext XLA_FFI_InvokeContext;
typedef struct XLA_FFI_Future XLA_FFI_Future;

/*--- Extensions: a linked list hanging off a struct's extension_start ---*/

typedef enum {
  XLA_FFI_Extension_Metadata = 1,
} XLA_FFI_Extension_Type;

typedef struct XLA_FFI_Extension_Base {
  size_t struct_size;
  XLA_FFI_Extension_Type type;
  struct XLA_FFI_Extension_Base *next;
} XLA_FFI_Extension_Base;

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Extension_Base, next);

struct XLA_FFI_Api_Version {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  int major_version;
  int minor_version;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Api_Version, minor_version);

/*--- Errors (codes are absl::StatusCode's) ---*/

typedef enum {
  XLA_FFI_Error_Code_OK = 0,
  XLA_FFI_Error_Code_CANCELLED = 1,
  XLA_FFI_Error_Code_UNKNOWN = 2,
  XLA_FFI_Error_Code_INVALID_ARGUMENT = 3,
  XLA_FFI_Error_Code_DEADLINE_EXCEEDED = 4,
  XLA_FFI_Error_Code_NOT_FOUND = 5,
  XLA_FFI_Error_Code_ALREADY_EXISTS = 6,
  XLA_FFI_Error_Code_PERMISSION_DENIED = 7,
  XLA_FFI_Error_Code_RESOURCE_EXHAUSTED = 8,
  XLA_FFI_Error_Code_FAILED_PRECONDITION = 9,
  XLA_FFI_Error_Code_ABORTED = 10,
  XLA_FFI_Error_Code_OUT_OF_RANGE = 11,
  XLA_FFI_Error_Code_UNIMPLEMENTED = 12,
  XLA_FFI_Error_Code_INTERNAL = 13,
  XLA_FFI_Error_Code_UNAVAILABLE = 14,
  XLA_FFI_Error_Code_DATA_LOSS = 15,
  XLA_FFI_Error_Code_UNAUTHENTICATED = 16
} XLA_FFI_Error_Code;

struct XLA_FFI_Error_Create_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  const char *message;
  XLA_FFI_Error_Code errc;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Error_Create_Args, errc);

typedef XLA_FFI_Error *XLA_FFI_Error_Create(XLA_FFI_Error_Create_Args *args);

struct XLA_FFI_Error_GetDetails_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_Error *error;
  const char *message;     /* out: valid until the error is destroyed */
  XLA_FFI_Error_Code errc; /* out, 0.4 and later */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Error_GetDetails_Args, errc);

typedef void XLA_FFI_Error_GetDetails(XLA_FFI_Error_GetDetails_Args *args);

/* The names before 0.4, which asked for the message only. */
typedef XLA_FFI_Error_GetDetails_Args XLA_FFI_Error_GetMessage_Args;
typedef XLA_FFI_Error_GetDetails XLA_FFI_Error_GetMessage;
#define XLA_FFI_Error_GetMessage_Args_STRUCT_SIZE                              \
  XLA_FFI_STRUCT_SIZE(XLA_FFI_Error_GetDetails_Args, message)

struct XLA_FFI_Error_Destroy_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_Error *error;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Error_Destroy_Args, error);

typedef void XLA_FFI_Error_Destroy(XLA_FFI_Error_Destroy_Args *args);

/*--- Element types (xla::PrimitiveType's numbering) ---*/

typedef enum {
  XLA_FFI_DataType_INVALID = 0,
  XLA_FFI_DataType_PRED = 1,
  XLA_FFI_DataType_S8 = 2,
  XLA_FFI_DataType_S16 = 3,
  XLA_FFI_DataType_S32 = 4,
  XLA_FFI_DataType_S64 = 5,
  XLA_FFI_DataType_U8 = 6,
  XLA_FFI_DataType_U16 = 7,
  XLA_FFI_DataType_U32 = 8,
  XLA_FFI_DataType_U64 = 9,
  XLA_FFI_DataType_F16 = 10,
  XLA_FFI_DataType_F32 = 11,
  XLA_FFI_DataType_F64 = 12,
  XLA_FFI_DataType_C64 = 15,
  XLA_FFI_DataType_BF16 = 16,
  XLA_FFI_DataType_TOKEN = 17,
  XLA_FFI_DataType_C128 = 18,
  XLA_FFI_DataType_F8E5M2 = 19,
  XLA_FFI_DataType_F8E4M3FN = 20,
  XLA_FFI_DataType_S4 = 21,
  XLA_FFI_DataType_U4 = 22,
  XLA_FFI_DataType_F8E4M3B11FNUZ = 23,
  XLA_FFI_DataType_F8E5M2FNUZ = 24,
  XLA_FFI_DataType_F8E4M3FNUZ = 25,
  XLA_FFI_DataType_S2 = 26,
  XLA_FFI_DataType_U2 = 27,
  XLA_FFI_DataType_F8E4M3 = 28,
  XLA_FFI_DataType_F8E3M4 = 29,
  XLA_FFI_DataType_S1 = 30,
  XLA_FFI_DataType_U1 = 31,
  XLA_FFI_DataType_F4E2M1FN = 32,
  XLA_FFI_DataType_F8E8M0FNU = 33,
} XLA_FFI_DataType;

/*--- Arguments, results and attributes of a call ---*/

/* A dense row-major array in place. nx passes its operands and results
 * zero copy: `data` is the program's own buffer. */
struct XLA_FFI_Buffer {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_DataType dtype;
  void *data;
  int64_t rank;
  int64_t *dims;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Buffer, dims);

typedef enum {
  XLA_FFI_ArgType_BUFFER = 1,
} XLA_FFI_ArgType;

typedef enum {
  XLA_FFI_RetType_BUFFER = 1,
} XLA_FFI_RetType;

typedef enum {
  XLA_FFI_AttrType_ARRAY = 1,
  XLA_FFI_AttrType_DICTIONARY = 2,
  XLA_FFI_AttrType_SCALAR = 3,
  XLA_FFI_AttrType_STRING = 4,
} XLA_FFI_AttrType;

typedef struct XLA_FFI_TypeId {
  int64_t type_id;
} XLA_FFI_TypeId;

/* Strings are spans: not NUL-terminated. */
typedef struct XLA_FFI_ByteSpan {
  const char *ptr;
  size_t len;
} XLA_FFI_ByteSpan;

typedef struct XLA_FFI_Scalar {
  XLA_FFI_DataType dtype;
  void *value;
} XLA_FFI_Scalar;

typedef struct XLA_FFI_Array {
  XLA_FFI_DataType dtype;
  size_t size;
  void *data;
} XLA_FFI_Array;

/*--- Futures: a handler that finishes later returns one in the frame ---*/

struct XLA_FFI_Future_Create_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_Future *future; /* out */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Future_Create_Args, future);

typedef XLA_FFI_Error *XLA_FFI_Future_Create(XLA_FFI_Future_Create_Args *args);

struct XLA_FFI_Future_SetAvailable_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_Future *future;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Future_SetAvailable_Args, future);

typedef XLA_FFI_Error *
XLA_FFI_Future_SetAvailable(XLA_FFI_Future_SetAvailable_Args *args);

struct XLA_FFI_Future_SetError_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_Future *future;
  XLA_FFI_Error *error; /* owned by the runtime after the call */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Future_SetError_Args, error);

typedef XLA_FFI_Error *
XLA_FFI_Future_SetError(XLA_FFI_Future_SetError_Args *args);

/*--- The call frame ---*/

/* A handler bundle has one function per stage. nx runs INSTANTIATE once
 * per call site (its state lives as long as the program), then PREPARE,
 * INITIALIZE and EXECUTE on every call. */
typedef enum {
  XLA_FFI_ExecutionStage_INSTANTIATE = 0,
  XLA_FFI_ExecutionStage_PREPARE = 1,
  XLA_FFI_ExecutionStage_INITIALIZE = 2,
  XLA_FFI_ExecutionStage_EXECUTE = 3,
} XLA_FFI_ExecutionStage;

struct XLA_FFI_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  int64_t size;
  XLA_FFI_ArgType *types;
  void **args; /* XLA_FFI_Buffer * each */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Args, args);

struct XLA_FFI_Rets {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  int64_t size;
  XLA_FFI_RetType *types;
  void **rets; /* XLA_FFI_Buffer * each */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Rets, rets);

/* Sorted by name (bytewise), so handlers may binary-search them. Each
 * attribute points at an XLA_FFI_Scalar, XLA_FFI_Array, XLA_FFI_ByteSpan or
 * (DICTIONARY) a nested XLA_FFI_Attrs. */
struct XLA_FFI_Attrs {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  int64_t size;
  XLA_FFI_AttrType *types;
  XLA_FFI_ByteSpan **names;
  void **attrs;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Attrs, attrs);

struct XLA_FFI_CallFrame {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  const XLA_FFI_Api *api;
  XLA_FFI_ExecutionContext *ctx;
  XLA_FFI_ExecutionStage stage;
  XLA_FFI_Args args;
  XLA_FFI_Rets rets;
  XLA_FFI_Attrs attrs;
  /* Set by a handler that completes asynchronously; the runtime waits for
   * it before the call returns. Not counted in the struct size, which
   * handlers built with XLA's C++ header check for equality. */
  XLA_FFI_Future *future;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_CallFrame, attrs);

typedef XLA_FFI_Error *XLA_FFI_Handler(XLA_FFI_CallFrame *call_frame);

typedef struct XLA_FFI_Handler_Bundle {
  XLA_FFI_Handler *instantiate; /* optional */
  XLA_FFI_Handler *prepare;     /* optional */
  XLA_FFI_Handler *initialize;  /* optional */
  XLA_FFI_Handler *execute;     /* required */
} XLA_FFI_Handler_Bundle;

enum XLA_FFI_Handler_TraitsBits {
  XLA_FFI_HANDLER_TRAITS_COMMAND_BUFFER_COMPATIBLE = 1u << 0,
};

typedef uint32_t XLA_FFI_Handler_Traits;

struct XLA_FFI_Handler_Register_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ByteSpan name;
  XLA_FFI_ByteSpan platform; /* nx runs "Host" (also spelled "cpu") */
  XLA_FFI_Handler_Bundle bundle;
  XLA_FFI_Handler_Traits traits;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Handler_Register_Args, traits);

typedef XLA_FFI_Error *
XLA_FFI_Handler_Register(XLA_FFI_Handler_Register_Args *args);

/*--- User types ---*/

/* What the runtime needs to know about a user type: how to destroy an
 * object of it (the state a handler's instantiate stage sets). */
struct XLA_FFI_TypeInfo {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  void (*deleter)(void *object);
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_TypeInfo, deleter);

/* Registers type `name`. type_id 0 on entry: the runtime assigns an id (the
 * same one for the same name every time). Non-zero: the runtime checks it
 * against the name's. API 0.1 callers pass the struct without type_info. */
struct XLA_FFI_Type_Register_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ByteSpan name;
  XLA_FFI_TypeId *type_id; /* in-out */
  const XLA_FFI_TypeInfo *type_info;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Type_Register_Args, type_info);

typedef XLA_FFI_Error *XLA_FFI_Type_Register(XLA_FFI_Type_Register_Args *args);

/*--- Execution context ---*/

struct XLA_FFI_ExecutionContext_Get_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  XLA_FFI_TypeId *type_id;
  void *data; /* out */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_ExecutionContext_Get_Args, data);

typedef XLA_FFI_Error *
XLA_FFI_ExecutionContext_Get(XLA_FFI_ExecutionContext_Get_Args *args);

/* API 0.4's names for the same call. */
typedef XLA_FFI_ExecutionContext_Get_Args XLA_FFI_InvokeContext_Get_Args;
typedef XLA_FFI_ExecutionContext_Get XLA_FFI_InvokeContext_Get;
#define XLA_FFI_InvokeContext_Get_Args_STRUCT_SIZE                             \
  XLA_FFI_ExecutionContext_Get_Args_STRUCT_SIZE

/* State of a call site, set by the stage it belongs to (INSTANTIATE) and
 * read by the later ones. The deleter comes from the type's TypeInfo. */
struct XLA_FFI_State_Set_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  XLA_FFI_ExecutionStage stage;
  XLA_FFI_TypeId *type_id;
  void *state;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_State_Set_Args, state);

typedef XLA_FFI_Error *XLA_FFI_State_Set(XLA_FFI_State_Set_Args *args);

struct XLA_FFI_State_Get_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  XLA_FFI_ExecutionStage stage;
  XLA_FFI_TypeId *type_id;
  void *state; /* out */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_State_Get_Args, state);

typedef XLA_FFI_Error *XLA_FFI_State_Get(XLA_FFI_State_Get_Args *args);

/*--- Device stream and memory: UNIMPLEMENTED on the host, as in XLA:CPU ---*/

struct XLA_FFI_Stream_Get_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  void *stream; /* out */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Stream_Get_Args, stream);

typedef XLA_FFI_Error *XLA_FFI_Stream_Get(XLA_FFI_Stream_Get_Args *args);

struct XLA_FFI_DeviceMemory_Allocate_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  size_t size;
  size_t alignment;
  void *data; /* out */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_DeviceMemory_Allocate_Args, data);

typedef XLA_FFI_Error *
XLA_FFI_DeviceMemory_Allocate(XLA_FFI_DeviceMemory_Allocate_Args *args);

struct XLA_FFI_DeviceMemory_Free_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  size_t size;
  void *data;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_DeviceMemory_Free_Args, data);

typedef XLA_FFI_Error *
XLA_FFI_DeviceMemory_Free(XLA_FFI_DeviceMemory_Free_Args *args);

/*--- Thread pool: libnxrt's FFI workers ---*/

typedef void XLA_FFI_Task(void *data);

struct XLA_FFI_ThreadPool_Schedule_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  XLA_FFI_Task *task;
  void *data;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_ThreadPool_Schedule_Args, data);

typedef XLA_FFI_Error *
XLA_FFI_ThreadPool_Schedule(XLA_FFI_ThreadPool_Schedule_Args *args);

struct XLA_FFI_ThreadPool_NumThreads_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  int64_t *num_threads; /* out */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_ThreadPool_NumThreads_Args, num_threads);

typedef XLA_FFI_Error *
XLA_FFI_ThreadPool_NumThreads(XLA_FFI_ThreadPool_NumThreads_Args *args);

/*--- Run and device identity ---*/

struct XLA_FFI_RunId_Get_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  int64_t run_id; /* out */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_RunId_Get_Args, run_id);

typedef XLA_FFI_Error *XLA_FFI_RunId_Get(XLA_FFI_RunId_Get_Args *args);

struct XLA_FFI_DeviceOrdinal_Get_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_ExecutionContext *ctx;
  int32_t device_ordinal; /* out */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_DeviceOrdinal_Get_Args, device_ordinal);

typedef XLA_FFI_Error *
XLA_FFI_DeviceOrdinal_Get(XLA_FFI_DeviceOrdinal_Get_Args *args);

/*--- Metadata: what a handler says about itself when asked ---*/

/* At registration the runtime calls the execute handler once with a frame
 * whose extension_start is an XLA_FFI_Metadata_Extension; the handler
 * fills in the API version it was built against and returns. */
struct XLA_FFI_Metadata {
  size_t struct_size;
  XLA_FFI_Api_Version api_version;
  XLA_FFI_Handler_Traits traits;
  XLA_FFI_TypeId state_type_id; /* 0.2 and later */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Metadata, state_type_id);

struct XLA_FFI_Metadata_Extension {
  XLA_FFI_Extension_Base extension_base;
  XLA_FFI_Metadata *metadata;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Metadata_Extension, metadata);

/*--- The table ---*/

/*--- Extensions of the invoke context (0.4 and later) ---*/

/* An extension's identity: a type, unique within a context, and its own
 * version. */
typedef struct XLA_FFI_ExtensionId {
  int64_t extension_type;
  int32_t major_version;
  int32_t minor_version;
} XLA_FFI_ExtensionId;

typedef struct XLA_FFI_Extension XLA_FFI_Extension;
struct XLA_FFI_Extension {
  size_t struct_size;
  XLA_FFI_ExtensionId id;
  const XLA_FFI_Extension *next;
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Extension, next);

struct XLA_FFI_InvokeContext_FindExtension_Args {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_InvokeContext *ctx;
  int64_t extension_type;
  const XLA_FFI_Extension *extension; /* out: NULL when the context has none
                                         of that type (always, in nx) */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_InvokeContext_FindExtension_Args,
                             extension);

typedef XLA_FFI_Error *XLA_FFI_InvokeContext_FindExtension(
    XLA_FFI_InvokeContext_FindExtension_Args *args);

struct XLA_FFI_Api {
  size_t struct_size;
  XLA_FFI_Extension_Base *extension_start;
  XLA_FFI_Api_Version api_version;
  XLA_FFI_InternalApi *internal_api; /* NULL in nx */

  XLA_FFI_Error_Create *XLA_FFI_Error_Create;
  union { /* one slot, under its names before and since 0.4 */
    XLA_FFI_Error_GetDetails *XLA_FFI_Error_GetDetails;
    XLA_FFI_Error_GetMessage *XLA_FFI_Error_GetMessage;
  };
  XLA_FFI_Error_Destroy *XLA_FFI_Error_Destroy;
  XLA_FFI_Handler_Register *XLA_FFI_Handler_Register;
  XLA_FFI_Stream_Get *XLA_FFI_Stream_Get;
  XLA_FFI_Type_Register *XLA_FFI_Type_Register;
  union {
    XLA_FFI_InvokeContext_Get *XLA_FFI_InvokeContext_Get;
    XLA_FFI_ExecutionContext_Get *XLA_FFI_ExecutionContext_Get;
  };
  XLA_FFI_State_Set *XLA_FFI_State_Set;
  XLA_FFI_State_Get *XLA_FFI_State_Get;
  XLA_FFI_DeviceMemory_Allocate *XLA_FFI_DeviceMemory_Allocate;
  XLA_FFI_DeviceMemory_Free *XLA_FFI_DeviceMemory_Free;
  XLA_FFI_ThreadPool_Schedule *XLA_FFI_ThreadPool_Schedule;
  XLA_FFI_ThreadPool_NumThreads *XLA_FFI_ThreadPool_NumThreads;
  XLA_FFI_Future_Create *XLA_FFI_Future_Create;
  XLA_FFI_Future_SetAvailable *XLA_FFI_Future_SetAvailable;
  XLA_FFI_Future_SetError *XLA_FFI_Future_SetError;
  XLA_FFI_RunId_Get *XLA_FFI_RunId_Get;
  XLA_FFI_DeviceOrdinal_Get *XLA_FFI_DeviceOrdinal_Get;
  XLA_FFI_InvokeContext_FindExtension
      *XLA_FFI_InvokeContext_FindExtension; /* 0.4 and later */
};

XLA_FFI_DEFINE_STRUCT_TRAITS(XLA_FFI_Api, XLA_FFI_InvokeContext_FindExtension);

/* The table of the runtime the caller is loaded into (libnxrt's). */
const XLA_FFI_Api *XLA_FFI_GetApi(void);

#ifdef __cplusplus
}
#endif

#endif /* NXRT_XLA_FFI_H */
