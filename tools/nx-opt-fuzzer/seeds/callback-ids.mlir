// Ids the module already carries, large but not at the edge: the integer
// mutation makes them INT64_MAX (DenseMap's empty key), INT64_MIN (its
// tombstone), negative or duplicate.
// fuzz-pipeline: nx-assign-callback-ids
// fuzz-pipeline: nx-assign-callback-ids,convert-nx-to-custom-call
// fuzz-pipeline: nx-assign-callback-ids,convert-nx-to-custom-call{platform=cuda callback-id-encoding=operand}
// fuzz-pipeline: nx-assign-callback-ids,convert-nx-to-custom-call,nx-export-stablehlo
// fuzz-pipeline: nx-lower-to-cpu
// fuzz-pipeline: nx-segment-callbacks{device=cuda},nx-strip-transfers,nx-lower-to-cpu
// fuzz-pipeline: nx-prepare-entry-points,nx-erase-tokens,convert-nx-to-llvm

module attributes {nx.callback_ids = {a = 1 : i64, b = 9223372036854775000 : i64}} {
  nx.callback @a : (tensor<4xf32>) -> tensor<4xf32> attributes {id = 1 : i64}
  nx.callback @b : (tensor<4xf32>) -> () attributes {id = 9223372036854775000 : i64}
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = nx.elixir_call @a(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = nx.io_callback @b(%0) : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}

// -----

module attributes {nx.callback_ids = {a = 0 : i64, b = 1 : i64, c = 2 : i64}} {
  nx.callback @a : () -> () attributes {id = 0 : i64}
  nx.callback @b : () -> () attributes {id = 1 : i64}
  nx.callback @c : (tensor<2xi64>) -> tensor<2xi64> attributes {id = 2 : i64}
}

// -----

// Sizes and indices: a custom call's id words and aliases.
func.func @custom(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = nx.custom_call @exla_io_callback(%x) {
    api_version = 4 : i32, has_side_effect = true,
    backend_config = {callback_id = array<i64: 3>, callback_id_size = 1 : ui64},
    output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]
  } : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
