//===- Outlining.h - move a run of ops into a function ----------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Shared by nx-segment-callbacks (device stages) and nx-split-functions
// (bounded-size pieces of large functions).
//
//===----------------------------------------------------------------------===//

#ifndef NX_TRANSFORMS_OUTLINING_H
#define NX_TRANSFORMS_OUTLINING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::nx {

/// Constants are cloned into every function that uses them instead of
/// crossing a function boundary.
inline bool isRematerializable(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>() && op->getNumOperands() == 0 &&
         op->getNumRegions() == 0;
}

/// Moves `ops`, top-level ops of `block` listed in block order, into the body
/// of a new private function named after `name` (uniqued in `symbols`),
/// inserted into the symbol table's op after `functionPosition`. Values the
/// ops use but do not define become arguments, in order of first use, except
/// rematerializable constants, which are cloned into the function; results
/// used outside `ops` become results, in op order. The call replacing the
/// ops is created at `callBuilder`'s insertion point with operands
/// `mapOperand(liveIn)`; outside uses of the results are rewired to it. The
/// caller must place the call after every live-in and before every outside
/// use. Linear in the size of `ops` and the uses of their results.
struct Outlined {
  func::FuncOp function;
  func::CallOp call;
};
Outlined outlineIntoFunction(ArrayRef<Operation *> ops, Block &block,
                             StringRef name, SymbolTable &symbols,
                             Operation *functionPosition,
                             OpBuilder &callBuilder,
                             function_ref<Value(Value)> mapOperand);

} // namespace mlir::nx

#endif // NX_TRANSFORMS_OUTLINING_H
