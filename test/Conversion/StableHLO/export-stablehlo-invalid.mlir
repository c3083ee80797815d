// RUN: nx-opt %s -split-input-file -nx-export-stablehlo -verify-diagnostics

func.func @needs_unregistered(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.custom_call' op cannot be exported: the stablehlo dialect is not loaded, so nx-export-stablehlo emits unregistered ops; run with --allow-unregistered-dialect}}
  %0 = nx.custom_call @t(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

nx.callback @log : (tensor<2xf32>) -> ()

// Callbacks must be lowered to custom calls first.
func.func @not_lowered(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.io_callback' op cannot be exported to StableHLO: it has no StableHLO form until convert-nx-to-custom-call lowers it to nx.custom_call; run that pass first}}
  %0 = nx.io_callback @log(%x) : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @bufferized(%x: memref<2xf32>) {
  // expected-error @+1 {{'nx.invoke' op cannot be exported to StableHLO: it is the bufferized form of a host call, which StableHLO cannot express; export the module before bufferization}}
  nx.invoke custom_call @t(%x) outs() {has_side_effect} : (memref<2xf32>) -> ()
  return
}

// -----

func.func @segmented(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.to_device' op cannot be exported to StableHLO: host-device transfers are placed by nx-segment-callbacks, whose output is not a StableHLO program; export the module before segmenting it}}
  %0 = nx.to_device %x to "cuda" : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// nx attributes elsewhere than on a custom call have no StableHLO spelling.
// expected-error @+1 {{'func.func' op cannot be exported to StableHLO: attribute 'why' holds an nx attribute ([#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]), which StableHLO consumers cannot load}}
func.func @stray_alias() attributes {why = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} {
  return
}

