//===- NxTypes.td - nx dialect types -----------------------*- tablegen -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_IR_NXTYPES_TD
#define NX_DIALECT_NX_IR_NXTYPES_TD

include "nx/Dialect/Nx/IR/NxDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Nx_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Nx_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Nx_TokenType : Nx_Type<"Token", "token"> {
  let summary = "an ordering token, mirroring !stablehlo.token";
  let description = [{
    A value with no data whose only job is to order side effects: an op
    that takes a token runs after the op that produced it. It mirrors
    `!stablehlo.token`, so that modules JAX and EXLA emit with ordered
    effects (token-threaded custom calls, token function arguments and
    results) can be imported and exported unchanged:
    `nx-import-stablehlo` turns `!stablehlo.token` into `!nx.token` and
    `nx-export-stablehlo` turns it back. `nx.create_token` and
    `nx.after_all` make tokens.

    ```mlir
    %t = nx.create_token : !nx.token
    %r:2 = nx.custom_call @xla_ffi_python_cpu_callback(%t, %x) {...}
        : (!nx.token, tensor<4xf32>) -> (!nx.token, tensor<4xf32>)
    ```
  }];
}

#endif // NX_DIALECT_NX_IR_NXTYPES_TD
