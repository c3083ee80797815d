/*===-- nx-c/RegisterEverything.h - register nx with MLIR ---------*- C -*-===*\
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
|*                                                                            *|
|* One call each for what an embedder needs to parse, transform and lower    *|
|* nx programs through MLIR's C API.                                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef NX_C_REGISTEREVERYTHING_H
#define NX_C_REGISTEREVERYTHING_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adds to `registry` the nx dialect with its interface implementations
 * (bufferization, conversion to LLVM) and every upstream dialect, extension
 * and LLVM IR translation the nx pipelines use or produce, so a context
 * built from it can parse nx programs and run nx-lower-to-cpu on them. */
MLIR_CAPI_EXPORTED void mlirNxRegisterAllDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif /* NX_C_REGISTEREVERYTHING_H */
