// Every verifier rule of the nx dialect, one case each.
// RUN: nx-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// nx.callback
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'nx.callback' op input #0 must be a ranked tensor, got 'f32'}}
nx.callback @scalar : (f32) -> ()

// -----

// expected-error @+1 {{'nx.callback' op input #1 must be a ranked tensor, got 'tensor<*xf32>'}}
nx.callback @unranked : (tensor<2xf32>, tensor<*xf32>) -> ()

// -----

// expected-error @+1 {{'nx.callback' op result #0 must have a static shape, got 'tensor<2x?xf32>'}}
nx.callback @dynamic : () -> tensor<2x?xf32>

// -----

// expected-error @+1 {{'nx.callback' op input #0 must not have a tensor encoding, got 'tensor<4xf32, "sparse">'}}
nx.callback @encoded : (tensor<4xf32, "sparse">) -> ()

// -----

// expected-error @+1 {{'nx.callback' op input #0 has unsupported element type 'si32'; expected i1, i8-i64, ui8-ui64, f16, bf16, f32, f64, complex<f32> or complex<f64>}}
nx.callback @signed : (tensor<2xsi32>) -> ()

// -----

// expected-error @+1 {{'nx.callback' op result #0 has unsupported element type 'index'}}
nx.callback @index : () -> tensor<2xindex>

// -----

// expected-error @+1 {{'nx.callback' op input #0 has unsupported element type 'complex<f16>'}}
nx.callback @complex_half : (tensor<2xcomplex<f16>>) -> ()

// -----

// expected-error @+1 {{'nx.callback' op input #0 has unsupported element type 'i4'}}
nx.callback @narrow : (tensor<2xi4>) -> ()

// -----

// expected-error @+1 {{'nx.callback' op input #0 of rank 2 is too large: its byte size does not fit in int64}}
nx.callback @huge_dim : (tensor<9223372036854775807x2xf32>) -> ()

// -----

// A rank-70 tensor of 2s holds 2^70 elements.
// expected-error @+1 {{'nx.callback' op result #0 of rank 70 is too large: its byte size does not fit in int64}}
nx.callback @huge_rank : () -> tensor<2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2xi8>

// -----

// expected-error @+1 {{'nx.callback' op attribute 'id' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
nx.callback @negative_id : () -> () attributes {id = -1 : i64}

// -----

// expected-error @+1 {{'nx.callback' op attribute 'function_type' failed to satisfy constraint: type attribute of function type}}
"nx.callback"() {sym_name = "not_a_function", function_type = i32} : () -> ()

// -----

// An empty name would print as one that does not parse back.
// expected-error @+1 {{'nx.callback' op expects a non-empty callback name}}
nx.callback @"" : (tensor<4xf32>) -> ()

// -----

nx.callback @twice : () -> ()
// expected-error @+2 {{redefinition of symbol named 'twice'}}
// expected-note @-2 {{see existing symbol definition here}}
nx.callback @twice : (tensor<f32>) -> ()

//===----------------------------------------------------------------------===//
// nx.elixir_call
//===----------------------------------------------------------------------===//

// -----

