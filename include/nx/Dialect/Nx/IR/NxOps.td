//===- NxOps.td - nx dialect operations --------------------*- tablegen -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_IR_NXOPS_TD
#define NX_DIALECT_NX_IR_NXOPS_TD

include "nx/Dialect/Nx/IR/NxDialect.td"
include "nx/Dialect/Nx/IR/NxAttrs.td"
include "nx/Dialect/Nx/IR/NxTypes.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// The element types a host callback can exchange with the runtime: those of
// nxrt/nxrt_dtypes.def.
def Nx_ElementType : Type<CPred<"::mlir::nx::isHostElementType($_self)">,
    "i1, i8-i64, ui8-ui64, f16, bf16, f32, f64, complex<f32> or complex<f64>">;

// Every tensor crossing the host boundary: ranked, statically shaped, of a
// host element type, and small enough that its byte size fits in int64 (the
// runtime computes buffer sizes in int64, so larger shapes could overflow).
def Nx_HostTensor : Type<
    CPred<"::mlir::nx::isHostTensorType($_self)">,
    "statically shaped tensor of i1, i8-i64, ui8-ui64, f16, bf16, f32, f64 or "
    "complex<f32/f64> elements whose byte size fits in int64",
    "::mlir::RankedTensorType">;

//===----------------------------------------------------------------------===//
// Attribute constraints
//===----------------------------------------------------------------------===//

// Names that must not be empty: blocks, streams, call targets, devices.
def Nx_NonEmptyStrAttr : ConfinedAttr<StrAttr, [AttrConstraint<
    CPred<"!::llvm::cast<::mlir::StringAttr>($_self).getValue().empty()">,
    "that is not empty">]>;

// The custom-call API versions StableHLO defines: 0 up to typed FFI, 4.
def Nx_CustomCallApiVersionAttr : ConfinedAttr<I32Attr, [AttrConstraint<
    CPred<"::llvm::cast<::mlir::IntegerAttr>($_self).getInt() >= 0 && "
          "::llvm::cast<::mlir::IntegerAttr>($_self).getInt() <= "
          "::mlir::nx::kTypedFfiApiVersion">,
    "whose value is in [0, 4]">]>;

// A callback id indexes the runtime's callback table.
def Nx_CallbackIdAttr : ConfinedAttr<I64Attr, [IntNonNegative]>;

//===----------------------------------------------------------------------===//
// Side-effect resources
//===----------------------------------------------------------------------===//

// The host: callbacks observe and mutate host state the compiler cannot see.
def Nx_HostResource : Resource<"::mlir::nx::HostResource">;
// Host streams: infeed and outfeed consume and produce queue entries.
def Nx_StreamResource : Resource<"::mlir::nx::StreamResource">;

//===----------------------------------------------------------------------===//
// nx.callback
//===----------------------------------------------------------------------===//

