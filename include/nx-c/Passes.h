/*===-- nx-c/Passes.h - C API of the nx passes and pipelines ------*- C -*-===*\
 *
 * Part of the nx-mlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See the LICENSE file for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
|*                                                                            *|
|* mlirCreate<Group><Pass>() / mlirRegister<Group><Pass>() for every nx pass  *|
|* (generated from the Passes.td files; groups NxDialect, NxTransforms and    *|
|* NxConversion), and the nx-lower-to-cpu pipeline.                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef NX_C_PASSES_H
#define NX_C_PASSES_H

#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include "nx/Codegen/CPU/Passes.capi.h.inc"
#include "nx/Conversion/Passes.capi.h.inc"
#include "nx/Dialect/Nx/Transforms/Passes.capi.h.inc"
#include "nx/Transforms/Passes.capi.h.inc"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers every nx pass and the nx pipelines with the global pass
 * registry, so textual pipelines (mlirParsePassPipeline,
 * mlirOpPassManagerAddPipeline) can name them. */
MLIR_CAPI_EXPORTED void mlirNxRegisterAllPasses(void);

/* Registers the nx pipelines (nx-lower-to-cpu) with the global pass
 * registry. */
MLIR_CAPI_EXPORTED void mlirNxRegisterPipelines(void);

/* Appends nx-lower-to-cpu to `passManager`, which must be anchored on
 * builtin.module. `options` holds the pipeline's options as in a textual
 * pipeline, e.g. "blas=false vector-bits=256" (empty: the defaults). On
 * malformed options nothing is added, `errorCallback` (may be NULL) receives
 * the message, possibly in several pieces, and the result is a failure. */
MLIR_CAPI_EXPORTED MlirLogicalResult mlirNxBuildLowerToCpuPipeline(
    MlirOpPassManager passManager, MlirStringRef options,
    MlirStringCallback errorCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* NX_C_PASSES_H */
