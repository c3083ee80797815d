//===- NxAttrs.td - nx dialect attributes ------------------*- tablegen -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_IR_NXATTRS_TD
#define NX_DIALECT_NX_IR_NXATTRS_TD

include "nx/Dialect/Nx/IR/NxDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Nx_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Nx_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Nx_OutputOperandAlias : Nx_Attr<"OutputOperandAlias", "output_operand_alias"> {
  let summary = "Declares that a custom_call result shares its buffer with an operand";
  let description = [{
    Mirrors `#stablehlo.output_operand_alias`. The result part selected by
    `output_tuple_indices` (empty when the op has one result, `[i]` for
    result `i` when it has several) aliases the operand `operand_index`
    (with `operand_tuple_indices` selecting inside a tuple operand; always
    empty here, since nx tensors are never tuples).

    ```mlir
    #nx.output_operand_alias<output_tuple_indices = [1], operand_index = 0,
                             operand_tuple_indices = []>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "">:$outputTupleIndices,
    "int64_t":$operandIndex,
    ArrayRefParameter<"int64_t", "">:$operandTupleIndices
  );
  let hasCustomAssemblyFormat = 1;
}

#endif // NX_DIALECT_NX_IR_NXATTRS_TD