def Nx_CallbackOp : Nx_Op<"callback", [Symbol]> {
  let summary = "declares a host callback and its static signature";
  let description = [{
    Declares a host callback that `nx.elixir_call` and `nx.io_callback` can
    call by symbol. The signature is static: every input and result is a
    ranked, statically shaped tensor of a host element type (the seeds'
    output template). A callback used by `nx.io_callback` returns nothing.

    `nx-assign-callback-ids` sets the optional `id` attribute.

    ```mlir
    nx.callback @softmax_host : (tensor<4xf32>) -> tensor<4xf32>
    nx.callback @log_value : (tensor<2x3xf32>) -> ()
    nx.callback @with_id : (tensor<f64>) -> tensor<f64> attributes {id = 3 : i64}
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    TypeAttrOf<FunctionType>:$function_type,
    OptionalAttr<StrAttr>:$sym_visibility,
    OptionalAttr<Nx_CallbackIdAttr>:$id
  );
  let assemblyFormat = [{
    custom<VisibilityAndName>($sym_visibility, $sym_name) `:` $function_type
    attr-dict-with-keyword
  }];
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::FunctionType":$type), [{
      build($_builder, $_state, $_builder.getStringAttr(name),
            ::mlir::TypeAttr::get(type), /*sym_visibility=*/nullptr,
            /*id=*/nullptr);
    }]>
  ];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// nx.elixir_call
//===----------------------------------------------------------------------===//

def Nx_ElixirCallOp : Nx_Op<"elixir_call", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "calls a host callback and returns new tensors";
  let description = [{
    Calls the host callback `callee` (an `nx.callback` symbol) with `args`
    and returns new tensors of the callback's declared result types.
    Operand and result types must match the callee's `function_type`.

    `static_args` holds compile-time values handed to the callback next to
    the tensor arguments. A call marked `pure` promises that the callback has
    no observable side effects, so it may be removed when unused and
    deduplicated by CSE; any other call is kept and ordered like a write to
    host state. `ordered` (JAX's `io_callback(..., ordered=True)` with
    results) also asks the StableHLO lowering to keep its program order
    among the other ordered callbacks with an ordering token, as for
    `nx.io_callback ordered`; a call cannot be both `pure` and `ordered`.

    ```mlir
    nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>

    %0 = nx.elixir_call @scale(%x) static_args {factor = 2.0 : f64}
        : (tensor<4xf32>) -> tensor<4xf32>
    %1 = nx.elixir_call pure @scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = nx.elixir_call ordered @scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins
    FlatSymbolRefAttr:$callee,
    Variadic<Nx_HostTensor>:$args,
    OptionalAttr<DictionaryAttr>:$static_args,
    UnitAttr:$pure,
    UnitAttr:$ordered
  );
  let results = (outs Variadic<Nx_HostTensor>:$results);
  let assemblyFormat = [{
    (`pure` $pure^)? (`ordered` $ordered^)? $callee `(` $args `)`
    (`static_args` $static_args^)? attr-dict `:` functional-type($args, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// nx.io_callback
//===----------------------------------------------------------------------===//

def Nx_IoCallbackOp : Nx_Op<"io_callback", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<InferTypeOpInterface>,
    MemoryEffects<[MemRead<Nx_HostResource>, MemWrite<Nx_HostResource>]>]> {
  let summary = "runs a host callback for its side effect, passing values through";
  let description = [{
    Runs the host callback `callee` on `args` for its side effect (printing,
    logging, writing to disk). Each result is the corresponding operand,
    unchanged: the same type and the same value, so lowerings alias the
    buffers instead of copying them. The callee is declared without results.

    The op is never eliminated, even when its results are unused. Chained
    io_callbacks are ordered by their data dependencies; `ordered` asks the
    lowering to also keep program order among io_callbacks that do not
    depend on each other. Optional `static_args`, as on `nx.elixir_call`,
    are compile-time values handed to the callback (a label, a hook name).
    An `optional` call is a hook the host may leave unbound: with no handler
    registered under the callee's name it does nothing (EXLA's optional
    hooks); otherwise it runs as usual.

    ```mlir
    nx.callback @print : (tensor<2x3xf32>) -> ()

    %y = nx.io_callback @print(%x) : tensor<2x3xf32>
    %z = nx.io_callback @print(%x) static_args {label = "logits"} : tensor<2x3xf32>
    %a, %b = nx.io_callback ordered @print2(%p, %q) : tensor<2xf32>, tensor<i64>
    %h = nx.io_callback optional @trace(%x) : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins
    FlatSymbolRefAttr:$callee,
    Variadic<Nx_HostTensor>:$args,
    UnitAttr:$ordered,
    OptionalAttr<DictionaryAttr>:$static_args,
    UnitAttr:$optional
  );
  let results = (outs Variadic<Nx_HostTensor>:$results);
  let assemblyFormat = [{
    (`ordered` $ordered^)? (`optional` $optional^)? $callee `(` $args `)`
    (`static_args` $static_args^)? attr-dict (`:` type($args)^)?
  }];
}

//===----------------------------------------------------------------------===//
// nx.block / nx.yield
//===----------------------------------------------------------------------===//

def Nx_BlockOp : Nx_Op<"block", [
    IsolatedFromAbove, SingleBlock, RecursiveMemoryEffects]> {
  let summary = "a named computation with a replaceable default implementation";
  let description = [{
    Names a computation (`name`, the block kind such as
    `"Nx.Block.LinAlg.QR"`) with static configuration `config`. The region
    is the default implementation: it receives the inputs as block
    arguments and yields the results with `nx.yield`. A backend may replace
    the whole op by a native kernel (see the block lowering registry);
    otherwise the region is inlined.

    The region is isolated from above, so it depends on nothing but the
    inputs and can be replaced, outlined or compiled on its own. The op has
    exactly the side effects of its region.

    ```mlir
    %q, %r = nx.block "Nx.Block.LinAlg.QR" {mode = "reduced"} (%a)
        : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
    ^bb0(%m: tensor<3x3xf32>):
      ...
      nx.yield %q0, %r0 : tensor<3x3xf32>, tensor<3x3xf32>
    }
    ```
  }];
  let arguments = (ins
    Nx_NonEmptyStrAttr:$name,
    DictionaryAttr:$config,
    Variadic<AnyType>:$inputs
  );
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name $config ` ` `(` $inputs `)` `:` functional-type($inputs, results)
    attr-dict-with-keyword $body
  }];
  let extraClassDeclaration = [{
    /// The terminator of the default implementation.
    YieldOp getYield();

    /// Replaces the op by its default implementation, inlined before it.
    void inlineDefaultImplementation(::mlir::RewriterBase &rewriter);
  }];
  let hasRegionVerifier = 1;
}

def Nx_YieldOp : Nx_Op<"yield", [Pure, ReturnLike, Terminator,
                                  HasParent<"BlockOp">]> {
  let summary = "returns the results of an nx.block default implementation";
  let description = [{
    Terminates the region of `nx.block`; its operands become the block's
    results and must match their types.

    ```mlir
    nx.yield %q, %r : tensor<3x3xf32>, tensor<3x3xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = [{ attr-dict ($values^ `:` type($values))? }];
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
}

//===----------------------------------------------------------------------===//
// nx.outfeed / nx.infeed
//===----------------------------------------------------------------------===//

def Nx_OutfeedOp : Nx_Op<"outfeed", [
    MemoryEffects<[MemRead<Nx_StreamResource>, MemWrite<Nx_StreamResource>]>]> {
  let summary = "sends tensors to a named host stream";
  let description = [{
    Appends `inputs`, as one entry, to the outfeed queue of the host stream
    `stream`. Without `stream`, the stream is chosen when lowering (the
    `stream-name` option of `convert-nx-to-custom-call`). Never eliminated;
    outfeeds and infeeds keep their program order. An outfeed of no tensors
    sends an empty entry (a signal, as in EXLA's stream tests).

    ```mlir
    nx.outfeed %x, %y to "metrics" : tensor<4xf32>, tensor<i64>
    nx.outfeed to "done"
    ```
  }];
  let arguments = (ins
    Variadic<Nx_HostTensor>:$inputs,
    OptionalAttr<Nx_NonEmptyStrAttr>:$stream
  );
  let assemblyFormat = [{
    ($inputs^)? (`to` $stream^)? attr-dict (`:` type($inputs)^)?
  }];
}

// An infeed returns at least one tensor. (OpTrait::AtLeastNResults would
// make getResultTypes() ambiguous next to the variadic results.)
def Nx_AtLeastOneResult : PredOpTrait<"returns at least one result",
    CPred<"$_op.getNumResults() >= 1">>;

def Nx_InfeedOp : Nx_Op<"infeed", [Nx_AtLeastOneResult,
    MemoryEffects<[MemRead<Nx_StreamResource>, MemWrite<Nx_StreamResource>]>]> {
  let summary = "receives tensors from a named host stream";
  let description = [{
    Takes the next entry of the infeed queue of the host stream `stream` and
    returns its tensors, which must have the declared result types. Without
    `stream`, the stream is chosen when lowering. Never eliminated, even
    when its results are unused (that still consumes an entry).

    ```mlir
    %x, %n = nx.infeed from "batches" : tensor<8x4xf32>, tensor<i64>
    ```
  }];
  let arguments = (ins OptionalAttr<Nx_NonEmptyStrAttr>:$stream);
  let results = (outs Variadic<Nx_HostTensor>:$results);
  let assemblyFormat = [{
    (`from` $stream^)? attr-dict `:` type($results)
  }];
}

//===----------------------------------------------------------------------===//
// nx.custom_call
//===----------------------------------------------------------------------===//

// What a custom call exchanges: tensors, and tokens that order it.
def Nx_CustomCallValue : AnyTypeOf<[AnyRankedTensor, Nx_TokenType],
                                   "ranked tensor or token">;

def Nx_CustomCallOp : Nx_Op<"custom_call", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "a call to a named backend target, mirroring stablehlo.custom_call";
  let description = [{
    Mirrors `stablehlo.custom_call` attribute for attribute, with the same
    verifier rules, so `nx-export-stablehlo` can print it as StableHLO:

    * `call_target_name`: the registered target (printed as `@name`);
    * `has_side_effect`: without it the op is pure and may be removed when
      unused, as in StableHLO;
    * `backend_config`: a dictionary when `api_version` is 4 (typed FFI),
      otherwise a string;
    * `api_version`: 0-4, default 1 (the original API);
    * `output_operand_aliases`: results that share an operand's buffer;
    * `called_computations`: functions the target may call;
    * `operand_layouts` / `result_layouts`: both or neither, one
      minor-to-major permutation per operand and result.

    Operands and results are ranked tensors or `!nx.token`s (as in StableHLO,
    where token-threaded custom calls order ordered effects).

    ```mlir
    %r = nx.custom_call @exla_io_callback(%x) {
      api_version = 4 : i32, has_side_effect = true,
      backend_config = {callback_id = array<i64: 0>, callback_id_size = 1 : ui64},
      output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [],
                                  operand_index = 0, operand_tuple_indices = []>]
    } : (tensor<2x3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins
    Variadic<Nx_CustomCallValue>:$inputs,
    Nx_NonEmptyStrAttr:$call_target_name,
    DefaultValuedOptionalAttr<BoolAttr, "false">:$has_side_effect,
    OptionalAttr<AnyAttrOf<[StrAttr, DictionaryAttr]>>:$backend_config,
    DefaultValuedOptionalAttr<Nx_CustomCallApiVersionAttr, "1">:$api_version,
    OptionalAttr<FlatSymbolRefArrayAttr>:$called_computations,
    OptionalAttr<ArrayAttr>:$operand_layouts,
    OptionalAttr<ArrayAttr>:$result_layouts,
    DefaultValuedOptionalAttr<TypedArrayAttrBase<Nx_OutputOperandAlias,
        "aliasing attribute array">, "{}">:$output_operand_aliases
  );
  let results = (outs Variadic<Nx_CustomCallValue>:$results);
  let assemblyFormat = [{
    custom<CallTarget>($call_target_name) `(` $inputs `)` attr-dict
    `:` functional-type($inputs, results)
  }];
  let hasVerifier = 1;
}


//===----------------------------------------------------------------------===//
// nx.create_token / nx.after_all
//===----------------------------------------------------------------------===//

def Nx_CreateTokenOp : Nx_Op<"create_token", [Pure]> {
  let summary = "makes a fresh ordering token, mirroring stablehlo.create_token";
  let description = [{
    Returns a token that depends on nothing, to start a chain of ordered
    effects. `nx-import-stablehlo` and `nx-export-stablehlo` map it to and
    from `stablehlo.create_token`.

    ```mlir
    %t = nx.create_token : !nx.token
    ```
  }];
  let results = (outs Nx_TokenType:$token);
  let assemblyFormat = "attr-dict `:` type($token)";
}

def Nx_AfterAllOp : Nx_Op<"after_all", [Pure]> {
  let summary = "joins ordering tokens, mirroring stablehlo.after_all";
  let description = [{
    Returns a token that comes after all of `inputs`: an op that takes it
    runs after every op that produced one of them. `nx-import-stablehlo`
    and `nx-export-stablehlo` map it to and from `stablehlo.after_all`.

    ```mlir
    %t = nx.after_all %a, %b : !nx.token
    ```
  }];
  let arguments = (ins Variadic<Nx_TokenType>:$inputs);
  let results = (outs Nx_TokenType:$token);
  let assemblyFormat = "$inputs attr-dict `:` type($token)";
  let builders = [
    OpBuilder<(ins "::mlir::ValueRange":$inputs), [{
      build($_builder, $_state, ::mlir::nx::TokenType::get($_builder.getContext()),
            inputs);
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// nx.to_device / nx.to_host (host <-> device transfers, nx-segment-callbacks)
//===----------------------------------------------------------------------===//

def Nx_ToDeviceOp : Nx_Op<"to_device", [Pure, SameOperandsAndResultType]> {
  let summary = "copies a host value to a device";
  let description = [{
    Copies `value` from host memory to the memory of `device`; the result is
    the same value, now resident on the device. `nx-segment-callbacks` puts
    one in the orchestrator for each host value a device stage reads, so a
    backend knows where copies happen and a cost model can count them.

    The op is a value copy without side effects: CSE may merge duplicates
    and unused transfers may be removed.

    ```mlir
    %d = nx.to_device %x to "cuda" : tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyType:$value, Nx_NonEmptyStrAttr:$device);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$value `to` $device attr-dict `:` type($value)";
}

def Nx_ToHostOp : Nx_Op<"to_host", [Pure, SameOperandsAndResultType]> {
  let summary = "copies a device value to the host";
  let description = [{
    Copies `value` from the memory of `device` to host memory; the result is
    the same value, now resident on the host. `nx-segment-callbacks` puts one
    in the orchestrator for each device value that a host callback, a
    host-side control-flow op or the orchestrator's return reads.

    ```mlir
    %h = nx.to_host %y from "cuda" : tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyType:$value, Nx_NonEmptyStrAttr:$device);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$value `from` $device attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// nx.invoke (buffer form)
//===----------------------------------------------------------------------===//

// The values are libnxrt's nxrt_site_kind_t (checked where it is lowered).
def Nx_InvokeKind : I32EnumAttr<"InvokeKind",
    "how the host runtime serves an nx.invoke", [
  I32EnumAttrCase<"ElixirCall", 0, "elixir_call">,
  I32EnumAttrCase<"IoCallback", 1, "io_callback">,
  I32EnumAttrCase<"CustomCall", 2, "custom_call">,
  I32EnumAttrCase<"Outfeed", 3, "outfeed">,
  I32EnumAttrCase<"Infeed", 4, "infeed">,
  I32EnumAttrCase<"OptionalIoCallback", 5, "optional_io_callback">]> {
  let cppNamespace = "::mlir::nx";
}

def Nx_HostMemRef : MemRefOf<[Nx_ElementType]>;

def Nx_InvokeOp : Nx_Op<"invoke", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "a host interaction on buffers, served by the runtime";
  let description = [{
    The buffer form of every nx host interaction, produced by bufferization
    and lowered by `convert-nx-to-llvm` to one `nxrt_invoke` call. `kind`
    says how the runtime serves it and `name` what it calls: the callback
    (elixir_call, io_callback), the custom-call target, or the stream
    (outfeed, infeed). `attrs` are handed to the host in typed form (the
    call's static_args or the custom call's backend_config).

    The runtime reads `inputs` in place and writes each output straight into
    its buffer in `outputs`; an output may be an input buffer (an aliased
    custom-call result). io_callback and outfeed have no outputs. Buffers are
    contiguous, row-major and statically shaped.

    Without `has_side_effect` the op only reads its inputs and writes its
    outputs; with it, it also reads and writes host state.

    A custom-call target may take and return tokens, which carry no data and
    so have no buffer. `token_inputs` and `token_outputs` list their
    positions in the target's operand and result lists, in increasing order;
    the buffers fill the other positions in order. The runtime hands the
    target each token as a rank-0 view of dtype `NXRT_TOKEN` with no data,
    as XLA hands a token to an FFI handler.

    ```mlir
    nx.invoke elixir_call @normalize(%in) outs(%out) attrs {norm = "l2"} {has_side_effect}
        : (memref<4xf32>) -> (memref<4xf32>)
    nx.invoke io_callback @log(%in) outs() {has_side_effect} : (memref<4xf32>) -> ()
    // The target's operands are (token, memref<4xf32>); its results
    // (memref<4xf32>, token).
    nx.invoke custom_call @log_ordered(%in) outs(%out)
        {has_side_effect, token_inputs = array<i64: 0>, token_outputs = array<i64: 1>}
        : (memref<4xf32>) -> (memref<4xf32>)
    ```
  }];
  let arguments = (ins
    Nx_InvokeKind:$kind,
    Nx_NonEmptyStrAttr:$name,
    DefaultValuedAttr<DictionaryAttr, "{}">:$attrs,
    Variadic<Nx_HostMemRef>:$inputs,
    Variadic<Nx_HostMemRef>:$outputs,
    UnitAttr:$has_side_effect,
    OptionalAttr<DenseI64ArrayAttr>:$token_inputs,
    OptionalAttr<DenseI64ArrayAttr>:$token_outputs
  );
  let assemblyFormat = [{
    $kind custom<CallTarget>($name) `(` $inputs `)` `outs` `(` $outputs `)`
    (`attrs` $attrs^)? attr-dict
    `:` custom<ParenTypeList>(type($inputs)) `->`
    custom<ParenTypeList>(type($outputs))
  }];
  let builders = [
    // Every kind but custom_call takes buffers only.
    OpBuilder<(ins "InvokeKind":$kind, "::llvm::StringRef":$name,
                   "::mlir::DictionaryAttr":$attrs, "::mlir::ValueRange":$inputs,
                   "::mlir::ValueRange":$outputs, "bool":$hasSideEffect), [{
      build($_builder, $_state, kind, name, attrs, inputs, outputs,
            hasSideEffect, /*token_inputs=*/nullptr, /*token_outputs=*/nullptr);
    }]>
  ];
  let hasVerifier = 1;
}

#endif // NX_DIALECT_NX_IR_NXOPS_TD
