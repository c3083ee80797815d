/*===-- nx-c/Dialect/Nx.h - C API of the nx dialect ---------------*- C -*-===*\
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
|*                                                                            *|
|* The nx dialect's registration hooks, for embedders and language bindings   *|
|* that drive MLIR through its C API (mlir-c/).                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef NX_C_DIALECT_NX_H
#define NX_C_DIALECT_NX_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__nx__(): insert or load the nx dialect with
 * mlirDialectHandleInsertDialect / mlirDialectHandleLoadDialect. The handle
 * adds the dialect alone; mlirNxRegisterAllDialects (nx-c/RegisterEverything.h)
 * also adds its interface implementations and what the nx passes create. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(NX, nx);

#ifdef __cplusplus
}
#endif

#endif /* NX_C_DIALECT_NX_H */
