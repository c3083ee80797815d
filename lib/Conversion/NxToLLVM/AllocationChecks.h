//===- AllocationChecks.h - failed allocations stop the code -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CONVERSION_NXTOLLVM_ALLOCATIONCHECKS_H
#define NX_LIB_CONVERSION_NXTOLLVM_ALLOCATIONCHECKS_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::nx {

/// Follows every memref.alloc in a function of `module` with a check of its
/// buffer: a NULL one is reported through nxrt_out_of_memory (size and
/// location) and stops the function as a failed host call does. Adds the
/// functions with allocations to `stopping`, whose callers then stop too.
/// An allocation in a region whose every way out carries values stays
/// unchecked.
LogicalResult checkHeapAllocations(ModuleOp module,
                                   const LLVMTypeConverter &converter,
                                   llvm::SetVector<Operation *> &stopping);

} // namespace mlir::nx

#endif // NX_LIB_CONVERSION_NXTOLLVM_ALLOCATIONCHECKS_H
