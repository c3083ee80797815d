//===- Passes.td - nx dialect transforms -------------------*- tablegen -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_TRANSFORMS_PASSES_TD
#define NX_DIALECT_NX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NxAssignCallbackIdsPass : Pass<"nx-assign-callback-ids", "::mlir::ModuleOp"> {
  let summary = "Assigns dense, deterministic integer ids to nx.callback symbols";
  let description = [{
    Gives every `nx.callback` directly inside the module an `id`: the
    callbacks sorted by symbol name are numbered 0, 1, 2, ... . The ids depend
    only on the set of callback names, so they are the same on every run and
    whatever passes ran before. The mapping is also recorded on the module as
    `nx.callback_ids`, a dictionary a host reads to bind names to ids.
    Running the pass twice changes nothing.

    Before:

    ```mlir
    module {
      nx.callback @zeta : (tensor<2xf32>) -> ()
      nx.callback @alpha : (tensor<f64>) -> tensor<f64>
    }
    ```

    After:

    ```mlir
    module attributes {nx.callback_ids = {alpha = 0 : i64, zeta = 1 : i64}} {
      nx.callback @zeta : (tensor<2xf32>) -> () attributes {id = 1 : i64}
      nx.callback @alpha : (tensor<f64>) -> tensor<f64> attributes {id = 0 : i64}
    }
    ```
  }];
  let dependentDialects = ["::mlir::nx::NxDialect"];
  let statistics = [
    Statistic<"numCallbacks", "callbacks", "Number of callbacks numbered">
  ];
}

