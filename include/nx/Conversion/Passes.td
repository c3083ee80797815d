//===- Passes.td - nx conversion passes --------------------*- tablegen -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_PASSES_TD
#define NX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertNxToCustomCallPass
    : Pass<"convert-nx-to-custom-call", "::mlir::ModuleOp"> {
  let summary = "Lowers nx callbacks, streams and blocks to nx.custom_call";
  let description = [{
    Rewrites every `nx.elixir_call`, `nx.io_callback`, `nx.outfeed`,
    `nx.infeed` and `nx.block` in the module into `nx.custom_call` ops that
    mirror `stablehlo.custom_call` (and `nx-export-stablehlo` prints as
    StableHLO). Callback ids come from `nx-assign-callback-ids`: a call to a
    callback without an `id` is an error asking to run that pass first (the
    pass does not invent ids, so the ids a host binds are always the ones
    recorded in the module's `nx.callback_ids`). `nx.callback` declarations
    stay, as the record of names and signatures.

    The callbacks and streams are a dialect conversion whose patterns are
    public (`populateNxToCustomCallConversionPatterns` in
    `nx/Conversion/NxToCustomCall/NxToCustomCall.h`); every host op is
    checked first (`checkLowerableToCustomCall`), so each problem is
    reported once, at its op. Blocks are lowered by their own pattern
    (`populateNxBlockToCustomCallPatterns`), once each, innermost first: the
    registry decides per block whether it becomes a custom call or its
    default implementation.

    All custom calls use `api_version = 4` (typed FFI) with a dictionary
    `backend_config`.

    **Callbacks, `callback-abi=exla` (default)**: what EXLA's main branch
    emits for `Nx.runtime_call` and `Nx.io_call`, and its
    `exla_runtime_callback` handler runs. Operand 0 is the callback server
    (a `tensor<Nxui8>` constant of the `callback-server-handle` bytes; 8
    zero bytes without one: EXLA passes its server pid there), then the
    callback's arguments. `backend_config` holds exactly `callback_id` (the
    id's 8 little-endian bytes as i64 words), `callback_id_size` and
    `num_aliased_data_outputs`, the entries EXLA's handler binds (it takes
    no others). An elixir_call has its own results, none aliased, and
    `has_side_effect = true` unless `pure`; an io_callback returns its
    arguments, each aliasing its operand (`num_aliased_data_outputs` of
    them). `ordered`, `optional` and `static_args` go into the
    `nx.callback_attrs` dictionary beside `backend_config`; ordered calls
    stay in program order by their side effect, as EXLA's own do (XLA's CPU
    backend keeps that order; use `exla-legacy` for a data dependency).
    `callback-id-encoding=operand` is an error with this ABI.

    ```mlir
    // Before (after nx-assign-callback-ids):
    %0 = nx.elixir_call @scale(%x) static_args {factor = 2.0 : f64}
        : (tensor<4xf32>) -> tensor<4xf32>
    %1 = nx.io_callback ordered @log(%0) : tensor<4xf32>
    // After:
    %server = arith.constant dense<0> : tensor<8xui8>
    %0 = nx.custom_call @exla_runtime_callback(%server, %x) {api_version = 4 : i32,
        backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64,
                          num_aliased_data_outputs = 0 : ui64},
        has_side_effect = true,
        nx.callback_attrs = {static_args = {factor = 2.0 : f64}}}
        : (tensor<8xui8>, tensor<4xf32>) -> tensor<4xf32>
    %1 = nx.custom_call @exla_runtime_callback(%server, %0) {api_version = 4 : i32,
        backend_config = {callback_id = array<i64: 1>, callback_id_size = 8 : ui64,
                          num_aliased_data_outputs = 1 : ui64},
        has_side_effect = true, nx.callback_attrs = {ordered = true},
        output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [],
            operand_index = 1, operand_tuple_indices = []>]}
        : (tensor<8xui8>, tensor<4xf32>) -> tensor<4xf32>
    ```

    **Callbacks, `callback-abi=exla-legacy`**: the targets of earlier EXLA
    releases, described below.

    **elixir_call**. Target `callback-target` (default
    `exla_elixir_callback`); `has_side_effect = true` unless the call is
    `pure`; `static_args` are passed as the `static_args` backend_config
    entry. The callback id is encoded as selected by `callback-id-encoding`:

    * `backend-config` (default): `callback_id` holds the id's 8
      little-endian bytes packed into i64 words, `callback_id_size` the byte
      count. With `callback-server-handle`, the handle string's bytes are
      packed the same way into `callback_server_pid` /
      `callback_server_pid_size`.
    * `operand`: a trailing `tensor<i64>` scalar operand
      (an `arith.constant`) carries the id.

    ```mlir
    // Before (after nx-assign-callback-ids):
    nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32> attributes {id = 0 : i64}
    %0 = nx.elixir_call @scale(%x) static_args {factor = 2.0 : f64}
        : (tensor<4xf32>) -> tensor<4xf32>
    // After, callback-id-encoding=backend-config:
    %0 = nx.custom_call @exla_elixir_callback(%x) {api_version = 4 : i32,
        backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64,
                          static_args = {factor = 2.0 : f64}},
        has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    // After, callback-id-encoding=operand:
    %id = arith.constant dense<0> : tensor<i64>
    %0 = nx.custom_call @exla_elixir_callback(%x, %id) {api_version = 4 : i32,
        backend_config = {static_args = {factor = 2.0 : f64}},
        has_side_effect = true} : (tensor<4xf32>, tensor<i64>) -> tensor<4xf32>
    ```

    **io_callback**. Target `io-callback-target` (default
    `exla_io_callback`), `has_side_effect = true`, results of the operand
    types, and one `output_operand_aliases` entry per operand (result i
    aliases operand i; `output_tuple_indices = []` for a single result,
    `[i]` for several) so the runtime passes buffers through without a copy.
    The callback id is encoded as for elixir_call.

    `has_side_effect` alone does not order custom calls in StableHLO, so
    `ordered` io_callbacks and elixir_calls are chained by data: within each
    block, they thread an ordering token, a `tensor<ui8>` that is the last
    operand (before an operand-encoded id) and the last result, which
    aliases it. The first one in a block takes `arith.constant dense<0> :
    tensor<ui8>`, each next one the previous token result. backend_config
    gets `ordered = true`, which tells the target that the last operand is
    the token, not a callback argument.

    ```mlir
    // Before:
    %a = nx.io_callback ordered @log(%x) : tensor<2xf32>
    %b = nx.io_callback ordered @log(%y) : tensor<2xf32>
    // After:
    %t = arith.constant dense<0> : tensor<ui8>
    %a:2 = nx.custom_call @exla_io_callback(%x, %t) {api_version = 4 : i32,
        backend_config = {callback_id = array<i64: 0>, callback_id_size = 8 : ui64,
                          ordered = true},
        has_side_effect = true, output_operand_aliases = [
          #nx.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>,
          #nx.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>]}
        : (tensor<2xf32>, tensor<ui8>) -> (tensor<2xf32>, tensor<ui8>)
    %b:2 = nx.custom_call @exla_io_callback(%y, %a#1) {...}
        : (tensor<2xf32>, tensor<ui8>) -> (tensor<2xf32>, tensor<ui8>)
    ```

    **outfeed / infeed**. The stream is the op's `stream`, else
    `stream-name`; neither is an error. The stream handle is an
    `arith.constant` `tensor<Nxui8>` holding the bytes defined by the runtime
    ABI in `nxrt/nxrt.h` ("NXSH", version byte, 3 zero bytes, u32 LE name
    length, UTF-8 name). `exla_beam_outfeed` takes the handle then the
    payload and returns a `tensor<ui8>` success flag. `exla_beam_infeed`
    takes the handle and the tag (`tensor<8xui8>`, a u64 LE sequence number)
    and returns the next tag then the payload; within each block the tag is
    threaded from one infeed to the next (the first takes tag 0), so their
    order is a data dependency. Both are `has_side_effect = true`.

    ```mlir
    // Before:
    nx.outfeed %x to "s" : tensor<4xf32>
    %y = nx.infeed from "s" : tensor<4xf32>
    // After:
    %h = arith.constant dense<[78, 88, 83, 72, 1, 0, 0, 0, 1, 0, 0, 0, 115]> : tensor<13xui8>
    %ok = nx.custom_call @exla_beam_outfeed(%h, %x) {api_version = 4 : i32,
        backend_config = {}, has_side_effect = true}
        : (tensor<13xui8>, tensor<4xf32>) -> tensor<ui8>
    %tag = arith.constant dense<0> : tensor<8xui8>
    %r:2 = nx.custom_call @exla_beam_infeed(%h, %tag) {api_version = 4 : i32,
        backend_config = {}, has_side_effect = true}
        : (tensor<13xui8>, tensor<8xui8>) -> (tensor<8xui8>, tensor<4xf32>)
    ```

    **block**. The block lowering registry
    (`nx/Dialect/Nx/BlockLowering.h`) is asked for the block's kind on the
    target `platform`. A custom-call spec becomes an `nx.custom_call` to its
    target with its attributes as backend_config; inputs whose element type
    differs from the spec's operand element types are converted first
    (`arith.extf`, `arith.truncf`, ...) and results converted back. *Skip*
    or no implementation inlines the default region.

    ```mlir
    // Before (platform=host):
    %q, %r = nx.block "Nx.Block.LinAlg.QR" {} (%a)
        : (tensor<3x3xf16>) -> (tensor<3x3xf16>, tensor<3x3xf16>) {...}
    // After:
    %0 = arith.extf %a : tensor<3x3xf16> to tensor<3x3xf32>
    %1:2 = nx.custom_call @qr_cpu_custom_call_f32(%0) {api_version = 4 : i32,
        backend_config = {}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
    %q = arith.truncf %1#0 : tensor<3x3xf32> to tensor<3x3xf16>
    %r = arith.truncf %1#1 : tensor<3x3xf32> to tensor<3x3xf16>
    ```

    **platform**. `platform` is one of host, cuda, rocm, tpu (anything else
    is an error). Callbacks and streams only run on the host: on another
    platform each elixir_call / io_callback / infeed / outfeed is an error
    asking to run `nx-segment-callbacks` first, unless its enclosing function
    is a host orchestrator (unit attribute `nx.host_orchestrator`, set by
    that pass).
  }];
  let dependentDialects = [
    "::mlir::nx::NxDialect",
    "::mlir::arith::ArithDialect",
  ];
  let options = [
    Option<"platform", "platform", "::mlir::nx::Platform",
           /*default=*/"::mlir::nx::Platform::Host", "Target platform",
           [{::llvm::cl::values(
             clEnumValN(::mlir::nx::Platform::Host, "host", "the CPU"),
             clEnumValN(::mlir::nx::Platform::Cuda, "cuda", "an NVIDIA GPU"),
             clEnumValN(::mlir::nx::Platform::Rocm, "rocm", "an AMD GPU"),
             clEnumValN(::mlir::nx::Platform::Tpu, "tpu", "a TPU"))}]>,
    Option<"callbackAbi", "callback-abi", "::mlir::nx::CallbackAbi",
           /*default=*/"::mlir::nx::CallbackAbi::ExlaRuntimeCallback",
           "Custom calls made of callbacks",
           [{::llvm::cl::values(
             clEnumValN(::mlir::nx::CallbackAbi::ExlaRuntimeCallback, "exla",
                        "EXLA's exla_runtime_callback (default)"),
             clEnumValN(::mlir::nx::CallbackAbi::ExlaLegacy, "exla-legacy",
                        "exla_elixir_callback / exla_io_callback, or "
                        "callback-target / io-callback-target"))}]>,
    Option<"callbackTarget", "callback-target", "std::string",
           /*default=*/"\"exla_elixir_callback\"",
           "Custom-call target of nx.elixir_call (callback-abi=exla-legacy)">,
    Option<"ioCallbackTarget", "io-callback-target", "std::string",
           /*default=*/"\"exla_io_callback\"",
           "Custom-call target of nx.io_callback (callback-abi=exla-legacy)">,
    Option<"idEncoding", "callback-id-encoding",
           "::mlir::nx::CallbackIdEncoding",
           /*default=*/"::mlir::nx::CallbackIdEncoding::BackendConfig",
           "How callback ids reach the callback (callback-abi=exla-legacy)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::nx::CallbackIdEncoding::BackendConfig,
                        "backend-config",
                        "callback_id / callback_id_size backend_config words "
                        "(default)"),
             clEnumValN(::mlir::nx::CallbackIdEncoding::Operand, "operand",
                        "a trailing tensor<i64> operand"))}]>,
    Option<"callbackServerHandle", "callback-server-handle", "std::string",
           /*default=*/"\"\"",
           "Callback server handle: the bytes of the server operand "
           "(callback-abi=exla), or callback_server_pid words in "
           "backend_config (exla-legacy, backend-config encoding)">,
    Option<"streamName", "stream-name", "std::string", /*default=*/"\"\"",
           "Stream of infeed/outfeed ops without a `stream` attribute">,
    Option<"blocksOnly", "blocks-only", "bool", /*default=*/"false",
           "Lower only nx.block ops and leave callbacks and streams as they "
           "are (nx-lower-to-cpu serves those through the runtime directly)">,
  ];
  let statistics = [
    Statistic<"numCallbacks", "callbacks", "Number of elixir_call and io_callback ops lowered">,
    Statistic<"numStreamOps", "stream-ops", "Number of infeed and outfeed ops lowered">,
    Statistic<"numNativeBlocks", "blocks-native", "Number of blocks lowered to a native kernel's custom call">,
    Statistic<"numInlinedBlocks", "blocks-inlined", "Number of blocks replaced by their default implementation">
  ];
}

