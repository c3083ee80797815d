//===- HostCallFrame.h - what a function calling the host keeps -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A function that calls the host keeps, at the start of its entry block:
//
//   %run = llvm.call @nxrt_run_current() : () -> !llvm.ptr
//   %one = llvm.mlir.constant(1 : i64) : i64
//   %status = llvm.alloca %one x !llvm.ptr
//   %nargs = llvm.mlir.constant(<N> : i64) : i64
//   %args = llvm.alloca %nargs x !llvm.struct<(i32, i32, ptr, ptr)>
//   %nresults = llvm.mlir.constant(<M> : i64) : i64
//   %results = llvm.alloca %nresults x !llvm.struct<(i32, i32, ptr, ptr)>
//
// and, as its last block, one exit. The run is read once: a function runs
// on one thread, within one run, from entry to return (a handler's nested
// runs end before it returns). All its host calls share the view arrays (a
// view only lives for its call; in the entry block, a call in a loop does
// not grow the stack) sized for the largest (none for functions that only
// call functions that may stop). Compiled code stops at the
// first failure, since a failed call leaves its results unwritten and a
// loop steered by them could spin forever: after a call that may fail, the
// function stores the status in the slot and branches to the exit when the
// call failed; the exit hands the status to nxrt_invoke_failed (it aborts
// outside a run) and returns all-zero results. A slot rather than a block
// argument, because an exit block with an argument per call is a phi with
// an entry per call site, which costs the code generator more than linear
// time. Heap buffers live at that point are freed by nxrt_run_end, which
// tracks them.
//
// The first host call lowered in a function makes the frame; the others
// find it in constant time by its shape, so patterns that see one call at
// a time share it. Should something else stand there, a call makes a frame
// of its own: correct, only not shared.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CONVERSION_NXTOLLVM_HOSTCALLFRAME_H
#define NX_LIB_CONVERSION_NXTOLLVM_HOSTCALLFRAME_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <string>

namespace mlir::nx {

struct HostCallFrame {
  Value run;
  Value statusSlot;
  Value argViews;
  Value resultViews;
  Block *exit;
};

/// "file:line:col" of the first file location inside `loc`: how runtime
/// errors point at the op ("unknown location" without one).
std::string formatFileLocation(Location loc);

/// The view type, nxrt_tensor_t: {dtype, rank, dims, data}.
LLVM::LLVMStructType getTensorViewType(MLIRContext *context);

/// Checks that a host call, or a call of a function that may stop, can stop
/// its function: it sits in the function's body (a structured region cannot
/// be left by a branch). Reports at `call`.
LogicalResult checkInFunctionBody(Operation *call);

/// Checks that `func` can return early: it is a func.func or llvm.func whose
/// results have LLVM forms. Reports at `loc`, the call that would stop it.
LogicalResult checkCanStop(FunctionOpInterface func, Location loc,
                           const LLVMTypeConverter &converter);

/// The frame of the function whose body holds `call`, made on first use,
/// with view arrays of at least `numArgViews` and `numResultViews` entries.
FailureOr<HostCallFrame>
getOrCreateHostCallFrame(RewriterBase &rewriter, Operation *call,
                         size_t numArgViews, size_t numResultViews,
                         const LLVMTypeConverter &converter);

/// After `after`, stores `status` in the frame's slot, splits the block and
/// branches to the frame's exit when `failed` (an i1) holds. Splitting moves
/// the rest of the block: stop a block's calls from its last to its first
/// so that each op moves once.
void stopIfFailed(RewriterBase &rewriter, Operation *after, Value failed,
                  Value status, const HostCallFrame &frame);

/// Makes the function of `frame` take its exit right after `after` (an op
/// in its body) when the run has failed by then: a call of a function that
/// may stop, or a region whose code may have failed the run.
LogicalResult stopIfRunFailed(RewriterBase &rewriter, Operation *after,
                              const HostCallFrame &frame);

} // namespace mlir::nx

#endif // NX_LIB_CONVERSION_NXTOLLVM_HOSTCALLFRAME_H
