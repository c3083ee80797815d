// Round trip through the custom assembly format, and through the generic form.
// RUN: nx-opt %s -split-input-file | nx-opt -split-input-file | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -mlir-print-op-generic | nx-opt -split-input-file | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC --enable-var-scope
// RUN: nx-opt %s -split-input-file | FileCheck %s --check-prefix=SPACING --strict-whitespace

// CHECK: nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: nx.callback @split : (tensor<2x3xf64>) -> (tensor<2xf64>, tensor<3xi64>)
// CHECK: nx.callback private @log : (tensor<4xf32>, tensor<i1>) -> ()
// CHECK: nx.callback @numbered : () -> tensor<ui8> attributes {id = 7 : i64}
// GENERIC: "nx.callback"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "scale"}> : () -> ()
// GENERIC: "nx.callback"() <{function_type = () -> tensor<ui8>, id = 7 : i64, sym_name = "numbered"}> : () -> ()
nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @split : (tensor<2x3xf64>) -> (tensor<2xf64>, tensor<3xi64>)
nx.callback private @log : (tensor<4xf32>, tensor<i1>) -> ()
nx.callback @numbered : () -> tensor<ui8> attributes {id = 7 : i64}

// CHECK-LABEL: func.func @elixir_call
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[M:.+]]: tensor<2x3xf64>)
// CHECK: %[[A:.+]] = nx.elixir_call @scale(%[[X]]) static_args {factor = 2.000000e+00 : f64, mode = "fast"} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[B:.+]] = nx.elixir_call pure @scale(%[[A]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[C:.+]]:2 = nx.elixir_call @split(%[[M]]) : (tensor<2x3xf64>) -> (tensor<2xf64>, tensor<3xi64>)
// CHECK: %[[D:.+]] = nx.elixir_call @numbered() : () -> tensor<ui8>
// CHECK: return %[[B]], %[[C]]#1, %[[D]]
// GENERIC-LABEL: sym_name = "elixir_call"
// GENERIC: "nx.elixir_call"(%{{.+}}) <{callee = @scale, static_args = {factor = 2.000000e+00 : f64, mode = "fast"}}> : (tensor<4xf32>) -> tensor<4xf32>
// GENERIC: "nx.elixir_call"(%{{.+}}) <{callee = @scale, pure}> : (tensor<4xf32>) -> tensor<4xf32>
func.func @elixir_call(%x: tensor<4xf32>, %m: tensor<2x3xf64>) -> (tensor<4xf32>, tensor<3xi64>, tensor<ui8>) {
  %a = nx.elixir_call @scale(%x) static_args {factor = 2.0 : f64, mode = "fast"} : (tensor<4xf32>) -> tensor<4xf32>
  %b = nx.elixir_call pure @scale(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c:2 = nx.elixir_call @split(%m) : (tensor<2x3xf64>) -> (tensor<2xf64>, tensor<3xi64>)
  %d = nx.elixir_call @numbered() : () -> tensor<ui8>
  return %b, %c#1, %d : tensor<4xf32>, tensor<3xi64>, tensor<ui8>
}

// CHECK-LABEL: func.func @io_callback
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[P:.+]]: tensor<i1>)
// CHECK: %[[A:.+]]:2 = nx.io_callback @log(%[[X]], %[[P]]) : tensor<4xf32>, tensor<i1>
// CHECK: %[[B:.+]]:2 = nx.io_callback ordered @log(%[[A]]#0, %[[A]]#1) : tensor<4xf32>, tensor<i1>
// CHECK: %[[C:.+]]:2 = nx.io_callback ordered @log(%[[B]]#0, %[[B]]#1) static_args {hook = "metrics", label = "step"} : tensor<4xf32>, tensor<i1>
// CHECK: %[[D:.+]]:2 = nx.io_callback ordered optional @log(%[[C]]#0, %[[C]]#1) : tensor<4xf32>, tensor<i1>
// CHECK: return %[[D]]#0
// GENERIC-LABEL: sym_name = "io_callback"
// GENERIC: "nx.io_callback"(%{{.+}}, %{{.+}}) <{callee = @log}> : (tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<i1>)
// GENERIC: "nx.io_callback"(%{{.+}}, %{{.+}}) <{callee = @log, ordered}> : (tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<i1>)
// GENERIC: "nx.io_callback"(%{{.+}}, %{{.+}}) <{callee = @log, ordered, static_args = {hook = "metrics", label = "step"}}> : (tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<i1>)
// GENERIC: "nx.io_callback"(%{{.+}}, %{{.+}}) <{callee = @log, optional, ordered}> : (tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<i1>)
func.func @io_callback(%x: tensor<4xf32>, %p: tensor<i1>) -> tensor<4xf32> {
  %a:2 = nx.io_callback @log(%x, %p) : tensor<4xf32>, tensor<i1>
  %b:2 = nx.io_callback ordered @log(%a#0, %a#1) : tensor<4xf32>, tensor<i1>
  %c:2 = nx.io_callback ordered @log(%b#0, %b#1) static_args {hook = "metrics", label = "step"} : tensor<4xf32>, tensor<i1>
  %d:2 = nx.io_callback ordered optional @log(%c#0, %c#1) : tensor<4xf32>, tensor<i1>
  return %d#0 : tensor<4xf32>
}

// -----

// An io_callback whose callback takes no arguments: a pure side effect.
// CHECK: nx.callback @tick : () -> ()
// CHECK-LABEL: func.func @io_callback_no_args
// CHECK: nx.io_callback @tick()
// CHECK-NOT: :
// CHECK: return
nx.callback @tick : () -> ()
func.func @io_callback_no_args() {
  nx.io_callback @tick()
  return
}

// -----

// Every host element type.
// CHECK: nx.callback @all_types : (tensor<i1>, tensor<i8>, tensor<i16>, tensor<i32>, tensor<i64>, tensor<ui8>, tensor<ui16>, tensor<ui32>, tensor<ui64>, tensor<f16>, tensor<bf16>, tensor<f32>, tensor<f64>, tensor<complex<f32>>, tensor<complex<f64>>) -> ()
nx.callback @all_types : (tensor<i1>, tensor<i8>, tensor<i16>, tensor<i32>, tensor<i64>, tensor<ui8>, tensor<ui16>, tensor<ui32>, tensor<ui64>, tensor<f16>, tensor<bf16>, tensor<f32>, tensor<f64>, tensor<complex<f32>>, tensor<complex<f64>>) -> ()

// Zero-sized and high-rank tensors are fine as long as their size fits.
// CHECK: nx.callback @edge_shapes : (tensor<0x5xf32>, tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xi8>) -> ()
nx.callback @edge_shapes : (tensor<0x5xf32>, tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xi8>) -> ()

// -----

// CHECK-LABEL: func.func @block
// CHECK-SAME: (%[[A:.+]]: tensor<3x3xf32>)
// CHECK: %[[R:.+]]:2 = nx.block "Nx.Block.LinAlg.QR" {eps = 1.000000e-10 : f64, mode = "reduced"} (%[[A]]) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
// CHECK: ^bb0(%[[M:.+]]: tensor<3x3xf32>):
// CHECK:   %[[N:.+]] = arith.negf %[[M]] : tensor<3x3xf32>
// CHECK:   nx.yield %[[M]], %[[N]] : tensor<3x3xf32>, tensor<3x3xf32>
// CHECK: }
// CHECK: return %[[R]]#0, %[[R]]#1
// GENERIC-LABEL: sym_name = "block"
// GENERIC: "nx.block"(%{{.+}}) <{config = {eps = 1.000000e-10 : f64, mode = "reduced"}, name = "Nx.Block.LinAlg.QR"}> ({
// GENERIC: "nx.yield"(%{{.+}}, %{{.+}}) : (tensor<3x3xf32>, tensor<3x3xf32>) -> ()
func.func @block(%a: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {eps = 1.0e-10 : f64, mode = "reduced"} (%a) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  ^bb0(%m: tensor<3x3xf32>):
    %n = arith.negf %m : tensor<3x3xf32>
    nx.yield %m, %n : tensor<3x3xf32>, tensor<3x3xf32>
  }
  return %q, %r : tensor<3x3xf32>, tensor<3x3xf32>
}

// Blocks accept any types (their default region is ordinary IR), carry extra
// attributes after the keyword, and may be empty of inputs and results.
// CHECK-LABEL: func.func @block_misc
// CHECK: nx.block "My.Block" {} () : () -> () attributes {note = "x"} {
// CHECK:   nx.yield
// CHECK: }
// CHECK: %{{.+}} = nx.block "My.Dynamic" {} (%{{.+}}) : (tensor<?xf32>) -> tensor<?xf32> {
func.func @block_misc(%d: tensor<?xf32>) -> tensor<?xf32> {
  nx.block "My.Block" {} () : () -> () attributes {note = "x"} {
    nx.yield
  }
  %0 = nx.block "My.Dynamic" {} (%d) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<?xf32>):
    nx.yield %x : tensor<?xf32>
  }
  return %0 : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @streams
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[N:.+]]: tensor<i64>)
// CHECK: nx.outfeed %[[X]], %[[N]] to "metrics" : tensor<4xf32>, tensor<i64>
// CHECK: nx.outfeed %[[X]] : tensor<4xf32>
// CHECK: nx.outfeed to "done"{{$}}
// An outfeed of nothing prints one space before `to`.
// SPACING: {{^}}    nx.outfeed to "done"{{$}}
// CHECK: %[[A:.+]]:2 = nx.infeed from "batches" : tensor<8x4xf32>, tensor<i64>
// CHECK: %[[B:.+]] = nx.infeed : tensor<ui8>
// CHECK: return %[[A]]#0, %[[B]]
// GENERIC-LABEL: sym_name = "streams"
// GENERIC: "nx.outfeed"(%{{.+}}, %{{.+}}) <{stream = "metrics"}> : (tensor<4xf32>, tensor<i64>) -> ()
// GENERIC: "nx.outfeed"() <{stream = "done"}> : () -> ()
// GENERIC: "nx.infeed"() <{stream = "batches"}> : () -> (tensor<8x4xf32>, tensor<i64>)
func.func @streams(%x: tensor<4xf32>, %n: tensor<i64>) -> (tensor<8x4xf32>, tensor<ui8>) {
  nx.outfeed %x, %n to "metrics" : tensor<4xf32>, tensor<i64>
  nx.outfeed %x : tensor<4xf32>
  nx.outfeed to "done"
  %a:2 = nx.infeed from "batches" : tensor<8x4xf32>, tensor<i64>
  %b = nx.infeed : tensor<ui8>
  return %a#0, %b : tensor<8x4xf32>, tensor<ui8>
}