def NxSegmentCallbacksPass : Pass<"nx-segment-callbacks", "::mlir::ModuleOp"> {
  let summary = "Splits functions into pure device stages at host callback boundaries";
  let description = [{
    Rewrites every `func.func` that calls the host into an *orchestrator*
    (a host function marked `nx.host_orchestrator`) that runs pure stage
    functions (private `func.func`s named `@<function>_stage<k>` and marked
    `nx.device = "<device>"`) with `func.call` and runs the host ops between
    them: stage 0, callbacks, stage 1, callbacks, ..., last stage.

    Host ops are `nx.elixir_call`, and with `include-io` (the default) also
    `nx.io_callback`, `nx.infeed` and `nx.outfeed`, plus `func.call`s of
    functions that (transitively) contain host ops.

    Stage assignment (one forward and one backward walk per block, linear in
    the number of ops):

    * a host op sits at boundary `b` = the max over its operands (and values
      its regions capture) of: the stage of a pure producer, the boundary of
      a host producer, 0 for block arguments and outer values. Host ops that
      order on a resource keep their program order: non-`pure` elixir_calls
      and `ordered` io_callbacks (host state), infeed and outfeed (streams).
      Unordered io_callbacks and `pure` elixir_calls only follow data.
      Independent host ops whose inputs are ready together share a boundary;
      at one boundary they run in program order;
    * a pure op's earliest stage is the max over its operands of the
      producer's stage, or boundary + 1 for a host producer; it is then sunk
      as late as its users allow (the min over its users' stages; boundary
      `b` for a host user; the last stage for the terminator), so a stage
      before a callback computes only what that callback needs. Ops with
      side effects that are not host ops stay at their earliest stage,
      in program order among themselves;
    * constants (`ConstantLike` ops without operands) are rematerialized in
      every stage that uses them and never cross a boundary; trivially dead
      ops are dropped; empty stages are not emitted.

    Each value crossing a boundary is a stage argument or result exactly
    once, and only if a later stage or host op uses it.

    The orchestrator is host code: its arguments, results, host op results
    and block arguments live on the host, stage results on the device. When
    `device` is not `"host"`, `nx.to_device` / `nx.to_host` make every copy
    explicit, once per value (hoisted to the block defining the value).

    Control flow: a `scf.if`, `scf.for`, `scf.while`, `scf.index_switch` or
    `scf.execute_region` containing host ops stays in the orchestrator (on
    the host) and its single-block regions are segmented recursively, so the
    loop body's pure parts still run as device stages. Control flow without
    host ops is pure computation and goes into a stage whole. Host ops inside
    any other region (`scf.parallel`, `scf.forall`, `nx.block`, ...) or in
    multi-block regions are rejected with a diagnostic.

    A function's own `nx.device` attribute overrides the `device` option.
    Functions already marked `nx.host_orchestrator` are left alone, so the
    pass is idempotent.

    Before (`device=cuda`):

    ```mlir
    nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %a = arith.addf %x, %x : tensor<4xf32>
      %b = nx.elixir_call @cb(%a) : (tensor<4xf32>) -> tensor<4xf32>
      %c = arith.mulf %b, %a : tensor<4xf32>
      return %c : tensor<4xf32>
    }
    ```

    After:

    ```mlir
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {nx.host_orchestrator} {
      %0 = nx.to_device %x to "cuda" : tensor<4xf32>
      %1 = call @f_stage0(%0) : (tensor<4xf32>) -> tensor<4xf32>
      %2 = nx.to_host %1 from "cuda" : tensor<4xf32>
      %3 = nx.elixir_call @cb(%2) : (tensor<4xf32>) -> tensor<4xf32>
      %4 = nx.to_device %3 to "cuda" : tensor<4xf32>
      %5 = call @f_stage1(%4, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %6 = nx.to_host %5 from "cuda" : tensor<4xf32>
      return %6 : tensor<4xf32>
    }
    func.func private @f_stage0(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {nx.device = "cuda"} {
      %0 = arith.addf %arg0, %arg0 : tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    func.func private @f_stage1(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> attributes {nx.device = "cuda"} {
      %0 = arith.mulf %arg0, %arg1 : tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    ```
  }];
  let options = [
    Option<"device", "device", "::mlir::nx::Platform",
           /*default=*/"::mlir::nx::Platform::Host",
           "Device the stages run on (a function's nx.device overrides it); "
           "transfers are made explicit unless it is the host",
           [{::llvm::cl::values(
             clEnumValN(::mlir::nx::Platform::Host, "host", "the CPU"),
             clEnumValN(::mlir::nx::Platform::Cuda, "cuda", "an NVIDIA GPU"),
             clEnumValN(::mlir::nx::Platform::Rocm, "rocm", "an AMD GPU"),
             clEnumValN(::mlir::nx::Platform::Tpu, "tpu", "a TPU"))}]>,
    Option<"includeIo", "include-io", "bool", /*default=*/"true",
           "Also cut at nx.io_callback, nx.infeed and nx.outfeed (otherwise "
           "they stay inside stages)">,
  ];
  let dependentDialects = ["::mlir::nx::NxDialect",
                           "::mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numStages", "stages", "Number of stage functions made">,
    Statistic<"numOrchestrators", "orchestrators", "Number of functions turned into host orchestrators">,
    Statistic<"numTransfers", "transfers", "Number of nx.to_device / nx.to_host ops made">
  ];
}

