//===- HeapEstimate.h - the heap memory compiled code holds -----*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// __nx_init faults in as much of the heap as one run of the module holds at
// once (nxrt_heap_prepare), so that the first run's buffers do not fault in
// page by page. The amount is estimated from the bufferized module before
// memref lowering.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CONVERSION_NXTOLLVM_HEAPESTIMATE_H
#define NX_LIB_CONVERSION_NXTOLLVM_HEAPESTIMATE_H

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>

namespace mlir::nx {

/// The most bytes of static-shaped `memref.alloc` buffers that any function
/// of `module` holds at once, including what the functions it calls hold
/// while they run. Ops are taken in their order in the function, as if each
/// ran once: a `memref.dealloc` frees the buffer it names (through views
/// and `extract_strided_metadata`) whether or not it is conditional, and
/// buffers allocated inside OpenMP regions, which come from the worker
/// threads' heaps, are left out, as are dynamic shapes.
uint64_t estimatePeakHeapBytes(ModuleOp module);

} // namespace mlir::nx

#endif // NX_LIB_CONVERSION_NXTOLLVM_HEAPESTIMATE_H
