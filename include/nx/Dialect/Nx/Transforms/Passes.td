//===- Passes.td - nx dialect transforms -------------------*- tablegen -*-===//

#ifndef NX_DIALECT_NX_TRANSFORMS_PASSES_TD
#define NX_DIALECT_NX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NxAssignCallbackIds : Pass<"nx-assign-callback-ids", "::mlir::ModuleOp"> {
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


def NxSegmentCallbacks : Pass<"nx-segment-callbacks", "::mlir::ModuleOp"> {
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

def NxExportStableHLO : Pass<"nx-export-stablehlo", "::mlir::ModuleOp"> {
  let summary = "Rewrites the module into StableHLO a StableHLO tool loads as is";
  let description = [{
    Produces a module that StableHLO's parser and verifier (and XLA) accept
    unchanged, with no nx op, type or attribute syntax left:

    * every `nx.custom_call` becomes the generic op `"stablehlo.custom_call"`
      with the same operands, results and attributes (`call_target_name`,
      `has_side_effect`, `backend_config`, `api_version` as `N : i32`,
      `called_computations`, `operand_layouts`, `result_layouts`), each
      `#nx.output_operand_alias` becoming `#stablehlo.output_operand_alias`;
    * `!nx.token` becomes `!stablehlo.token` everywhere (function types,
      block arguments, results), `nx.create_token` / `nx.after_all` become
      `stablehlo.create_token` / `stablehlo.after_all`;
    * the `nx.callback` declarations become records in the module attribute
      `nx.callbacks` (each declaration's attribute dictionary, in order), a
      builtin attribute StableHLO tools keep; `nx.callback_ids` stays. The
      host reads the ids there, and `nx-import-stablehlo` declares the
      callbacks again.

    Other ops and attributes are kept. nx ops that StableHLO cannot express
    fail the pass with an error at the op: callbacks, streams and blocks not
    yet lowered by `convert-nx-to-custom-call`, `nx.invoke` (bufferized
    code) and `nx.to_device` / `nx.to_host` (segmented code). The stablehlo
    dialect is not linked into nx, so the result uses unregistered ops and
    attributes: run with `--allow-unregistered-dialect` (the pass reports an
    error otherwise). `nx-import-stablehlo` is the inverse.

    Before:

    ```mlir
    nx.callback @log : (tensor<2xf32>) -> () attributes {id = 0 : i64}
    func.func @f(%t: !nx.token, %x: tensor<2xf32>) -> (!nx.token, tensor<2xf32>) {
      %0 = nx.custom_call @exla_io_callback(%x) {api_version = 4 : i32,
          backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64},
          has_side_effect = true,
          output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [],
              operand_index = 0, operand_tuple_indices = []>]}
          : (tensor<2xf32>) -> tensor<2xf32>
      return %t, %0 : !nx.token, tensor<2xf32>
    }
    ```

    After:

    ```mlir
    module attributes {nx.callbacks = [{function_type = (tensor<2xf32>) -> (),
                                        id = 0 : i64, sym_name = "log"} ]} {
    func.func @f(%t: !stablehlo.token, %x: tensor<2xf32>) -> (!stablehlo.token, tensor<2xf32>) {
      %0 = "stablehlo.custom_call"(%x) {api_version = 4 : i32,
          backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64},
          call_target_name = "exla_io_callback", has_side_effect = true,
          output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [],
              operand_index = 0, operand_tuple_indices = []>]}
          : (tensor<2xf32>) -> tensor<2xf32>
      return %t, %0 : !stablehlo.token, tensor<2xf32>
    }
    }
    ```
  }];
  let dependentDialects = ["::mlir::nx::NxDialect"];
}

def NxImportStableHLO : Pass<"nx-import-stablehlo", "::mlir::ModuleOp"> {
  let summary = "Rewrites generic StableHLO custom calls and tokens into nx";
  let description = [{
    The inverse of `nx-export-stablehlo`, for the generic form StableHLO
    tools print (`stablehlo-opt --mlir-print-op-generic`, JAX's
    `print_generic_op_form=True`). Inherent attributes may come as
    properties (`<{...}>`, what MLIR 22 prints) or in the attribute
    dictionary, or split between both.

    * every `"stablehlo.custom_call"` becomes an `nx.custom_call` with the
      same operands, results and attributes, `#stablehlo.output_operand_alias`
      becoming `#nx.output_operand_alias`; other attributes (`mhlo.*`,
      `sdy.*`, `xla_shape`, ...) are kept. Operands and results are ranked
      tensors or tokens, and the result must pass the `nx.custom_call`
      verifier;
    * `!stablehlo.token` becomes `!nx.token` everywhere,
      `stablehlo.create_token` / `stablehlo.after_all` become
      `nx.create_token` / `nx.after_all`;
    * callback ids in a portable artifact's form (`dense<...> :
      tensor<Nxi64>`, what a VHLO round trip makes of `array<i64>`) become
      `array<i64>`;
    * the declarations recorded in `nx.callbacks` are declared again, first
      in the module.

    Export followed by import is the identity (up to where the callback
    declarations stand). It accepts what the callback frontends emit and
    checks their protocols:

    * EXLA (`exla_runtime_callback`, `exla_io_callback`,
      `exla_elixir_callback`): a dictionary backend_config (or none, when
      the id is an operand) whose `callback_id` is an `array<i64>` and
      `callback_id_size` a `ui64` byte count that fits in those words
      (likewise `callback_server_pid` / `callback_server_pid_size`);
      `num_aliased_data_outputs` is a `ui64`; `exla_runtime_callback` takes
      the callback server handle, a 1-D `ui8` tensor, as its first tensor
      operand (after the token when ordered).
    * JAX (`xla_ffi_python_cpu_callback`, `xla_ffi_python_gpu_callback` and
      their `partitioned` forms): an integer `index` (or the older
      `descriptor`) in a dictionary backend_config or in
      `mhlo.backend_config` (JAX's form: api_version 1 with
      `backend_config = ""`); an ordered callback takes the token first and
      returns the next one first. `xla_python_cpu_callback` (api_version 2):
      the descriptor as a `tensor<i64>` or `tensor<ui64>` operand 0.

    With `raise-callbacks`, those callbacks become nx callbacks, declared
    with the signature of their use, so the program runs on nxrt:

    * JAX: the callback is `jax-callback-names[index]`, or
      `jax_callback_<index>`; `has_side_effect = false` gives a `pure`
      `nx.elixir_call`, a side effect with results an `nx.elixir_call`, one
      without results an `nx.io_callback`, both `ordered` when
      token-threaded;
    * EXLA: an 8-byte id names the `nx.callback` with that id (what nx
      exported), any other id a callback named `exla_callback_<hex bytes>`;
      `exla_io_callback` gives an `nx.io_callback` (with its `static_args`,
      `optional`), the others an `nx.elixir_call`, both `ordered` when
      token-threaded or `ordered = true`; the server handle and an
      operand-encoded id are not callback arguments.

    A raised call's token result is replaced by its token operand; the
    `ordered` call keeps its place in program order.

    Before (raise-callbacks):

    ```mlir
    %t1 = "stablehlo.custom_call"(%t0, %x) <{api_version = 1 : i32,
        backend_config = "", call_target_name = "xla_ffi_python_cpu_callback",
        has_side_effect = true}> {mhlo.backend_config = {index = 0 : ui64}}
        : (!stablehlo.token, tensor<3xf32>) -> !stablehlo.token
    ```

    After:

    ```mlir
    nx.callback @jax_callback_0 : (tensor<3xf32>) -> ()
    ...
    %0 = nx.io_callback ordered @jax_callback_0(%x) : tensor<3xf32>
    ```
  }];
  let options = [
    Option<"raiseCallbacks", "raise-callbacks", "bool", /*default=*/"false",
           "Turn recognized JAX and EXLA callback custom calls into "
           "nx.elixir_call / nx.io_callback with nx.callback declarations">,
    ListOption<"jaxCallbackNames", "jax-callback-names", "std::string",
               "With raise-callbacks: the callback names of JAX's host "
               "callbacks by index (what the host binds); an index without "
               "one becomes jax_callback_<index>">
  ];
  let statistics = [
    Statistic<"numImported", "imported-custom-calls",
              "Number of stablehlo.custom_call ops imported">,
    Statistic<"numRaised", "raised-callbacks",
              "Number of custom calls raised to nx callbacks">
  ];
  let dependentDialects = ["::mlir::nx::NxDialect"];
}

def NxEraseTokens : Pass<"nx-erase-tokens", "::mlir::ModuleOp"> {
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

def NxHooksToIoCallback : Pass<"nx-hooks-to-io-callback", "::mlir::ModuleOp"> {
  let summary = "Migrates outfeed/token hooks to nx.io_callback chains";
  let description = [{
    Rewrites EXLA's legacy hook protocol, given as generic
    unregistered StableHLO ops, into `nx.io_callback`s. In each function a
    chain starts at `"stablehlo.create_token"` and threads the token through
    `"stablehlo.outfeed"` ops. A hook is a flag outfeed, whose data operand
    is a `tensor<ui16>` constant (`"stablehlo.constant"` or
    `arith.constant`) holding the hook's flag (1..65535), either followed by
    the tensors of the same outfeed (`outfeed(%flag, %x, %y, %tok)`) or by
    outfeeds of those tensors (`outfeed(%flag, %tok)`, `outfeed(%x, %tok)`,
    ...), up to the next flag. A final flag 0 closes the chain.

    Each hook becomes an `ordered` `nx.io_callback @hook_<flag>` on its
    tensors, placed at its last outfeed; uses of the tensors after that point
    use the io_callback's passthrough results instead, so later work depends
    on the hook by data. One `nx.callback @hook_<flag> : (T...) -> ()` is
    declared per flag. The tokens, outfeeds and now-unused flag constants are
    erased.

    Errors: a token used other than by the next outfeed (branching chains,
    returned tokens), an outfeed whose token does not come from a chain,
    data before the first flag, a flag that is not a constant scalar ui16,
    payload after flag 0 or a missing final flag 0, and a flag reused with
    other tensor types.

    Before:

    ```mlir
    %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
    %f1 = "stablehlo.constant"() {value = dense<1> : tensor<ui16>} : () -> tensor<ui16>
    %t1 = "stablehlo.outfeed"(%f1, %x, %t0) {outfeed_config = ""}
        : (tensor<ui16>, tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
    %f0 = "stablehlo.constant"() {value = dense<0> : tensor<ui16>} : () -> tensor<ui16>
    %t2 = "stablehlo.outfeed"(%f0, %t1) {outfeed_config = ""}
        : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
    %y = arith.addf %x, %x : tensor<3xf32>
    ```

    After:

    ```mlir
    nx.callback @hook_1 : (tensor<3xf32>) -> ()
    ...
    %h = nx.io_callback ordered @hook_1(%x) : tensor<3xf32>
    %y = arith.addf %h, %h : tensor<3xf32>
    ```
  }];
  let dependentDialects = ["::mlir::nx::NxDialect"];
}

def NxPrepareEntryPoints : Pass<"nx-prepare-entry-points", "::mlir::ModuleOp"> {
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

def NxInlineBlocks : Pass<"nx-inline-blocks", "::mlir::ModuleOp"> {
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

def NxStripTransfers : Pass<"nx-strip-transfers", "::mlir::ModuleOp"> {
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

def NxLowerTosa : Pass<"nx-lower-tosa", "::mlir::ModuleOp"> {
  let summary = "Runs the TOSA to linalg/arith/tensor pipeline on modules that contain TOSA ops";
  let description = [{
    Runs upstream's TOSA front end (`addTosaToLinalgPasses`, then
    `tosa-to-arith` and `tosa-to-tensor`) as a dynamic pipeline, and only
    when the module contains a `tosa` op. The front end is a dozen passes
    that each walk the whole module: on a module without TOSA they change
    nothing but take about a tenth of `nx-lower-to-cpu`'s time. Part of
    `nx-lower-to-cpu`.

    Before:

    ```mlir
    %0 = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
    ```

    After:

    ```mlir
    %e = tensor.empty() : tensor<4xf32>
    %0 = linalg.generic {...} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = math.absf %in : f32
      linalg.yield %a : f32
    } -> tensor<4xf32>
    ```
  }];
}

def NxFuseElementwise : Pass<"nx-fuse-elementwise"> {
  let summary = "Turns trees of elementwise tensor ops into one linalg.generic each, in linear time";
  let description = [{
    Lowers `ElementwiseMappable` ops on tensors (`arith`, `math`) to
    `linalg.generic`, fusing as it goes. Upstream's
    `convert-elementwise-to-linalg` followed by `linalg-fuse-elementwise-ops`
    computes the same thing, but fuses one producer at a time: every step
    clones the whole body fused so far, so a chain of `k` ops costs `O(k^2)`
    (a 10,000-op chain takes about 30 s to compile). This pass clones each op
    once.

    An op is *eligible* when it is memory-effect free, has no regions, and
    all its operands and results are ranked tensors of one static shape.
    Walking each block bottom-up, an eligible op joins the group of its
    users when all of them are eligible ops of one group in the same block;
    otherwise it roots a group of its own. Each group therefore has a single
    output, the root's result, and becomes one `linalg.generic` at the
    root's position: identity indexing maps, parallel iterators, one input
    per distinct outside operand, a `tensor.empty` init, and a body holding
    the scalar form of every op of the group in program order. Ops that are
    not eligible (dynamic shapes, scalars mixed with tensors) are left to
    `convert-elementwise-to-linalg`. Part of `nx-lower-to-cpu`.

    Before:

    ```mlir
    %0 = arith.addf %x, %y : tensor<4xf32>
    %1 = arith.mulf %0, %0 : tensor<4xf32>
    %2 = math.exp %1 : tensor<4xf32>
    ```

    After:

    ```mlir
    %e = tensor.empty() : tensor<4xf32>
    %2 = linalg.generic {indexing_maps = [#id, #id, #id],
                         iterator_types = ["parallel"]}
        ins(%x, %y : tensor<4xf32>, tensor<4xf32>)
        outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s0 = arith.addf %a, %b : f32
      %s1 = arith.mulf %s0, %s0 : f32
      %s2 = math.exp %s1 : f32
      linalg.yield %s2 : f32
    } -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def NxHoistDeallocs : Pass<"nx-hoist-deallocs"> {
  let summary = "Frees each fresh buffer right after its last use instead of at its block's end";
  let description = [{
    `ownership-based-buffer-deallocation` frees a block's buffers at the
    block's end, so a straight-line function keeps every intermediate buffer
    alive until it returns: a chain of 1,000 host callbacks on 1 MiB tensors
    peaks at 1 GiB. This pass moves each `bufferization.dealloc` of a single
    fresh allocation without retained values (the form
    `buffer-deallocation-simplification` leaves, with `nx-split-deallocs`,
    for most buffers) to just after the buffer's last use in its block.

    A dealloc moves only when the buffer provably has no alias that could be
    used later: it is allocated in the dealloc's block, and none of its
    users (at any depth) is a terminator, has a memref or tensor result
    (a view, `bufferization.to_tensor`), stores it
    (`memref.store` of the buffer itself) or takes its address
    (`memref.extract_aligned_pointer_as_index`). The new position is after
    the last user's ancestor in the block and after the definition of the
    dealloc's condition. Positions are computed before anything moves, so
    the pass is linear in the size of the block. Run it after
    `buffer-deallocation-simplification` and before
    `bufferization-lower-deallocations`, as `nx-lower-to-cpu` does.

    Before:

    ```mlir
    %a = memref.alloc() : memref<4xf32>
    linalg.generic ... ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
    %b = memref.alloc() : memref<4xf32>
    nx.invoke elixir_call @f(%a) outs(%b) : (memref<4xf32>) -> (memref<4xf32>)
    "test.use"(%b) : (memref<4xf32>) -> ()
    bufferization.dealloc (%a : memref<4xf32>) if (%true)
    bufferization.dealloc (%b : memref<4xf32>) if (%true)
    return
    ```

    After:

    ```mlir
    %a = memref.alloc() : memref<4xf32>
    linalg.generic ... ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
    %b = memref.alloc() : memref<4xf32>
    nx.invoke elixir_call @f(%a) outs(%b) : (memref<4xf32>) -> (memref<4xf32>)
    bufferization.dealloc (%a : memref<4xf32>) if (%true)
    "test.use"(%b) : (memref<4xf32>) -> ()
    bufferization.dealloc (%b : memref<4xf32>) if (%true)
    return
    ```
  }];
  let statistics = [
    Statistic<"numHoisted", "deallocs-hoisted", "Number of deallocations moved to right after their buffer's last use">
  ];
}

def NxSplitDeallocs : Pass<"nx-split-deallocs"> {
  let summary = "Gives each fresh allocation its own bufferization.dealloc";
  let description = [{
    `ownership-based-buffer-deallocation` frees every buffer of a block with
    one `bufferization.dealloc` at the block's end, and
    `buffer-deallocation-simplification` then compares each pair of its
    memrefs for aliasing: quadratic in the number of buffers a block
    allocates (2,000 buffers in one function take over a second). This pass
    splits those deallocs in linear time using a fact the simplification
    would have to rediscover pair by pair: the result of an allocating op
    `%a = X` cannot alias a value that was defined before `X` ran.

    A memref of a `bufferization.dealloc` moves to a dealloc of its own
    (same condition) when it is the result of an op with an `Allocate`
    effect on it, it appears once in the list, and every other memref of
    the list is either such a fresh allocation too or properly dominates
    `X`. Retained values that properly dominate `X` are dropped from its
    dealloc (they cannot alias it); for the others, the updated ownership
    the original op returned is the `arith.ori` of what the pieces return.
    Run it between `ownership-based-buffer-deallocation` and
    `buffer-deallocation-simplification` (as `nx-lower-to-cpu` does), which
    then resolves each piece against its few retained values.

    Before (`%x` is a function argument, defined before both allocations):

    ```mlir
    %a = memref.alloc() : memref<4xf32>
    %b = memref.alloc() : memref<4xf32>
    %r = bufferization.dealloc (%x, %a, %b : memref<4xf32>, memref<4xf32>,
        memref<4xf32>) if (%cx, %true, %true) retain (%a : memref<4xf32>)
    ```

    After:

    ```mlir
    %a = memref.alloc() : memref<4xf32>
    %b = memref.alloc() : memref<4xf32>
    %0 = bufferization.dealloc (%x : memref<4xf32>) if (%cx)
        retain (%a : memref<4xf32>)
    %1 = bufferization.dealloc (%a : memref<4xf32>) if (%true)
        retain (%a : memref<4xf32>)
    bufferization.dealloc (%b : memref<4xf32>) if (%true)
    %r = arith.ori %0, %1 : i1
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def NxSplitFunctions : Pass<"nx-split-functions", "::mlir::ModuleOp"> {
  let summary = "Outlines runs of a large function's ops into private functions of bounded size";
  let description = [{
    A function pass visits every op of its function, and a nested pipeline
    runs all its passes on one function before the next: when a function is
    small, its IR stays in the cache from one pass to the next; when it is
    large (100,000 ops are about 100 MB of IR), every pass streams it from
    memory again, and compile time grows faster than the program. This pass
    bounds the size of what the later passes see. In every function with a
    single-block body of more than `max-ops` ops (counting nested ones), it
    cuts the top-level ops into consecutive runs of at most `max-ops` ops
    and moves each run of at least `max-ops / 2` ops into a new private
    function, called where the run was: values the run uses become
    arguments, values used after it become results. The pieces are also
    independent units for a multi-threaded pass manager. Functions with
    several blocks are left alone.

    It is meant for buffers: `nx-lower-to-cpu` runs it right after One-Shot
    Bufferize, before buffer deallocation, and the pieces are shaped so that
    deallocation needs no copies and frees every buffer where it would have
    without the split. A piece never returns a buffer it does not own, so
    some top-level ops stay in the function and end the current run:

    * ops that allocate in the function's frame (an `Allocate` effect on
      the automatic allocation scope, such as `memref.alloca`, at any depth
      outside a nested allocation scope): the memory would be freed when the
      piece returns;
    * ops returning a buffer they did not allocate (a view, a global, a
      loop-carried buffer), and allocations with operands; calls are not
      affected (the caller owns what a call returns).

    Constants (`ConstantLike`, no operands) stay too and are cloned into each
    piece that uses them. An operand-less allocation (`memref.alloc()`)
    moves into its piece unless its buffer is used after the run; then it
    stays in front of the call, so the caller owns it and can free it right
    after its last use.

    Before (`max-ops=3`):

    ```mlir
    func.func @f(%a: memref<4xf32>) -> memref<4xf32> {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      %z = arith.mulf %y, %y : f32
      %b = memref.alloc() : memref<4xf32>
      memref.store %z, %b[%c0] : memref<4xf32>
      return %b : memref<4xf32>
    }
    ```

    After:

    ```mlir
    func.func @f(%a: memref<4xf32>) -> memref<4xf32> {
      %z = call @f_part0(%a) : (memref<4xf32>) -> f32
      %b = memref.alloc() : memref<4xf32>
      call @f_part1(%z, %b) : (f32, memref<4xf32>) -> ()
      return %b : memref<4xf32>
    }
    func.func private @f_part0(%a: memref<4xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      %z = arith.mulf %y, %y : f32
      return %z : f32
    }
    func.func private @f_part1(%z: f32, %b: memref<4xf32>) {
      %c0 = arith.constant 0 : index
      memref.store %z, %b[%c0] : memref<4xf32>
      return
    }
    ```
  }];
  let options = [
    Option<"maxOps", "max-ops", "int64_t", /*default=*/"2048",
           "Largest number of ops (counting nested ones) of a function "
           "left whole, and of each piece">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numPieces", "pieces", "Number of pieces outlined">
  ];
}

def NxInlinePieces : Pass<"nx-inline-pieces", "::mlir::ModuleOp"> {
  let summary = "Inlines the pieces nx-split-functions outlined back into their callers";
  let description = [{
    Moves the body of every function marked `nx.piece` (the pieces
    `nx-split-functions` outlines) back in place of its single call and
    erases the piece. `nx-lower-to-cpu` splits functions before One-Shot
    Bufferize as well as after it: One-Shot's analysis of an operand visits
    every use of every alias of the operand's value, so a tensor read by `n`
    ops of one function costs `O(n^2)` (a function argument read by each of
    1,000 fused chains), while in pieces each function reads it a bounded
    number of times. This pass then restores the bufferized function, so
    that deallocation and the later split see it whole. Every piece must be
    called exactly once, not from itself (directly or through other
    pieces), and have one block ending in `func.return`.

    Before:

    ```mlir
    func.func @f(%a: memref<4xf32>) -> f32 {
      %0 = call @f_part0(%a) : (memref<4xf32>) -> f32
      return %0 : f32
    }
    func.func private @f_part0(%a: memref<4xf32>) -> f32 attributes {nx.piece} {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<4xf32>
      return %x : f32
    }
    ```

    After:

    ```mlir
    func.func @f(%a: memref<4xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<4xf32>
      return %x : f32
    }
    ```
  }];
  let statistics = [
    Statistic<"numInlined", "pieces-inlined", "Number of pieces inlined back into their callers">
  ];
}

#endif // NX_DIALECT_NX_TRANSFORMS_PASSES_TD