def NxEraseTokensPass : Pass<"nx-erase-tokens", "::mlir::ModuleOp"> {
  let summary = "Drops !nx.token arguments and results from functions";
  let description = [{
    Tokens carry no data. Compiled for the CPU, a program runs its effects
    in program order, so a token passed into or out of a function has
    nothing left to order. This pass removes the `!nx.token` arguments and
    results of every `func.func` of the module and of its `func.call`s: a
    dropped argument's uses take a fresh `nx.create_token`, a dropped call
    result likewise. That lets a program imported from JAX, whose entry
    function takes and returns its ordered-effects token, be compiled and
    called with its data only (`nx-runner` neither takes nor prints
    tokens). A function with tokens used other than by `func.call` (a
    `func.constant`) is an error.
    Part of `nx-lower-to-cpu`, after `nx-import-stablehlo{raise-callbacks}`
    has turned the token-threaded callbacks into nx callbacks.

    Before:

    ```mlir
    func.func @main(%t: !nx.token, %x: tensor<3xf32>) -> (!nx.token, tensor<3xf32>) {
      %0 = nx.elixir_call ordered @cb(%x) : (tensor<3xf32>) -> tensor<3xf32>
      return %t, %0 : !nx.token, tensor<3xf32>
    }
    ```

    After:

    ```mlir
    func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
      %0 = nx.elixir_call ordered @cb(%x) : (tensor<3xf32>) -> tensor<3xf32>
      return %0 : tensor<3xf32>
    }
    ```
  }];
  let statistics = [
    Statistic<"numFunctions", "functions",
              "Number of functions whose tokens were dropped">
  ];
  let dependentDialects = ["::mlir::nx::NxDialect",
                           "::mlir::func::FuncDialect"];
}

def NxPrepareEntryPointsPass : Pass<"nx-prepare-entry-points", "::mlir::ModuleOp"> {
  let summary = "Makes public functions callable by a host";
  let description = [{
    Prepares every public `func.func` with a body to be called by a host
    such as `nx-runner`:

    * it gets `llvm.emit_c_interface`, so `convert-func-to-llvm` also emits
      `_mlir_ciface_<name>`, which takes memrefs as pointers to descriptors;
    * its tensor arguments get `bufferization.writable = false`, so
      bufferization never writes into the caller's input buffers (results
      are then fresh buffers the caller owns).

    Private functions are internal and keep in-place bufferization. Part of
    `nx-lower-to-cpu`.

    Before:

    ```mlir
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32>
    func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32>
    ```

    After:

    ```mlir
    func.func @main(%x: tensor<4xf32> {bufferization.writable = false})
        -> tensor<4xf32> attributes {llvm.emit_c_interface}
    func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def NxInlineBlocksPass : Pass<"nx-inline-blocks", "::mlir::ModuleOp"> {
  let summary = "Replaces every nx.block by its default implementation";
  let description = [{
    Inlines the region of every `nx.block`, innermost first, ignoring the
    block lowering registry: the portable form of a program, e.g. to compare
    a native kernel against the default implementation.
    (`convert-nx-to-custom-call` consults the registry instead.)

    Before:

    ```mlir
    %r = nx.block "My.Double" {} (%x) : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: tensor<4xf32>):
      %d = arith.addf %a, %a : tensor<4xf32>
      nx.yield %d : tensor<4xf32>
    }
    ```

    After:

    ```mlir
    %r = arith.addf %x, %x : tensor<4xf32>
    ```
  }];
  let statistics = [
    Statistic<"numBlocksInlined", "blocks-inlined", "Number of nx.block ops replaced by their default implementation">
  ];
}

def NxStripTransfersPass : Pass<"nx-strip-transfers", "::mlir::ModuleOp"> {
  let summary = "Replaces nx.to_device / nx.to_host by their operand";
  let description = [{
    Lowers the host <-> device copies that `nx-segment-callbacks` makes
    explicit for a non-host device as identities: when a program is compiled
    for the CPU, every device's memory is host memory, so a segmented
    `device=cuda` program runs there unchanged (stages keep their
    `nx.device` attribute, which the CPU lowering ignores). Part of
    `nx-lower-to-cpu`; a backend with real device memory lowers the copies
    instead.

    Before:

    ```mlir
    %0 = nx.to_device %x to "cuda" : tensor<4xf32>
    %1 = call @f_stage0(%0) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = nx.to_host %1 from "cuda" : tensor<4xf32>
    ```

    After:

    ```mlir
    %1 = call @f_stage0(%x) : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let statistics = [
    Statistic<"numTransfers", "transfers", "Number of nx.to_device / nx.to_host ops removed">
  ];
}

#endif // NX_DIALECT_NX_TRANSFORMS_PASSES_TD
