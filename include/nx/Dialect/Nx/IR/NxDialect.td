//===- NxDialect.td - nx dialect definition ----------------*- tablegen -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `nx` dialect: host callbacks, side-effecting passthrough callbacks,
// named blocks with a default implementation, host streams and a mirror of
// `stablehlo.custom_call`.
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_IR_NXDIALECT_TD
#define NX_DIALECT_NX_IR_NXDIALECT_TD

include "mlir/IR/OpBase.td"

def Nx_Dialect : Dialect {
  let name = "nx";
  let cppNamespace = "::mlir::nx";
  let summary = "Host callbacks, named blocks and host streams for tensor programs";
  let description = [{
    The `nx` dialect models the ways a compiled tensor program talks to its
    host, following the Elixir Nx / EXLA designs:

    * `nx.callback` declares a host callback and its static signature;
    * `nx.elixir_call` calls it and receives new tensors back;
    * `nx.io_callback` runs it for its side effect only, passing its operands
      through unchanged (zero copy);
    * `nx.block` names a computation with a default implementation that a
      backend may replace by a native kernel;
    * `nx.outfeed` / `nx.infeed` stream tensors to and from a named host
      stream;
    * `nx.custom_call` mirrors `stablehlo.custom_call`, the form all of the
      above are lowered to for XLA;
    * `nx.to_device` / `nx.to_host` mark the host-device copies that
      `nx-segment-callbacks` places between device stages and callbacks;
    * `nx.invoke` is the buffer form every host interaction takes after
      bufferization, lowered by `convert-nx-to-llvm` to one call into the
      `libnxrt` runtime.

    Every tensor crossing the host boundary is ranked and statically shaped,
    with an element type the runtime can hand to the host (i1, i8-i64,
    ui8-ui64, f16, bf16, f32, f64, complex<f32>, complex<f64>).
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();

    /// Name of the module attribute written by `nx-assign-callback-ids`: a
    /// dictionary from callback symbol name to its integer id.
    static constexpr ::llvm::StringLiteral getCallbackIdsAttrName() {
      return ::llvm::StringLiteral("nx.callback_ids");
    }

    /// Name of the module attribute `nx-export-stablehlo` writes in place
    /// of the `nx.callback` declarations (nx syntax a StableHLO tool cannot
    /// load): an array with each declaration's attribute dictionary, in
    /// order. `nx-import-stablehlo` declares them again.
    static constexpr ::llvm::StringLiteral getExportedCallbacksAttrName() {
      return ::llvm::StringLiteral("nx.callbacks");
    }

    /// Name of the dictionary attribute `convert-nx-to-custom-call` puts on
    /// an `exla_runtime_callback` call for what nx's callbacks carry beyond
    /// the backend_config EXLA's handler reads (which takes no other
    /// entries): `ordered`, `optional` (bools) and `static_args` (a
    /// dictionary). `nx-import-stablehlo` raises them back.
    static constexpr ::llvm::StringLiteral getCallbackAttrsAttrName() {
      return ::llvm::StringLiteral("nx.callback_attrs");
    }

    /// Name of the string attribute naming the device a function runs on
    /// (set by `nx-segment-callbacks` on stage functions; read by it on
    /// input functions to override its `device` option).
    static constexpr ::llvm::StringLiteral getDeviceAttrName() {
      return ::llvm::StringLiteral("nx.device");
    }

    /// Name of the unit attribute `nx-segment-callbacks` puts on the host
    /// function that runs the stages and the callbacks between them; host
    /// callbacks are allowed in it on every platform.
    static constexpr ::llvm::StringLiteral getHostOrchestratorAttrName() {
      return ::llvm::StringLiteral("nx.host_orchestrator");
    }
  }];
}

class Nx_Op<string mnemonic, list<Trait> traits = []>
    : Op<Nx_Dialect, mnemonic, traits>;

#endif // NX_DIALECT_NX_IR_NXDIALECT_TD
