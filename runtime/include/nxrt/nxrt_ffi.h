/*===- nxrt_ffi.h - Running XLA FFI handlers on libnxrt -------------------===*
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * libnxrt implements the XLA FFI C API (xla_ffi.h). Handlers are registered
 * process-wide, by name and platform, as in XLA: through the API table's
 * XLA_FFI_Handler_Register (which is what XLA_FFI_REGISTER_HANDLER in a
 * library's static initializers calls), or with the functions below.
 *
 * A custom-call site whose target no runtime-level handler binds
 * (nxrt_register_custom_call) resolves against the handlers registered for
 * platform "Host" (XLA:CPU's name; "cpu" is the same platform). nx then
 * calls the handler with an XLA FFI call frame: operands and results are
 * XLA_FFI_Buffer views of the program's buffers (zero copy), and the site's
 * attributes (the custom call's dictionary backend_config) are XLA FFI
 * attributes, sorted by name.
 *
 * Ownership and thread safety: every function here is thread-safe; strings
 * are copied; handlers and the libraries that hold them stay registered and
 * loaded until the process exits.
 *===----------------------------------------------------------------------===*/

#ifndef NXRT_NXRT_FFI_H
#define NXRT_NXRT_FFI_H

#include "nxrt/nxrt.h"
#include "nxrt/xla_ffi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The API table handlers call (API version 0.3). Valid for the process's
 * lifetime. Also exported under XLA's names, XLA_FFI_GetApi and the C++
 * xla::ffi::GetXlaFfiApi(), so that a library whose static initializers
 * register handlers through them registers them with libnxrt. */
NXRT_API const XLA_FFI_Api *nxrt_ffi_api(void);
NXRT_API const XLA_FFI_Api *XLA_FFI_GetApi(void);

/* Registers `bundle` as handler `name` for `platform` (NULL means "Host"),
 * as XLA_FFI_Handler_Register does. nx calls the handlers of "Host" (also
 * spelled "cpu", in any case); another platform's are kept, as XLA keeps
 * them, and never bound. A Host handler is asked for its metadata first,
 * and one built against an API version nx does not implement (other than
 * 0.1-0.3) is refused with UNIMPLEMENTED. ALREADY_EXISTS when `name` is
 * taken by another bundle on the same platform; registering the same
 * bundle again is a no-op. */
NXRT_API nxrt_status_t *nxrt_ffi_register(const char *name,
                                          const char *platform,
                                          const XLA_FFI_Handler_Bundle *bundle,
                                          XLA_FFI_Handler_Traits traits);

/* Loads the shared library at `path` (its static initializers register
 * their handlers through the API) and reports how many handlers it
 * registered in *registered (may be NULL). NOT_FOUND when it cannot be
 * loaded (the message has dlerror's reason); INVALID_ARGUMENT, naming the
 * library, when loading it registered nothing and `require_handlers` is
 * non-zero. */
NXRT_API nxrt_status_t *nxrt_ffi_load_library(const char *path,
                                              int require_handlers,
                                              size_t *registered);

/* Loads `path` (path NULL: searches the process's loaded images) and
 * registers its exported XLA_FFI_Handler `symbol` as the execute handler of
 * `name` on "Host", the way jax.ffi.register_ffi_target takes a function
 * pointer. NOT_FOUND names the library or the missing symbol. */
NXRT_API nxrt_status_t *nxrt_ffi_register_symbol(const char *path,
                                                 const char *name,
                                                 const char *symbol);

/* Whether a handler is registered as `name` on "Host". */
NXRT_API int nxrt_ffi_has_handler(const char *name);

/* Execution context data: what XLA_FFI_ExecutionContext_Get returns for
 * `type_id` to handlers called by programs of `runtime` (XLA's
 * ExecutionContext user data, here one table per runtime). Replaces an
 * earlier value; `data` stays the caller's. INVALID_ARGUMENT for a NULL
 * runtime or a type id of 0. */
NXRT_API nxrt_status_t *nxrt_ffi_set_context_data(nxrt_runtime_t *runtime,
                                                  int64_t type_id, void *data);

#ifdef __cplusplus
}
#endif

#endif /* NXRT_NXRT_FFI_H */
