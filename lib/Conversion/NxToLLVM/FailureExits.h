//===- FailureExits.h - stopping a function after a failed call -*- C++ -*-===//
//
// Compiled code stops at the first failure: a failed host call leaves its
// results unwritten, and a loop steered by them could spin forever. After a
// call that may fail, the function branches to an exit of its own for that
// call, which hands the status to nxrt_invoke_failed (it aborts outside a
// run) and returns all-zero results. One exit per call rather than one per
// function: a shared exit would need the status as a block argument, a phi
// with an entry per call site, which costs the code generator more than
// linear time. Heap buffers live at that point are freed by nxrt_run_end,
// which tracks them.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CONVERSION_NXTOLLVM_FAILUREEXITS_H
#define NX_LIB_CONVERSION_NXTOLLVM_FAILUREEXITS_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::nx {

/// Checks that a host call, or a call of a function that may stop, can stop
/// its function: it sits in the function's body (a structured region cannot
/// be left by a branch). Reports at `call`.
LogicalResult checkInFunctionBody(Operation *call);

/// Checks that `func` can return early: it is a func.func or llvm.func whose
/// results have LLVM forms. Reports at `loc`, the call that would stop it.
LogicalResult checkCanStop(FunctionOpInterface func, Location loc,
                           const LLVMTypeConverter &converter);

/// Splits the block of `after` after it and branches, when `failed` (an i1)
/// holds, to a new exit that calls nxrt_invoke_failed(`run`, `status`) and
/// returns zeros. Splitting moves the rest of the block: stop a block's
/// calls from its last to its first so each op moves once.
LogicalResult stopIfFailed(RewriterBase &rewriter, Operation *after,
                           Value failed, Value run, Value status,
                           const LLVMTypeConverter &converter);

} // namespace mlir::nx

#endif // NX_LIB_CONVERSION_NXTOLLVM_FAILUREEXITS_H