func.func @undefined_callee(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.elixir_call' op callee @missing does not reference a symbol; expected an 'nx.callback'}}
  %0 = nx.elixir_call @missing(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// expected-note @+1 {{symbol defined here}}
func.func private @not_a_callback(tensor<2xf32>) -> tensor<2xf32>

func.func @wrong_kind(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.elixir_call' op callee @not_a_callback is a 'func.func', expected an 'nx.callback'}}
  %0 = nx.elixir_call @not_a_callback(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

nx.callback @binary : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>

func.func @too_few_operands(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.elixir_call' op expected 2 operands to match callback @binary, got 1}}
  %0 = nx.elixir_call @binary(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

nx.callback @unary : (tensor<2xf32>) -> tensor<2xf32>

func.func @operand_type(%x: tensor<2xf64>) {
  // expected-error @+1 {{'nx.elixir_call' op operand #0 has type 'tensor<2xf64>', but callback @unary expects 'tensor<2xf32>'}}
  %0 = nx.elixir_call @unary(%x) : (tensor<2xf64>) -> tensor<2xf32>
  return
}

// -----

nx.callback @unary : (tensor<2xf32>) -> tensor<2xf32>

func.func @result_count(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.elixir_call' op expected 1 results to match callback @unary, got 2}}
  %0:2 = nx.elixir_call @unary(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

nx.callback @unary : (tensor<2xf32>) -> tensor<2xf32>

func.func @result_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.elixir_call' op result #0 has type 'tensor<3xf32>', but callback @unary returns 'tensor<2xf32>'}}
  %0 = nx.elixir_call @unary(%x) : (tensor<2xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @dynamic_operand(%x: tensor<?xf32>) {
  // expected-error @+1 {{'nx.elixir_call' op operand #0 must be variadic of statically shaped tensor of i1, i8-i64, ui8-ui64, f16, bf16, f32, f64 or complex<f32/f64> elements whose byte size fits in int64, but got 'tensor<?xf32>'}}
  %0 = nx.elixir_call @unary(%x) : (tensor<?xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @static_args_not_dictionary(%x: tensor<2xf32>) {
  // expected-error @+1 {{invalid properties {callee = @unary, static_args = [1, 2]} for op nx.elixir_call: Invalid attribute `static_args` in property conversion: [1, 2]}}
  %0 = "nx.elixir_call"(%x) <{callee = @unary, static_args = [1, 2]}> : (tensor<2xf32>) -> tensor<2xf32>
  return
}

//===----------------------------------------------------------------------===//
// nx.io_callback
//===----------------------------------------------------------------------===//

// -----

nx.callback @returns : (tensor<2xf32>) -> tensor<2xf32>

func.func @io_callback_with_results(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.io_callback' op expects callback @returns to have no results, got 1}}
  %0 = nx.io_callback @returns(%x) : tensor<2xf32>
  return
}

// -----

nx.callback @log : (tensor<2xf32>, tensor<i64>) -> ()

func.func @io_callback_arity(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.io_callback' op expected 2 operands to match callback @log, got 1}}
  %0 = nx.io_callback @log(%x) : tensor<2xf32>
  return
}

// -----

nx.callback @log : (tensor<2xf32>) -> ()

func.func @io_callback_operand_type(%x: tensor<2xi32>) {
  // expected-error @+1 {{'nx.io_callback' op operand #0 has type 'tensor<2xi32>', but callback @log expects 'tensor<2xf32>'}}
  %0 = nx.io_callback @log(%x) : tensor<2xi32>
  return
}

// -----

nx.callback @log : (tensor<2xf32>) -> ()

func.func @io_callback_not_passthrough(%x: tensor<2xf32>) {
  // expected-error @+2 {{'nx.io_callback' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'nx.io_callback' op failed to infer returned types}}
  %0 = "nx.io_callback"(%x) <{callee = @log}> : (tensor<2xf32>) -> tensor<3xf32>
  return
}

// -----

nx.callback @log : (tensor<2xf32>) -> ()

func.func @io_callback_missing_result(%x: tensor<2xf32>) {
  // expected-error @+2 {{'nx.io_callback' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation}}
  // expected-error @+1 {{'nx.io_callback' op failed to infer returned types}}
  "nx.io_callback"(%x) <{callee = @log}> : (tensor<2xf32>) -> ()
  return
}

// -----

func.func @io_callback_undefined(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.io_callback' op callee @nowhere does not reference a symbol; expected an 'nx.callback'}}
  %0 = nx.io_callback @nowhere(%x) : tensor<2xf32>
  return
}

//===----------------------------------------------------------------------===//
// nx.block / nx.yield
//===----------------------------------------------------------------------===//

// -----

func.func @block_empty_name(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.block' op attribute 'name' failed to satisfy constraint: string attribute that is not empty}}
  %0 = nx.block "" {} (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    nx.yield %a : tensor<2xf32>
  }
  return
}

// -----

func.func @block_arg_count(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.block' op expects 1 region arguments to match the inputs, got 0}}
  %0 = nx.block "K" {} (%x) : (tensor<2xf32>) -> tensor<2xf32> {
    %c = arith.constant dense<0.0> : tensor<2xf32>
    nx.yield %c : tensor<2xf32>
  }
  return
}

// -----

func.func @block_arg_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.block' op region argument #0 has type 'tensor<2xf64>', but input #0 has type 'tensor<2xf32>'}}
  %0 = nx.block "K" {} (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf64>):
    %c = arith.constant dense<0.0> : tensor<2xf32>
    nx.yield %c : tensor<2xf32>
  }
  return
}

// -----

func.func @block_yield_count(%x: tensor<2xf32>) {
  %0 = nx.block "K" {} (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{'nx.yield' op yields 2 values, but the enclosing 'nx.block' has 1 results}}
    nx.yield %a, %a : tensor<2xf32>, tensor<2xf32>
  }
  return
}

// -----

func.func @block_yield_type(%x: tensor<2xf32>) {
  %0 = nx.block "K" {} (%x) : (tensor<2xf32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{'nx.yield' op value #0 has type 'tensor<2xf32>', but result #0 of the enclosing 'nx.block' has type 'tensor<3xf32>'}}
    nx.yield %a : tensor<2xf32>
  }
  return
}

// -----

func.func @block_empty_region(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.block' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %0 = "nx.block"(%x) <{name = "K", config = {}}> ({}) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @block_wrong_terminator(%x: tensor<2xf32>) {
  %0 = nx.block "K" {} (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
    func.return %a : tensor<2xf32>
  }
  return
}

// -----

func.func @block_no_terminator(%x: tensor<2xf32>) {
  %0 = "nx.block"(%x) <{name = "K", config = {}}> ({
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{block with no terminator}}
    %b = arith.negf %a : tensor<2xf32>
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// A terminator that accepts any parent, but is not nx.yield.
func.func @block_foreign_terminator(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.block' op expects the region to end with 'nx.yield'}}
  %0 = nx.block "K" {} (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    llvm.unreachable
  }
  return
}

// -----

func.func @block_captures(%x: tensor<2xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = nx.block "K" {} () : () -> tensor<2xf32> {
    // expected-error @+1 {{'nx.yield' op using value defined outside the region}}
    nx.yield %x : tensor<2xf32>
  }
  return
}

// -----

func.func @block_two_blocks(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.block' op expects region #0 to have 0 or 1 blocks}}
  %0 = "nx.block"(%x) <{name = "K", config = {}}> ({
  ^bb0(%a: tensor<2xf32>):
    "nx.yield"(%a) : (tensor<2xf32>) -> ()
  ^bb1:
    "nx.yield"(%a) : (tensor<2xf32>) -> ()
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @block_config_not_dictionary(%x: tensor<2xf32>) {
  // expected-error @+1 {{invalid properties {config = 3 : i32, name = "K"} for op nx.block: Invalid attribute `config` in property conversion: 3 : i32}}
  %0 = "nx.block"(%x) <{name = "K", config = 3 : i32}> ({
  ^bb0(%a: tensor<2xf32>):
    "nx.yield"(%a) : (tensor<2xf32>) -> ()
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @yield_outside_block(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.yield' op expects parent op 'nx.block'}}
  nx.yield %x : tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// nx.outfeed / nx.infeed
//===----------------------------------------------------------------------===//

// -----

func.func @outfeed_empty_stream(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.outfeed' op attribute 'stream' failed to satisfy constraint: string attribute that is not empty}}
  nx.outfeed %x to "" : tensor<2xf32>
  return
}

// -----

func.func @outfeed_dynamic(%x: tensor<?xf32>) {
  // expected-error @+1 {{'nx.outfeed' op operand #0 must be variadic of statically shaped tensor}}
  nx.outfeed %x : tensor<?xf32>
  return
}

// -----

func.func @infeed_nothing() {
  // expected-error @+1 {{'nx.infeed' op failed to verify that returns at least one result}}
  "nx.infeed"() <{stream = "s"}> : () -> ()
  return
}

// -----

func.func @infeed_empty_stream() {
  // expected-error @+1 {{'nx.infeed' op attribute 'stream' failed to satisfy constraint: string attribute that is not empty}}
  %0 = nx.infeed from "" : tensor<2xf32>
  return
}

// -----

func.func @infeed_unsupported_type() {
  // expected-error @+1 {{'nx.infeed' op result #0 must be variadic of statically shaped tensor}}
  %0 = nx.infeed from "s" : tensor<2xsi8>
  return
}

//===----------------------------------------------------------------------===//
// nx.custom_call
//===----------------------------------------------------------------------===//

// -----

func.func @custom_call_empty_target(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op attribute 'call_target_name' failed to satisfy constraint: string attribute that is not empty}}
  %0 = nx.custom_call @""(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @custom_call_api_version(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op attribute 'api_version' failed to satisfy constraint: 32-bit signless integer attribute whose value is in [0, 4]}}
  %0 = nx.custom_call @t(%x) {api_version = 7 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @custom_call_typed_ffi_string(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op expects a dictionary backend_config with api_version 4 (typed FFI), got "abc"}}
  %0 = nx.custom_call @t(%x) {api_version = 4 : i32, backend_config = "abc"} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @custom_call_dictionary_without_ffi(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op expects a string backend_config with api_version 2; dictionaries need api_version 4 (typed FFI)}}
  %0 = nx.custom_call @t(%x) {api_version = 2 : i32, backend_config = {a = 1}} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @custom_call_config_kind(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op attribute 'backend_config' failed to satisfy constraint: string attribute or dictionary of named attribute values}}
  %0 = nx.custom_call @t(%x) {backend_config = 3 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @custom_call_one_layout_kind(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op expects either both operand_layouts and result_layouts or neither}}
  %0 = nx.custom_call @t(%x) {operand_layouts = [dense<0> : tensor<1xindex>]} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @custom_call_layout_count(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op expects 1 result layouts, got 0}}
  %0 = nx.custom_call @t(%x) {operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = []} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @custom_call_layout_kind(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op expects operand layout #0 to be a 1-D dense elements attribute of index type, got [0]}}
  %0 = nx.custom_call @t(%x) {operand_layouts = [[0]], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @custom_call_layout_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'nx.custom_call' op expects result layout #0 to be a permutation of [0, 2), got [0, 0]}}
  %0 = nx.custom_call @t(%x) {operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[0, 0]> : tensor<2xindex>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @custom_call_layout_rank(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'nx.custom_call' op expects operand layout #0 to be a permutation of [0, 2), got [0]}}
  %0 = nx.custom_call @t(%x) {operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @huge_layout(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // A splat layout of 2^31 dimensions is reported without reading it.
  // expected-error @+1 {{'nx.custom_call' op expects operand layout #0 to be a permutation of [0, 2), got 2147483648 dimensions}}
  %0 = nx.custom_call @t(%x) {operand_layouts = [dense<0> : tensor<2147483648xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @alias_operand_range(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op output_operand_alias #0 has operand_index 3, expected one in [0, 1)}}
  %0 = nx.custom_call @t(%x) {output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 3, operand_tuple_indices = []>]} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @alias_operand_tuple(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op output_operand_alias #0 has operand_tuple_indices, but operand #0 of type 'tensor<2xf32>' is not a tuple}}
  %0 = nx.custom_call @t(%x) {output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = [0]>]} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @alias_single_result_tuple(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op output_operand_alias #0 has output_tuple_indices, but the op has a single, non-tuple result}}
  %0 = nx.custom_call @t(%x) {output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @alias_multi_result_index(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op output_operand_alias #0 must select one of the 2 results with output_tuple_indices = [i], got [2]}}
  %0:2 = nx.custom_call @t(%x) {output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [2], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @alias_multi_result_whole(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op output_operand_alias #0 must select one of the 2 results with output_tuple_indices = [i], got []}}
  %0:2 = nx.custom_call @t(%x) {output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @alias_no_results(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op output_operand_alias #0 must select one of the 0 results with output_tuple_indices = [i], got []}}
  nx.custom_call @t(%x) {output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2xf32>) -> ()
  return
}

// -----

func.func @alias_type_mismatch(%x: tensor<2xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'nx.custom_call' op output_operand_alias #0 aliases result #1 of type 'tensor<3xf32>' with operand #0 of type 'tensor<2xf32>'}}
  %0:2 = nx.custom_call @t(%x, %y) {output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [1], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2xf32>, tensor<3xf32>) -> (tensor<2xf32>, tensor<3xf32>)
  return
}

// -----

func.func @alias_twice(%x: tensor<2xf32>, %y: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op result #0 is aliased by both output_operand_alias #0 and #1}}
  %0 = nx.custom_call @t(%x, %y) {output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>, #nx.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @alias_array_kind(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op attribute 'output_operand_aliases' failed to satisfy constraint: aliasing attribute array}}
  %0 = nx.custom_call @t(%x) {output_operand_aliases = [1]} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @called_computation_undefined(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op called computation #0 @nowhere does not reference a symbol}}
  %0 = nx.custom_call @t(%x) {called_computations = [@nowhere]} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

nx.callback @cb : () -> ()

func.func @called_computation_kind(%x: tensor<2xf32>) {
  // expected-error @+1 {{'nx.custom_call' op called computation #0 @cb is a 'nx.callback', expected a function}}
  %0 = nx.custom_call @t(%x) {called_computations = [@cb]} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @custom_call_unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{'nx.custom_call' op operand #0 must be variadic of ranked tensor or token, but got 'tensor<*xf32>'}}
  %0 = nx.custom_call @t(%x) : (tensor<*xf32>) -> tensor<2xf32>
  return
}

//===----------------------------------------------------------------------===//
// #nx.output_operand_alias syntax
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{expected 'operand_index'}}
func.func private @alias_missing_operand() attributes {a = #nx.output_operand_alias<output_tuple_indices = []>}

// -----

// expected-error @+1 {{unknown field 'operand'; expected output_tuple_indices, operand_index or operand_tuple_indices}}
func.func private @alias_unknown_field() attributes {a = #nx.output_operand_alias<operand = 0>}

// -----

// expected-error @+1 {{duplicate field 'operand_index'}}
func.func private @alias_duplicate_field() attributes {a = #nx.output_operand_alias<operand_index = 0, operand_index = 1>}

//===----------------------------------------------------------------------===//
// nx.callback_ids (module attribute)
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'nx.callback_ids' must be a dictionary, got [1]}}
module attributes {nx.callback_ids = [1]} {}

// -----

// expected-error @+1 {{'nx.callback_ids' entry 'cb' must be a non-negative i64, got 1 : i32}}
module attributes {nx.callback_ids = {cb = 1 : i32}} {
  nx.callback @cb : () -> () attributes {id = 1 : i64}
}

// -----

// expected-error @+1 {{'nx.callback_ids' gives id 0 to both 'a' and 'b'}}
module attributes {nx.callback_ids = {a = 0 : i64, b = 0 : i64}} {
  nx.callback @a : () -> () attributes {id = 0 : i64}
  nx.callback @b : () -> () attributes {id = 0 : i64}
}

// -----

// The largest ids collide like any others.
// expected-error @+1 {{'nx.callback_ids' gives id 9223372036854775807 to both 'a' and 'b'}}
module attributes {nx.callback_ids = {a = 9223372036854775807 : i64, b = 9223372036854775807 : i64}} {
  nx.callback @a : () -> () attributes {id = 9223372036854775807 : i64}
  nx.callback @b : () -> () attributes {id = 9223372036854775807 : i64}
}

// -----

// expected-error @+1 {{'nx.callback_ids' entry 'f' does not name an nx.callback}}
module attributes {nx.callback_ids = {f = 0 : i64}} {
  func.func private @f()
}

// -----

// expected-error @+1 {{'nx.callback_ids' gives @a id 0, but the callback has id <none>}}
module attributes {nx.callback_ids = {a = 0 : i64}} {
  nx.callback @a : () -> ()
}

// -----

// expected-error @+1 {{'nx.callback_ids' must be on a symbol table operation}}
func.func private @not_a_table() attributes {nx.callback_ids = {}}

// -----

// A symbol table without its block (generic form) has nothing to look up in.
// expected-error @+1 {{'nx.callback_ids' must be on a symbol table operation}}
"builtin.module"() ({}) {nx.callback_ids = {a = 0 : i64}} : () -> ()

// -----

// expected-error @+1 {{unknown nx dialect attribute 'nx.mystery'}}
func.func private @mystery() attributes {nx.mystery = 1}

//===----------------------------------------------------------------------===//
// nx.invoke
//===----------------------------------------------------------------------===//

// -----

func.func @invoke_empty_name(%m: memref<4xf32>) {
  // expected-error @+1 {{'nx.invoke' op attribute 'name' failed to satisfy constraint: string attribute that is not empty}}
  nx.invoke elixir_call @""(%m) outs() : (memref<4xf32>) -> ()
  return
}

// -----

func.func @invoke_strided(%m: memref<4xf32, strided<[2]>>) {
  // expected-error @+1 {{'nx.invoke' op input #0 must be a statically shaped memref with the identity layout, got 'memref<4xf32, strided<[2]>>'}}
  nx.invoke elixir_call @f(%m) outs() : (memref<4xf32, strided<[2]>>) -> ()
  return
}

// -----

func.func @invoke_dynamic(%m: memref<?xf32>) {
  // expected-error @+1 {{'nx.invoke' op output #0 must be a statically shaped memref with the identity layout, got 'memref<?xf32>'}}
  nx.invoke elixir_call @f() outs(%m) : () -> (memref<?xf32>)
  return
}

// -----

func.func @invoke_io_outputs(%m: memref<4xf32>) {
  // expected-error @+1 {{'nx.invoke' op of kind io_callback expects no outputs, got 1}}
  nx.invoke io_callback @log(%m) outs(%m) : (memref<4xf32>) -> (memref<4xf32>)
  return
}

// -----

func.func @invoke_optional_io_outputs(%m: memref<4xf32>) {
  // expected-error @+1 {{'nx.invoke' op of kind optional_io_callback expects no outputs, got 1}}
  nx.invoke optional_io_callback @log(%m) outs(%m) : (memref<4xf32>) -> (memref<4xf32>)
  return
}

// -----

func.func @invoke_infeed_inputs(%m: memref<4xf32>) {
  // expected-error @+1 {{'nx.invoke' op of kind infeed expects no inputs, got 1}}
  nx.invoke infeed @s(%m) outs(%m) : (memref<4xf32>) -> (memref<4xf32>)
  return
}

// -----

func.func @invoke_tokens_not_custom_call(%m: memref<4xf32>) {
  // expected-error @+1 {{'nx.invoke' op of kind elixir_call takes no tokens; only custom_call targets do}}
  nx.invoke elixir_call @f(%m) outs() {token_inputs = array<i64: 0>} : (memref<4xf32>) -> ()
  return
}

// -----

func.func @invoke_token_position_out_of_range(%m: memref<4xf32>) {
  // expected-error @+1 {{'nx.invoke' op token_inputs must be increasing positions in [0, 2), got 2}}
  nx.invoke custom_call @f(%m) outs() {token_inputs = array<i64: 2>} : (memref<4xf32>) -> ()
  return
}

// -----

func.func @invoke_token_positions_not_increasing(%m: memref<4xf32>) {
  // expected-error @+1 {{'nx.invoke' op token_outputs must be increasing positions in [0, 3), got 0}}
  nx.invoke custom_call @f() outs(%m) {token_outputs = array<i64: 1, 0>} : () -> (memref<4xf32>)
  return
}

// -----

func.func @invoke_element_type(%m: memref<4xindex>) {
  // expected-error @+1 {{'nx.invoke' op operand #0 must be variadic of memref of}}
  nx.invoke elixir_call @f(%m) outs() : (memref<4xindex>) -> ()
  return
}

// -----

func.func @invoke_unknown_kind(%m: memref<4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [elixir_call, io_callback, custom_call, outfeed, infeed, optional_io_callback]}}
  nx.invoke teleport @f(%m) outs() : (memref<4xf32>) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// tokens
//===----------------------------------------------------------------------===//

func.func @after_all_tensor(%x: tensor<f32>) {
  // expected-error @+1 {{'nx.after_all' op operand #0 must be variadic of an ordering token, mirroring !stablehlo.token, but got 'tensor<f32>'}}
  %0 = "nx.after_all"(%x) : (tensor<f32>) -> !nx.token
  return
}

// -----

func.func @create_token_tensor() {
  // expected-error @+1 {{'nx.create_token' op result #0 must be an ordering token, mirroring !stablehlo.token, but got 'tensor<f32>'}}
  %0 = "nx.create_token"() : () -> tensor<f32>
  return
}

// -----

func.func @token_layout(%t: !nx.token) {
  // expected-error @+1 {{'nx.custom_call' op expects operand layout #0 to be a permutation of [0, 0), got [0]}}
  nx.custom_call @f(%t) {operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = []} : (!nx.token) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// nx.callbacks (module attribute written by nx-export-stablehlo)
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'nx.callbacks' must be an array, got {a = 1 : i64}}}
module attributes {nx.callbacks = {a = 1 : i64}} {}

// -----

// expected-error @+1 {{'nx.callbacks' entry #0 must be a dictionary with a string 'sym_name' and a function type 'function_type', got {sym_name = "a"}}}
module attributes {nx.callbacks = [{sym_name = "a"}]} {}

// -----

// expected-error @+1 {{'nx.callbacks' entry #0 has an empty 'sym_name'}}
module attributes {nx.callbacks = [{function_type = () -> (), sym_name = ""}]} {}

// -----

// expected-error @+1 {{'nx.callbacks' must be on a symbol table operation}}
func.func @records_on_function() attributes {nx.callbacks = []} {
  return
}

// -----

// A recorded callback's id must agree with nx.callback_ids.
// expected-error @+1 {{'nx.callback_ids' gives @a id 0, but the callback has id 1}}
module attributes {nx.callback_ids = {a = 0 : i64}, nx.callbacks = [{function_type = () -> (), id = 1 : i64, sym_name = "a"}]} {}

// -----

nx.callback @f : (tensor<2xf32>) -> tensor<2xf32>

func.func @pure_and_ordered(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.elixir_call' op cannot be both pure and ordered: a pure call may be removed or reordered}}
  %0 = nx.elixir_call pure ordered @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// expected-error @+1 {{'nx.callback_ids' gives @a id 0, but the callback has id "one"}}
module attributes {nx.callback_ids = {a = 0 : i64}, nx.callbacks = [{function_type = () -> (), id = "one", sym_name = "a"}]} {}

// -----

// A record whose id is not an i64 would lose it when declared again.
// expected-error @+1 {{'nx.callbacks' entry #0 has id "x", expected an i64}}
module attributes {nx.callbacks = [{function_type = () -> (), id = "x", sym_name = "a"}]} {}

// -----

//===----------------------------------------------------------------------===//
// nx.callback_attrs (on exla_runtime_callback custom calls)
//===----------------------------------------------------------------------===//

func.func @callback_attrs_not_a_dictionary(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.callback_attrs' must be a dictionary, got true}}
  %0 = nx.custom_call @exla_runtime_callback(%x) {api_version = 4 : i32, backend_config = {}, nx.callback_attrs = true} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @callback_attrs_unknown_key(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.callback_attrs' takes bool 'ordered' and 'optional' and a dictionary 'static_args', got 'sticky' = true}}
  %0 = nx.custom_call @exla_runtime_callback(%x) {api_version = 4 : i32, backend_config = {}, nx.callback_attrs = {sticky = true}} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @callback_attrs_wrong_type(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.callback_attrs' takes bool 'ordered' and 'optional' and a dictionary 'static_args', got 'ordered' = 1 : i64}}
  %0 = nx.custom_call @exla_runtime_callback(%x) {api_version = 4 : i32, backend_config = {}, nx.callback_attrs = {ordered = 1}} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// expected-error @+1 {{'nx.callback_attrs' must be on a custom call, got 'func.func'}}
func.func @callback_attrs_on_a_function() attributes {nx.callback_attrs = {}} {
  return
}