// -----

// CHECK-LABEL: func.func private @body
func.func private @body(%x: tensor<2xf32>) -> tensor<2xf32>

// CHECK-LABEL: func.func @custom_call
// CHECK-SAME: (%[[X:.+]]: tensor<2xf32>, %[[Y:.+]]: tensor<3xi32>)
// CHECK: %[[A:.+]] = nx.custom_call @exla_io_callback(%[[X]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 3>, callback_id_size = 1 : ui64}, has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[B:.+]]:2 = nx.custom_call @two(%[[X]], %[[Y]]) {output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>]} : (tensor<2xf32>, tensor<3xi32>) -> (tensor<2xf32>, tensor<3xi32>)
// CHECK: %[[C:.+]] = nx.custom_call @legacy(%[[X]]) {backend_config = "opaque bytes"} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[D:.+]] = nx.custom_call @layouts(%[[Y]]) {called_computations = [@body], operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<3xi32>) -> tensor<2x2xf32>
// CHECK: %[[E:.+]] = nx.custom_call @"name with spaces"(%[[X]]) : (tensor<2xf32>) -> tensor<?xf32>
// GENERIC-LABEL: sym_name = "custom_call"
// GENERIC: "nx.custom_call"(%{{.+}}) <{api_version = 4 : i32, backend_config = {callback_id = array<i64: 3>, callback_id_size = 1 : ui64}, call_target_name = "exla_io_callback", has_side_effect = true, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]}>
func.func @custom_call(%x: tensor<2xf32>, %y: tensor<3xi32>) -> tensor<2xf32> {
  %a = nx.custom_call @exla_io_callback(%x) {
    api_version = 4 : i32, has_side_effect = true,
    backend_config = {callback_id = array<i64: 3>, callback_id_size = 1 : ui64},
    output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]
  } : (tensor<2xf32>) -> tensor<2xf32>
  %b:2 = nx.custom_call @two(%x, %y) {
    output_operand_aliases = [#nx.output_operand_alias<operand_index = 1, output_tuple_indices = [1]>]
  } : (tensor<2xf32>, tensor<3xi32>) -> (tensor<2xf32>, tensor<3xi32>)
  %c = nx.custom_call @legacy(%x) {backend_config = "opaque bytes"} : (tensor<2xf32>) -> tensor<2xf32>
  %d = nx.custom_call @layouts(%y) {called_computations = [@body], operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<3xi32>) -> tensor<2x2xf32>
  %e = nx.custom_call @"name with spaces"(%x) : (tensor<2xf32>) -> tensor<?xf32>
  return %a : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @invoke
// CHECK-SAME: (%[[IN:.+]]: memref<4xf32>, %[[OUT:.+]]: memref<4xf32>, %[[N:.+]]: memref<i64>)
// CHECK: nx.invoke elixir_call @normalize(%[[IN]]) outs(%[[OUT]]) attrs {norm = "l2"} {has_side_effect} : (memref<4xf32>) -> (memref<4xf32>)
// CHECK: nx.invoke io_callback @log(%[[IN]], %[[N]]) outs() {has_side_effect} : (memref<4xf32>, memref<i64>) -> ()
// CHECK: nx.invoke custom_call @qr_cpu_custom_call_f32(%[[IN]]) outs(%[[IN]], %[[OUT]]) : (memref<4xf32>) -> (memref<4xf32>, memref<4xf32>)
// CHECK: nx.invoke outfeed @results(%[[IN]]) outs() {has_side_effect} : (memref<4xf32>) -> ()
// CHECK: nx.invoke infeed @batches() outs(%[[OUT]]) {has_side_effect} : () -> (memref<4xf32>)
// CHECK: nx.invoke custom_call @ordered(%[[IN]]) outs(%[[OUT]]) {has_side_effect, token_inputs = array<i64: 0>, token_outputs = array<i64: 1>} : (memref<4xf32>) -> (memref<4xf32>)
// GENERIC-LABEL: sym_name = "invoke"
// GENERIC: "nx.invoke"(%{{.+}}, %{{.+}}) <{attrs = {norm = "l2"}, has_side_effect, kind = 0 : i32, name = "normalize", operandSegmentSizes = array<i32: 1, 1>}> : (memref<4xf32>, memref<4xf32>) -> ()
func.func @invoke(%in: memref<4xf32>, %out: memref<4xf32>, %n: memref<i64>) {
  nx.invoke elixir_call @normalize(%in) outs(%out) attrs {norm = "l2"} {has_side_effect} : (memref<4xf32>) -> (memref<4xf32>)
  nx.invoke io_callback @log(%in, %n) outs() {has_side_effect} : (memref<4xf32>, memref<i64>) -> ()
  nx.invoke custom_call @qr_cpu_custom_call_f32(%in) outs(%in, %out) : (memref<4xf32>) -> (memref<4xf32>, memref<4xf32>)
  nx.invoke outfeed @results(%in) outs() {has_side_effect} : (memref<4xf32>) -> ()
  nx.invoke infeed @batches() outs(%out) {has_side_effect} : () -> (memref<4xf32>)
  nx.invoke custom_call @ordered(%in) outs(%out) {has_side_effect, token_inputs = array<i64: 0>, token_outputs = array<i64: 1>} : (memref<4xf32>) -> (memref<4xf32>)
  return
}

// -----

// Any non-negative i64 is an id, the two largest included (they are the
// reserved keys of LLVM's DenseMap<int64_t>).
// CHECK: module attributes {nx.callback_ids = {a = 1 : i64, b = 9223372036854775807 : i64, c = 9223372036854775806 : i64}}
// CHECK: nx.callback @b : () -> () attributes {id = 9223372036854775807 : i64}
// GENERIC: nx.callback_ids = {a = 1 : i64, b = 9223372036854775807 : i64, c = 9223372036854775806 : i64}
module attributes {nx.callback_ids = {a = 1 : i64, b = 9223372036854775807 : i64, c = 9223372036854775806 : i64}} {
  nx.callback @a : () -> () attributes {id = 1 : i64}
  nx.callback @b : () -> () attributes {id = 9223372036854775807 : i64}
  nx.callback @c : () -> () attributes {id = 9223372036854775806 : i64}
}