def ConvertNxToLLVMPass : Pass<"convert-nx-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lowers nx.invoke to calls into the libnxrt runtime";
  let description = [{
    Runs after bufferization. Every `nx.invoke` becomes one `nxrt_invoke`
    call on the current run (`nxrt_run_current`), with the operand and result
    buffers passed in place as `nxrt_tensor_t` views (arrays allocated at the
    function's entry). Nothing is looked up by name at run time: every
    invoke gets a call-site record, `@__nx_site_<k>`, an
    `nxrt_site_record_t` followed by the site's constant bytes (the dims of
    its views, a stream handle, the callee name, the op's `file:line:col`,
    the typed attributes). The records form a list from `@__nx_sites`, and
    `__nx_init(nxrt_program_t *)`, which the host calls once after loading
    the module, hands it to `nxrt_program_add_sites`: the runtime resolves
    every site once (callback and target names, decoded attributes) and
    writes it into its record, where each call reads it. `__nx_init` is the
    same few instructions for any number of sites. In a module with f32,
    bf16, f16 or i8 products (`nxrt_gemm_f32`, `nxrt_gemm_part_f32` and the
    others from `nx-linalg-to-blas`), it first calls `nxrt_gemm_prepare`,
    so that oneDNN compiles its GEMM kernels when the program loads rather
    than in its first run. In a module with parallel loop nests (which size
    their teams by `nxrt_compute_threads`) it starts the team
    (`nxrt_threads_prepare`), and in one with static heap buffers it faults
    in as much heap as a run holds at once (`nxrt_heap_prepare`), estimated
    from the `memref.alloc` and `memref.dealloc` ops in program order,
    buffers that callees return included. With bf16, f16 or i8 products of
    constant sizes, it has every thread of the team map the buffers those
    products widen their operands into (`nxrt_gemm_prepare_widened`, once
    per dtype, with the largest A, B and C among its products: the runtime
    maps nothing a dtype does not widen on the CPU), and with f32 products
    whose B rows
    lie a multiple of 256 floats apart, the buffer CPUs without AVX-512 copy
    such a B into with padded rows (`nxrt_gemm_prepare_padded`, with the
    largest). Each distinct bf16 or i8 product of constant sizes and
    strides has its oneDNN kernels made, where the CPU has instructions for
    them (`nxrt_gemm_prepare_bf16_f32` and `nxrt_gemm_prepare_i8_i32`,
    whether the product is shared among the team first, then the call's
    integers but the part and the number of parts). The heap comes last, so
    that those buffers of the loading thread, and the convolutions'
    (`nxrt_conv2d_prepare_f32`), do not take it:

    ```mlir
    llvm.func @__nx_init(%program: !llvm.ptr) -> !llvm.ptr {
      llvm.call @nxrt_gemm_prepare() : () -> ()
      llvm.call @nxrt_threads_prepare() : () -> ()
      %i8 = llvm.mlir.constant(2 : i32) : i32
      llvm.call @nxrt_gemm_prepare_widened(%i8, %a, %b, %c)
          : (i32, i64, i64, i64) -> ()
      llvm.call @nxrt_gemm_prepare_padded(%padded) : (i64) -> ()
      llvm.call @nxrt_gemm_prepare_i8_i32(%shared, %batch, %m, %n, %k, ...)
          : (i64, i64, i64, i64, i64, ...) -> ()
      %bytes = llvm.mlir.constant(10494121 : i64) : i64
      llvm.call @nxrt_heap_prepare(%bytes) : (i64) -> ()
      ...
    }
    ```

    Infeeds also pass the
    stream protocol's tag (zero: compiled code orders its infeeds by control
    flow). Runtime symbol names come from `RuntimeSymbols.h`, enum values
    from `nxrt/nxrt.h`.

    Compiled code stops at the first failure. A failed `nxrt_invoke` left its
    results unwritten, so the function branches to an exit of that call,
    which hands the status to `nxrt_invoke_failed` (it aborts with the
    message when there is no run) and returns all-zero values. Every call of
    a function that may stop this way (it invokes the host, calls such a
    function, or is an external `func.func`) is followed by a check of
    `nxrt_run_failed`, so the callers stop too, up to the entry point. Host
    calls and such calls must therefore sit in the function's body, not in a
    structured region: run `convert-scf-to-cf` first.

    A heap allocation that fails stops the code the same way. Every
    `memref.alloc` in a function is followed by a check of its buffer; a
    NULL one calls `nxrt_out_of_memory(run, bytes, "file:line:col")`, which
    fails the run with RESOURCE_EXHAUSTED, and takes the exit. In a region
    the function cannot leave from (an OpenMP loop body), the check ends the
    region's code as its terminator does, and the function checks
    `nxrt_run_failed` after the op that holds the region.

    The invokes are lowered by patterns that need nothing but the invoke
    (`populateNxToLLVMConversionPatterns` in
    `nx/Conversion/NxToLLVM/NxToLLVM.h`); the nx dialect also offers them
    through `ConvertToLLVMPatternInterface`, so upstream's `convert-to-llvm`
    lowers nx too. Each record joins the front of the list and each call
    splits its block after it; the pass lowers the invokes from the last to
    the first, so site ids follow program order and every op moves once:
    the work is linear in the number of call sites. What only the pass does:
    the callers' checks, turning host calls that take and return no tensor
    (which bufferization leaves alone) into invokes, and an `__nx_init` for
    modules without call sites.

    Before:

    ```mlir
    func.func @f(%in: memref<4xf32>, %out: memref<4xf32>) -> memref<4xf32> {
      nx.invoke elixir_call @normalize(%in) outs(%out) attrs {norm = "l2"}
          {has_side_effect} : (memref<4xf32>) -> (memref<4xf32>)
      return %out : memref<4xf32>
    }
    func.func @g(%in: memref<4xf32>, %out: memref<4xf32>) -> memref<4xf32> {
      %r = call @f(%in, %out) : (memref<4xf32>, memref<4xf32>) -> memref<4xf32>
      return %r : memref<4xf32>
    }
    ```

    After (abbreviated):

    ```mlir
    llvm.mlir.global internal constant @__nx_sites() : !llvm.ptr {
      %first = llvm.mlir.addressof @__nx_site_0 : !llvm.ptr
      llvm.return %first : !llvm.ptr
    }
    func.func @f(%in: memref<4xf32>, %out: memref<4xf32>) -> memref<4xf32> {
      %args = llvm.alloca ... x !llvm.struct<(i32, i32, ptr, ptr)>
      %results = llvm.alloca ... x !llvm.struct<(i32, i32, ptr, ptr)>
      %record = llvm.mlir.addressof @__nx_site_0 : !llvm.ptr
      // fill {dtype, rank, dims (in the record), data} for %in and %out
      %run = llvm.call @nxrt_run_current() : () -> !llvm.ptr
      %site = llvm.load (llvm.getelementptr %record[0, 1])
      %status = llvm.call @nxrt_invoke(%run, %site, %args, 1, %results, 1)
      %failed = llvm.icmp "ne" %status, %null : !llvm.ptr
      llvm.cond_br %failed, ^failed, ^ok
    ^ok:
      return %out : memref<4xf32>
    ^failed:
      llvm.call @nxrt_invoke_failed(%run, %status) : (!llvm.ptr, !llvm.ptr) -> ()
      %zero = llvm.mlir.zero : !llvm.struct<(ptr, ptr, i64, array<1 x i64>,
                                             array<1 x i64>)>
      %none = builtin.unrealized_conversion_cast %zero : ... to memref<4xf32>
      return %none : memref<4xf32>
    }
    func.func @g(%in: memref<4xf32>, %out: memref<4xf32>) -> memref<4xf32> {
      %r = call @f(%in, %out) : (memref<4xf32>, memref<4xf32>) -> memref<4xf32>
      %run = llvm.call @nxrt_run_current() : () -> !llvm.ptr
      %flag = llvm.call @nxrt_run_failed(%run) : (!llvm.ptr) -> i32
      %failed = llvm.icmp "ne" %flag, %c0 : i32
      llvm.cond_br %failed, ^failed, ^ok
      ...
    }
    llvm.func @__nx_init(%program: !llvm.ptr) -> !llvm.ptr {
      %first = llvm.load @__nx_sites
      %error = llvm.call @nxrt_program_add_sites(%program, %first)
      llvm.return %error : !llvm.ptr
    }
    // {next, site, then kind, offsets of name, location and attributes,
    //  attributes' length, dims, "normalize\00", "f.mlir:2:3\00", attributes}
    llvm.mlir.global internal @__nx_site_0() : !llvm.struct<(ptr, ptr,
        array<148 x i8>)> { ... }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let statistics = [
    Statistic<"numCallSites", "call-sites", "Number of call sites __nx_init registers">
  ];
}

def NxLinalgToBlasPass : Pass<"nx-linalg-to-blas", "::mlir::ModuleOp"> {
  let summary = "Turns linalg contractions on f32, f64, bf16-into-f32, f16-into-f32 and i8-into-i32 buffers into calls of libnxrt's nxrt_gemm";
  let description = [{
    Replaces a linalg contraction on buffers of one element type, f32 or
    f64, by a call of `nxrt_gemm_f32` / `nxrt_gemm_f64` (`nxrt/nxrt.h`), one
    of bf16 operands into f32 by `nxrt_gemm_bf16_f32`, one of f16 operands
    into f32 by `nxrt_gemm_f16_f32`, and one of i8 operands into i32 by
    `nxrt_gemm_i8_i32`: `C += A B`, batched, with every operand's address
    and element strides read from its descriptor. When the op right before
    is a `linalg.fill` of zero (either sign) of exactly `C`, which neither
    `A` nor `B` is a view of, as bufferized tensor code initializes every
    product, the call takes that fill over: its last argument, `accumulate`,
    is 0 and it writes `C = A B` without reading `C`, so `C` is not zeroed
    in a pass of its own and then read back. A contraction is any linalg op
    whose body is `acc + a * b` and nothing else (bf16 and f16 inputs
    widened by `arith.extf`, i8 ones by `arith.extsi`, before the multiply;
    a body with other ops between, such as `acc + exp(a * b)` or a product
    rounded to bf16 before its sum, is left alone), summed over one
    dimension, with at most one batch dimension and one row and one column
    dimension, each operand indexed by exactly its own dimensions in any
    order: `linalg.matmul`, `linalg.batch_matmul`, `linalg.matvec` and
    `linalg.vecmat`, with their default maps or with `indexing_maps` that
    read an operand transposed, and `linalg.generic` ops of that shape, as
    long as it has a row or a column dimension: a dot product (`linalg.dot`,
    or a batch of them along rows) would be a GEMM of one element per batch,
    on one thread and at a call's cost each, and is left to the loops,
    which `nx-split-reductions` splits into vector sums that threads share
    (rows of 2048 dot products of 2048 took 14.4 ms at one thread as GEMMs,
    2.7 as loops, on an Intel Xeon with AMX). A transposed operand is
    passed as its permuted strides; no copy is made.
    The runtime hands layouts BLAS takes (row- or column-major with a
    leading dimension) to the optimized BLAS it links, single-threaded, and
    computes the rest with a plain loop; bf16 products run on oneDNN's bf16
    kernels where the CPU has bf16 instructions (AVX-512 BF16, AMX),
    elsewhere on the f32 GEMM with both operands widened to f32 (exact), as
    f16 products do on every CPU (oneDNN 2.6 has no f16 kernels for CPUs);
    i8 products run on the f32 GEMM of the widened operands, 1024 steps of
    the reduction at a time (their sums are exact in f32), the runs' sums
    added in i32, wrapping. Ops on tensors, other element types (bf16 into
    bf16, or f16 into f16, rounds every product and sum, which no library
    does; i8 read as unsigned), broadcast operands and several batch
    dimensions are left alone. Part of `nx-lower-to-cpu` (`blas=false` keeps
    the loops).

    With `num-threads-function=@f`, a product of at least `min-work`
    multiply-adds is shared among an OpenMP team of `@f()` threads (a
    `func.func @f() -> i32`, declared if missing): each iteration of an
    `omp.wsloop` over as many parts as threads calls
    `nxrt_gemm_part_f32(%part, %parts, ...)` (`_f64`, `_bf16_f32`,
    `_f16_f32`, `_i8_i32`), which
    computes its range of
    the batches' rows (or of the columns, when rows are few). Sizes known
    only at run time are compared with `min-work` by the region's `if`
    clause, and a small product runs as one part on the calling thread.
    Products nested in another OpenMP region are never shared again.

    An f32 product whose output is next rewritten in place by one
    elementwise `linalg.generic` that adds a 1-D bias along `C`'s columns
    and/or takes `maximumf(x, +0.0)` (a dense layer, with only deallocations
    of other buffers between them) hands both to the call: it becomes
    `nxrt_gemm_part_epilogue_f32` (part 0 of 1 when not shared), with the
    bias's address and stride and the ReLU flag last, and the generic is
    erased. Each part then adds the bias and takes the ReLU of the rows it
    just computed, in the same order of operations as the generic.
    `nx-lower-to-cpu` passes libnxrt's `nxrt_compute_threads` when
    `parallel` is set: the BLAS then needs no threads of its own, and one
    team serves the program's loop nests and products alike.

    Chosen by measurement (docs/Servers.md): oneDNN's GEMM runs a
    512x512x512 f32 matmul at about 190 GFLOP/s on one core of this
    project's development machine, where the linalg loops run it at
    0.5 GFLOP/s, and picks its kernels by instruction set where OpenBLAS
    picks them from a table of CPU models. The libraries' own threads,
    alternating with the OpenMP regions of a convolution's patch copies,
    made two threads slower than one: both pools spin between their turns.

    Before:

    ```mlir
    linalg.fill ins(%cst0 : f32) outs(%c : memref<64x16xf32>)
    linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>)
                  outs(%c : memref<64x16xf32>)
    ```

    After (one operand shown; `%m`, `%n`, `%k` come from the descriptors;
    the fill is gone, and `accumulate` is `%zero`):

    ```mlir
    %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %a
    %aligned = memref.extract_aligned_pointer_as_index %a
    %address = arith.addi (index_cast %aligned), (index_cast %offset * 4)
    %pa = llvm.inttoptr %address : i64 to !llvm.ptr
    ...
    llvm.call @nxrt_gemm_f32(%one, %m, %n, %k, %pa, %zero, %lda, %unit, %pb,
                             ..., %zero) : (i64, i64, i64, i64, !llvm.ptr,
                             i64, i64, i64, ..., i64) -> ()
    ```

    After, for a 512x512x512 product with `num-threads-function=@threads`:

    ```mlir
    %threads = func.call @threads() : () -> i32
    %parts = arith.index_cast %threads : i32 to index
    omp.parallel num_threads(%threads : i32) {
      omp.wsloop {
        omp.loop_nest (%p) : index = (%c0) to (%parts) step (%c1) {
          %part = arith.index_cast %p : index to i64
          %count = arith.index_cast %parts : index to i64
          llvm.call @nxrt_gemm_part_f32(%part, %count, %one, %m, %n, %k,
                                        %pa, ..., %zero)
          omp.yield
        }
      }
      omp.terminator
    }
    ```

    A dense layer, before:

    ```mlir
    linalg.matmul ins(%x, %w : memref<256x784xf32>, memref<784x512xf32>)
                  outs(%h : memref<256x512xf32>)
    linalg.generic {indexing_maps = [#id, #col, #id], ...}
        ins(%h, %bias : memref<256x512xf32>, memref<512xf32>)
        outs(%h : memref<256x512xf32>) {
    ^bb0(%v: f32, %b: f32, %out: f32):
      %s = arith.addf %v, %b : f32
      %r = arith.maximumf %s, %cst0 : f32
      linalg.yield %r : f32
    }
    ```

    After (the generic is gone; `%pbias` and `%bias_stride` come from the
    bias's descriptor):

    ```mlir
    llvm.call @nxrt_gemm_part_epilogue_f32(%part, %count, %one, %m, %n, %k,
        %px, ..., %accumulate, %pbias, %bias_stride, %one)
    ```
  }];
  let options = [
    Option<"numThreadsFunction", "num-threads-function", "std::string",
           /*default=*/"\"\"",
           "Function returning the team size as i32; large products are "
           "shared among that many OpenMP threads (empty: one call on the "
           "calling thread)">,
    Option<"minWork", "min-work", "int64_t", /*default=*/"1048576",
           "Fewest multiply-adds for which a product is shared among threads">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::omp::OpenMPDialect"];
  let statistics = [
    Statistic<"numContractions", "contractions",
              "Number of contractions turned into nxrt_gemm calls">,
    Statistic<"numSharedContractions", "shared-contractions",
              "Number of them shared among OpenMP threads">,
    Statistic<"numOverwrites", "overwrites",
              "Number of them that took over the zero fill of their output">,
    Statistic<"numFusedEpilogues", "fused-epilogues",
              "Number of them that took over the bias and ReLU after them">
  ];
}

def NxLinalgToDnnlPass : Pass<"nx-linalg-to-dnnl", "::mlir::ModuleOp"> {
  let summary = "Turns linalg 2-D convolutions on f32 buffers, with their padding, bias and ReLU, into calls of libnxrt's oneDNN-backed nxrt_conv2d_f32";
  let description = [{
    Replaces `linalg.conv_2d_nhwc_hwcf`, `linalg.conv_2d_nhwc_fhwc`,
    `linalg.conv_2d_nchw_fchw` and `linalg.depthwise_conv_2d_nhwc_hwc` on
    f32 buffers, of any strides and dilations, by a call of
    `nxrt_conv2d_f32` (`nxrt/nxrt.h`): `out += conv(in, filter)`, with every
    operand's address, sizes and element strides read from its descriptor,
    so static and dynamic shapes and strided views are one call. A
    depthwise convolution is a grouped one, a group per channel. libnxrt
    runs it on oneDNN's convolution kernels, on `nxrt_compute_threads()`
    threads of the same OpenMP pool as compiled loop nests, and computes
    what oneDNN does not take with a plain loop.

    Grouped convolutions (`linalg.conv_2d_ngchw_gfchw` and
    `linalg.conv_2d_nhwgc_gfhwc`) are the same call with the groups and
    their channels as one channel dimension, a `memref.collapse_shape` of
    input and output: when the layouts of both guarantee that each group's
    channels follow the previous group's (a view of every other group is
    left to the loops). Their padding, bias and ReLU stay ops of their own;
    their output's zero fill is absorbed. 8 groups of 16 channels on a
    1x56x56 image took 3.2 ms as loops and 0.14 ms on oneDNN at one thread
    on an Intel Xeon with AMX (2 vCPUs).

    The call absorbs the ops around a convolution that would each be a
    pass over memory of their own; oneDNN does them inside its kernel:

    - *the output's zero fill*: when the output is a fresh buffer filled
      with +0.0 just before (nothing else touching it in between), the fill
      is dropped and the call writes over the output (flags without
      `NXRT_CONV2D_ACCUMULATE`);
    - *a zero padding of the input*: when the input is a fresh buffer that
      is filled with +0.0 and gets a buffer of identity layout copied into
      its interior (a bufferized `tensor.pad` of rows and columns), and
      nothing between the copy and the convolution can write that buffer,
      the call reads the copied buffer with the padding as arguments. A
      deallocation of it in between moves after the call;
    - *the bias and ReLU*: a `linalg.generic` right after the convolution
      that rewrites its output in place with `out + bias[channel]` (a 1-D
      f32 buffer) and/or `arith.maximumf(out, +0.0)` is dropped; the call
      adds the bias and applies the ReLU (`NXRT_CONV2D_RELU`), with
      `maximumf`'s NaN and signed-zero results. A bias is taken only on a
      zero-filled output: oneDNN adds it before the old output, which would
      reorder the sum.

    Ops on tensors, other element types and other convolutions are left
    alone (`nx-convolutions-to-gemm` and the loops take them). Part of
    `nx-lower-to-cpu` (`dnnl=false` or `blas=false` leaves convolutions to
    `nx-convolutions-to-gemm` or to the loops).

    Chosen by measurement (docs/Performance.md): the im2col copy and an
    OpenBLAS product ran a 56x56x64 3x3 convolution at 1.3x oneDNN's time,
    depthwise and dilated ones at 1.5-3x; oneDNN's kernels read the input
    in place.

    Before:

    ```mlir
    %padded = memref.alloc() : memref<1x10x10x4xf32>
    linalg.fill ins(%zero : f32) outs(%padded : memref<1x10x10x4xf32>)
    %interior = memref.subview %padded[0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1]
        : memref<1x10x10x4xf32> to memref<1x8x8x4xf32, strided<...>>
    memref.copy %in, %interior : memref<1x8x8x4xf32> to memref<1x8x8x4xf32, strided<...>>
    %out = memref.alloc() : memref<1x4x4x8xf32>
    linalg.fill ins(%zero : f32) outs(%out : memref<1x4x4x8xf32>)
    linalg.conv_2d_nhwc_hwcf
        {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%padded, %filter : memref<1x10x10x4xf32>, memref<3x3x4x8xf32>)
        outs(%out : memref<1x4x4x8xf32>)
    linalg.generic {indexing_maps = [#nhwc, #channel, #nhwc], ...}
        ins(%out, %bias : memref<1x4x4x8xf32>, memref<8xf32>)
        outs(%out : memref<1x4x4x8xf32>) {
    ^bb0(%o: f32, %b: f32, %unused: f32):
      %sum = arith.addf %o, %b : f32
      %relu = arith.maximumf %sum, %zero : f32
      linalg.yield %relu : f32
    }
    memref.dealloc %padded : memref<1x10x10x4xf32>
    ```

    After (`%n`, `%h`, ... and the strides come from the descriptors; the
    padding is 1 and 1, the flags `NXRT_CONV2D_RELU`):

    ```mlir
    %base, %offset, %sizes:4, %strides:4 = memref.extract_strided_metadata %in
    %aligned = memref.extract_aligned_pointer_as_index %in
    ...
    %pin = llvm.inttoptr %address : i64 to !llvm.ptr
    ...
    %out = memref.alloc() : memref<1x4x4x8xf32>
    llvm.call @nxrt_conv2d_f32(%n, %groups, %c, %f, %h, %w, %kh, %kw, %oh,
                               %ow, %c2, %c2, %c1, %c1, %c1, %c1, %c2,
                               %pin, %in_n, %in_c, %in_h, %in_w,
                               %pfilter, %zero, %f_o, %f_i, %f_h, %f_w,
                               %pbias, %bias_c,
                               %pout, %out_n, %out_c, %out_h, %out_w)
        : (i64, ..., !llvm.ptr, i64, ...) -> ()
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numConvolutions", "convolutions",
              "Number of convolutions turned into nxrt_conv2d_f32 calls">,
    Statistic<"numFoldedPads", "folded-pads",
              "Number of zero paddings of their inputs read as the call's padding">,
    Statistic<"numFoldedEpilogues", "folded-epilogues",
              "Number of bias and ReLU ops done by the call">
  ];
}

def NxLinalgToOpenMPPass
    : Pass<"nx-linalg-to-openmp", "::mlir::ModuleOp"> {
  let summary = "Runs large linalg loop nests on buffers on every core, through OpenMP";
  let description = [{
    Shares the outermost loop of a linalg op on buffers among a team of
    OpenMP threads (`omp.parallel` around `omp.wsloop`): the op is tiled
    along that dimension with upstream's `TilingInterface` tiling, and the
    tile loop becomes the worksharing loop. Loops of static extent 1 in
    front (a batch of one image) are skipped: the first loop of another
    extent is shared. Each iteration runs the same op on its slices (enough
    rows for 4096 points; at least 32 when the shared loop walks an input's
    contiguous dimension but not the output's, as in a transpose, so that
    `nx-tile-transposes` can cut square blocks from them, and up to 256, an
    outer block of that pass, in multiples of 32 that leave at least 16
    tiles, since a tile reads each page of the input it visits for 4 bytes
    a row; a multiple of 8
    for a contraction shared along its output's rows, whole register tiles
    of `nx-vectorize-linalg`; for the partial step of a row reduction split
    by `nx-split-reductions`, a multiple of 16 rows, or else of 4, while
    that leaves at least 16 tiles, since `nx-vectorize-linalg` reads one
    row of each quarter of a tile at once), which later passes vectorize
    or lower to loops like any other. This happens when:

    - the shared iterator is parallel and every output is indexed by it,
      so no two threads write the same element;
    - every operand's indices grow with the loops (sums of loops and
      constants, loops scaled by non-negative constants): a tile's slice of
      an operand spans from its first iteration's index to its last's only
      then, so a reversal (`1023 - i`) or a remainder stays serial;
    - its iteration space may reach `min-work` points. The region's `if`
      clause compares the actual count with `min-work` at run time, so a
      small dynamic shape runs on the calling thread; an op statically
      below it is left to `convert-linalg-to-loops`.

    A `memref.copy` that may reach `min-work` elements becomes a
    `linalg.copy` first, shared like any other op: bufferization copies the
    operands of a `tensor.concat` and the interior of a `tensor.pad` into
    subviews of the result, and `memref.copy` ran on the calling thread (a
    concatenation of two 2048x1024 f32 matrices took 3.8 ms at one thread
    and at two on an Intel Xeon with AMX, 2 vCPUs).

    A transpose whose outermost loop walks its input's contiguous dimension
    but not the output's (a `linalg.transpose`, or a generic op that reads
    an input transposed) shares the loop that walks the output's
    contiguous dimension instead, when the sizes are static, the output has
    the identity layout, and that loop divides into at least 16 strips of a
    multiple of 32 iterations, up to 256, each a whole number of cache
    lines (i8 needs strips of 64). Each thread then reads whole rows of the
    input, in runs the prefetchers follow, and writes a strip of columns
    of every output row, which no other thread's lines share. A 2048x2048
    f32 transpose on an Intel Xeon with AMX (2 vCPUs) took 4.1-4.3 ms at
    one thread and 2.1-2.3 at two with the output's rows shared, 1.9-2.0
    and 1.1-1.4 with its columns (and `nx-tile-transposes`' order of
    blocks).

    A reduction along that outermost loop over fewer than 64 rows (fewer
    than 16 blocks of 4 rows for the workers below) shares its first
    parallel loop of an extent other than 1 instead (a sum over a small
    batch of wide rows), when that loop, with the loops inside it, makes
    more tiles of 32768 points than the rows make blocks, and at least 2:
    each thread reduces every row of its own tiles, read in strips of at
    least 128 KiB of f32, in the serial order of each output element, with
    no partial results. Such an op then counts as parallel above.

    A `linalg.fill` right before such an op, of the op's only output, moves
    into the op's tiles when that output is a fresh allocation no input is
    a view of: each tile fills the slice it then accumulates into (a
    pooling's -inf, a reduction's zeros), while it is in cache, and one
    team is forked instead of two. Likewise an in-place elementwise op
    right after it (past deallocations of other buffers), all of whose
    operands are that output with the identity map and whose body has no
    side effects (an average pool's division by its window, an
    activation): each tile applies it to the slice it has just written.

    An op right after such an op (past deallocations of other buffers) that
    reduces or maps the rows it writes also moves into its tiles (with its
    own in-place epilogue, if any): when the first op's output is a fresh
    allocation of its own, the second reads it through a projected
    permutation whose shared loop indexes the same dimension with the same
    static extent, and the first op reads nothing the second writes. Each
    tile then runs the second op on the rows it has just written, with the
    same offset and size. That is how the two halves of a row sum split by
    `nx-split-reductions` run: the partial sums are reduced while in cache,
    in one team.

    Before any of that, a row chain runs in one team: a run of consecutive
    ops that would each share their loop 0 (of the same extent, other than
    1: equal static sizes, or dynamic ones that upstream's value bounds
    prove equal; no contraction or convolution), between which only
    allocations, deallocations and side-effect free ops (views, constants)
    stand, for which op by op the pass would fork at least two teams, and
    which cover at least `min-work` points together (with dynamic sizes, an
    if clause checks that at run time, as for a single op). Every
    buffer the chain writes must be a fresh allocation that each of its ops
    indexes in dimension 0 by loop 0, through reshapes, casts and subviews
    that keep that dimension (not a `reinterpret_cast`, nor a subview that
    drops it), and every other buffer it reads an argument, an allocation
    or a global: row r of every buffer it writes is then touched only by
    the iterations r of its ops, and the tiles of rows are independent.
    Allocations and views move before the team, deallocations after it,
    and each tile runs every op of the chain on its rows, in order (rows
    per tile: those its op of the most points per row takes alone, on the
    granule of a split row reduction's partial step). A softmax (maximum,
    exponential, sum and division of each row, with their fills and
    partial steps) forks one team instead of four, and each tile's rows
    stay in the core's cache from the first op to the last: a 2048x1024
    f32 softmax took 1.55-1.83 ms at one thread and 0.80-1.11 at two op by
    op, 1.50-1.64 and 0.73-0.84 as a chain, on a Zen 4 VM with 2 vCPUs
    (fastest runs of four processes each; `docs/Servers.md`). A layer
    norm, an argmax's steps and a concatenation's copies are chains
    too.

    Before (a row sum, each row divided by it, then exponentials; `%sums`,
    `%y` and `%z` fresh allocations): op by op, the fill and the division
    run in the sum's tiles, and the exponentials in a team of their own.

    ```mlir
    linalg.fill ins(%zero : f32) outs(%sums : memref<2048xf32>)
    linalg.generic {indexing_maps = [#id, #row], ...}   // sums of rows
        ins(%x : memref<2048x1024xf32>) outs(%sums : memref<2048xf32>) {...}
    linalg.generic {indexing_maps = [#id, #row, #id], ...}  // x / sum
        ins(%x, %sums : ...) outs(%y : memref<2048x1024xf32>) {...}
    linalg.generic {indexing_maps = [#id, #id], ...}    // exp(y), into %z
        ins(%y : ...) outs(%z : memref<2048x1024xf32>) {...}
    ```

    After (one team; tiles of 4 rows):

    ```mlir
    omp.parallel num_threads(%threads : i32) {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%c2048) step (%c4) {
          %s = memref.subview %sums[%i] [4] [1]
          linalg.fill ins(%zero : f32) outs(%s : ...)
          linalg.generic ... ins(%xi : ...) outs(%s : ...) {...}
          linalg.generic ... ins(%xi, %s : ...) outs(%yi : ...) {...}
          linalg.generic ... ins(%yi : ...) outs(%zi : ...) {...}
          omp.yield
        }
      }
      omp.terminator
    }
    ```

    With `split-outer-reductions`, any other reduction along the op's
    outermost loop of an extent other than 1 (a column sum: no output
    element belongs to one row) is shared among workers instead, when it
    has one reduction loop, a parallel innermost loop, static sizes, at
    least `min-work` points, one output no input is a view of, and one
    combiner with a neutral element (a sum, a product,
    a maximum). There are as many workers as the team would have threads,
    at most one per block of rows (a block covers at least 4096 points, in
    whole multiples of 4 rows, or of 16 while that leaves at least 16
    blocks, so that each quarter of a block, of which `nx-vectorize-linalg`
    reads one row per pass, is a stream of four rows), and the team has one
    thread per worker.
    Each fills a row of partial results of its own with the neutral
    element and reduces a contiguous share of the blocks into it, so it
    streams its rows while its row of partial results stays in its core's
    cache, and every thread of a team of any size has work. Blocks are
    whole: the last worker also reduces the rows after the last whole
    block, so that every op on rows has a static size (which
    `nx-vectorize-linalg` needs to add four rows per pass).
    Once every worker is done (the worksharing loop's end is a barrier),
    the same team combines the workers' rows into the output, in tiles of
    at least 128 output elements along the output's first dimension of a
    size other than 1; an output of one element is combined after the
    team. The combiner's operations run in another order than the serial
    loop's, which may change floating-point results in the last bits:
    `nx-lower-to-cpu` sets this option unless `strict-reductions` is set.

    Before (`split-outer-reductions`, `num-threads-function=@threads`):

    ```mlir
    linalg.reduce ins(%x : memref<2048x512xf32>)
                  outs(%out : memref<512xf32>) dimensions = [0]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    ```

    After (256 blocks of 8 rows):

    ```mlir
    %threads = func.call @threads() : () -> i32
    %t = arith.index_cast %threads : i32 to index
    %w = arith.maxsi (arith.minsi %t, %c256), %c1 : index
    %partial = memref.alloc(%w) {alignment = 64 : i64} : memref<?x512xf32>
    %team = arith.index_cast %w : index to i32
    omp.parallel num_threads(%team : i32) {
      omp.wsloop {
        omp.loop_nest (%worker) : index = (%c0) to (%w) step (%c1) {
          %row = memref.subview %partial[%worker, 0] [1, 512] [1, 1]
          linalg.fill ins(%zero : f32) outs(%row : ...)
          // blocks [worker * 256 / w, (worker + 1) * 256 / w)
          scf.for %block = %first to %last step %c1 {
            %rows = memref.subview %x[%block * 8, 0] [8, 512] [1, 1]
            linalg.reduce ins(%rows : ...) outs(%row : ...) dimensions = [0]
              (%in: f32, %acc: f32) {...}
          }
          omp.yield
        }
      }
      omp.wsloop {
        omp.loop_nest (%column) : index = (%c0) to (%c512) step (%c128) {
          %rows = memref.subview %partial[0, %column] [%w, 128] [1, 1]
          %sums = memref.subview %out[%column] [128] [1]
          linalg.reduce ins(%rows : ...) outs(%sums : ...) dimensions = [0]
            (%in: f32, %acc: f32) {...}
          omp.yield
        }
      }
      omp.terminator
    }
    memref.dealloc %partial : memref<?x512xf32>
    ```

    Without a `num-threads-function`, the team size comes from OpenMP's
    `omp_get_max_threads` (declared if missing).

    A linalg op's body is pure scalar code: the regions this pass makes
    call no host code and allocate nothing, so they need no run context on
    the worker threads. Loops that call the host (`nx.elixir_call` in an
    `scf.for` or `scf.parallel`) are never made parallel; they keep their
    program order.

    With `num-threads-function=@f`, each region asks `func.func @f() -> i32`
    (declared if missing) for its team size; without it, OpenMP's default
    applies. Running the result needs an OpenMP runtime (libomp) that
    provides `__kmpc_*`. Part of `nx-lower-to-cpu`, which passes libnxrt's
    `nxrt_compute_threads` (`parallel=false` keeps every loop serial).

    Before:

    ```mlir
    linalg.generic {indexing_maps = [#id, #id],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<1024x1024xf32>) outs(%y : memref<1024x1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %e = math.exp %in : f32
      linalg.yield %e : f32
    }
    ```

    After (`min-work` below 2^20, `num-threads-function=@threads`):

    ```mlir
    %threads = func.call @threads() : () -> i32
    omp.parallel num_threads(%threads : i32) {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%c1024) step (%c4) {
          %sx = memref.subview %x[%i, 0] [4, 1024] [1, 1]
          %sy = memref.subview %y[%i, 0] [4, 1024] [1, 1]
          linalg.generic {indexing_maps = [#id, #id],
                          iterator_types = ["parallel", "parallel"]}
              ins(%sx : memref<4x1024xf32, strided<[1024, 1], offset: ?>>)
              outs(%sy : memref<4x1024xf32, strided<[1024, 1], offset: ?>>) {
          ^bb0(%in: f32, %out: f32):
            %e = math.exp %in : f32
            linalg.yield %e : f32
          }
          omp.yield
        }
      }
      omp.terminator
    }
    ```

    With a dynamic size, `omp.parallel if(%large)` forks only when
    `%large = arith.cmpi sge, %points, %min_work` holds at run time.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"65536",
           "Fewest iteration points for which a loop nest runs in parallel">,
    Option<"numThreadsFunction", "num-threads-function", "std::string",
           /*default=*/"\"\"",
           "Function returning the team size as i32 (empty: OpenMP's "
           "default)">,
    Option<"splitOuterReductions", "split-outer-reductions", "bool",
           /*default=*/"false",
           "Share reductions along the outermost loop among workers, each "
           "into a row of partial results (changes the order of "
           "floating-point operations)">
  ];
  let dependentDialects = ["::mlir::omp::OpenMPDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect"];
  let statistics = [
    Statistic<"numParallelNests", "parallel-nests",
              "Number of loop nests now shared among an OpenMP team, each "
              "with the fill and epilogue it absorbed">,
    Statistic<"numSmallNests", "small-nests",
              "Number of linalg ops left serial: statically below min-work">,
    Statistic<"numOuterReductions", "outer-reductions",
              "Number of outer reductions shared among workers, one row of "
              "partial results each">,
    Statistic<"numSharedCopies", "shared-copies",
              "Number of memref.copy ops made linalg.copy ops to share">,
    Statistic<"numRowChains", "row-chains",
              "Number of runs of ops along the same rows shared in one team">
  ];
}

def NxExportStableHLOPass : Pass<"nx-export-stablehlo", "::mlir::ModuleOp"> {
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
  let statistics = [
    Statistic<"numExported", "exported-custom-calls",
              "Number of nx.custom_call ops exported as stablehlo.custom_call">,
    Statistic<"numCallbacks", "exported-callbacks",
              "Number of callback declarations recorded in nx.callbacks">
  ];
  let dependentDialects = ["::mlir::nx::NxDialect"];
}

def NxImportStableHLOPass : Pass<"nx-import-stablehlo", "::mlir::ModuleOp"> {
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
      operand (after the token when ordered), unless its backend_config
      carries the server's pid (`callback_server_pid`), as earlier EXLA
      versions wrote it: then every operand is an argument.
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

    Streams come back too: `exla_beam_outfeed` becomes `nx.outfeed` and
    `exla_beam_infeed` `nx.infeed`, from the stream their constant handle
    (operand 0, nxrt's encoding) names. An infeed's next-tag result stands
    for the tag it took, so the tag chain goes with the calls. An outfeed
    whose success flag is used, or a handle that is not a constant of that
    encoding, is reported at the call.

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
           "nx.elixir_call / nx.io_callback with nx.callback declarations, "
           "and stream custom calls into nx.outfeed / nx.infeed">,
    ListOption<"jaxCallbackNames", "jax-callback-names", "std::string",
               "With raise-callbacks: the callback names of JAX's host "
               "callbacks by index (what the host binds); an index without "
               "one becomes jax_callback_<index>">
  ];
  let statistics = [
    Statistic<"numImported", "imported-custom-calls",
              "Number of stablehlo.custom_call ops imported">,
    Statistic<"numRaised", "raised-callbacks",
              "Number of custom calls raised to nx callbacks and streams">
  ];
  let dependentDialects = ["::mlir::nx::NxDialect"];
}

def NxHooksToIoCallbackPass : Pass<"nx-hooks-to-io-callback", "::mlir::ModuleOp"> {
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
  let statistics = [
    Statistic<"numHooks", "hooks",
              "Number of hook custom calls turned into nx.io_callback ops">
  ];
  let dependentDialects = ["::mlir::nx::NxDialect"];
}

#endif // NX_CONVERSION_PASSES_TD
