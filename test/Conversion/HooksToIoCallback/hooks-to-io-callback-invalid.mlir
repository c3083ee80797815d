// RUN: nx-opt %s -split-input-file --allow-unregistered-dialect -nx-hooks-to-io-callback -verify-diagnostics

func.func @no_final_flag(%x: tensor<f32>) {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  %f1 = "stablehlo.constant"() {value = dense<1> : tensor<ui16>} : () -> tensor<ui16>
  // expected-error @+1 {{'stablehlo.outfeed' op ends a hook chain without the final flag 0 outfeed}}
  %t1 = "stablehlo.outfeed"(%f1, %x, %t0) : (tensor<ui16>, tensor<f32>, !stablehlo.token) -> !stablehlo.token
  return
}

// -----

func.func @data_before_flag(%x: tensor<f32>) {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  // expected-error @+1 {{'stablehlo.outfeed' op sends 'tensor<f32>' before any hook flag; a hook starts with a constant tensor<ui16> flag}}
  %t1 = "stablehlo.outfeed"(%x, %t0) : (tensor<f32>, !stablehlo.token) -> !stablehlo.token
  return
}

// -----

func.func @non_constant_flag(%flag: tensor<ui16>) {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  // expected-error @+1 {{'stablehlo.outfeed' op sends 'tensor<ui16>' before any hook flag; a hook starts with a constant tensor<ui16> flag}}
  %t1 = "stablehlo.outfeed"(%flag, %t0) : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  return
}

// -----

func.func @data_after_close(%x: tensor<f32>) {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  %f0 = "stablehlo.constant"() {value = dense<0> : tensor<ui16>} : () -> tensor<ui16>
  %t1 = "stablehlo.outfeed"(%f0, %t0) : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  // expected-error @+1 {{'stablehlo.outfeed' op sends data after the hook chain was closed by flag 0}}
  %t2 = "stablehlo.outfeed"(%x, %t1) : (tensor<f32>, !stablehlo.token) -> !stablehlo.token
  return
}

// -----

func.func @payload_on_final_flag(%x: tensor<f32>) {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  %f0 = "stablehlo.constant"() {value = dense<0> : tensor<ui16>} : () -> tensor<ui16>
  // expected-error @+1 {{'stablehlo.outfeed' op sends flag 0 with 1 tensors; the final flag closes the chain and carries none}}
  %t1 = "stablehlo.outfeed"(%f0, %x, %t0) : (tensor<ui16>, tensor<f32>, !stablehlo.token) -> !stablehlo.token
  return
}

// -----

func.func @branching(%x: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.create_token' op produces a hook token with 2 uses; a hook chain must thread its token linearly}}
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  %f0 = "stablehlo.constant"() {value = dense<0> : tensor<ui16>} : () -> tensor<ui16>
  %t1 = "stablehlo.outfeed"(%f0, %t0) : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  %t2 = "stablehlo.outfeed"(%f0, %t0) : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  return
}

// -----

func.func @returned_token() -> !stablehlo.token {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  // expected-error @+1 {{'func.return' op uses a hook token; hook chains may only pass their token as the last operand of 'stablehlo.outfeed'}}
  return %t0 : !stablehlo.token
}

// -----

nx.callback @hook_3 : (tensor<i32>) -> ()

func.func @signature_mismatch(%x: tensor<f32>) {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  %f3 = "stablehlo.constant"() {value = dense<3> : tensor<ui16>} : () -> tensor<ui16>
  // expected-error @+1 {{'stablehlo.outfeed' op sends hook flag 3 with types '(tensor<f32>) -> ()', but @hook_3 is declared as '(tensor<i32>) -> ()'}}
  %t1 = "stablehlo.outfeed"(%f3, %x, %t0) : (tensor<ui16>, tensor<f32>, !stablehlo.token) -> !stablehlo.token
  %f0 = "stablehlo.constant"() {value = dense<0> : tensor<ui16>} : () -> tensor<ui16>
  %t2 = "stablehlo.outfeed"(%f0, %t1) : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  return
}

// -----

// Found by nx-opt-fuzzer: the chain's last outfeed ends the block (an
// unregistered op may be its terminator); erasing the chain would leave the
// block without one.
func.func @chain_ends_block() {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  %f0 = "stablehlo.constant"() {value = dense<0> : tensor<ui16>} : () -> tensor<ui16>
  // expected-error @+1 {{'stablehlo.outfeed' op ends its block, so the hook chain cannot be replaced}}
  %t1 = "stablehlo.outfeed"(%f0, %t0) : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
}

// -----

// Found by nx-opt-fuzzer: a hook of a tensor the host boundary cannot take
// (here a dynamic shape) would become an nx.callback that does not verify.
func.func @dynamic_hook_tensor(%x: tensor<?xf32>) {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  %f1 = "stablehlo.constant"() {value = dense<1> : tensor<ui16>} : () -> tensor<ui16>
  %t1 = "stablehlo.outfeed"(%f1, %t0) : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  // expected-error @+1 {{'stablehlo.outfeed' op sends hook tensor #0, which must have a static shape, got 'tensor<?xf32>'}}
  %t2 = "stablehlo.outfeed"(%x, %t1) : (tensor<?xf32>, !stablehlo.token) -> !stablehlo.token
  %f0 = "stablehlo.constant"() {value = dense<0> : tensor<ui16>} : () -> tensor<ui16>
  %t3 = "stablehlo.outfeed"(%f0, %t2) : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  return
}

// -----

// The same for a tensor sent with its flag, of an element type no host
// callback takes.
func.func @index_hook_tensor(%x: tensor<2xindex>) {
  %t0 = "stablehlo.create_token"() : () -> !stablehlo.token
  %f1 = "stablehlo.constant"() {value = dense<1> : tensor<ui16>} : () -> tensor<ui16>
  // expected-error @+1 {{'stablehlo.outfeed' op sends hook tensor #0, which has unsupported element type 'index'}}
  %t1 = "stablehlo.outfeed"(%f1, %x, %t0) : (tensor<ui16>, tensor<2xindex>, !stablehlo.token) -> !stablehlo.token
  %f0 = "stablehlo.constant"() {value = dense<0> : tensor<ui16>} : () -> tensor<ui16>
  %t2 = "stablehlo.outfeed"(%f0, %t1) : (tensor<ui16>, !stablehlo.token) -> !stablehlo.token
  return
}
