// RUN: nx-opt %s -split-input-file -nx-inline-pieces -verify-diagnostics --allow-unregistered-dialect

func.func @twice(%x: f32) -> f32 {
  %0 = call @piece(%x) : (f32) -> f32
  %1 = call @piece(%0) : (f32) -> f32
  return %1 : f32
}
// expected-error @below {{'func.func' op is a piece ('nx.piece') and must be called exactly once, got 2 calls}}
func.func private @piece(%x: f32) -> f32 attributes {nx.piece} {
  return %x : f32
}

// -----

// expected-error @below {{'func.func' op is a piece ('nx.piece') and must be called exactly once, got 0 calls}}
func.func private @unused(%x: f32) -> f32 attributes {nx.piece} {
  return %x : f32
}

// -----

func.func @branchy(%c: i1) -> i1 {
  %0 = call @piece(%c) : (i1) -> i1
  return %0 : i1
}
// expected-error @below {{'func.func' op is a piece ('nx.piece') and must have one block, got 2}}
func.func private @piece(%c: i1) -> i1 attributes {nx.piece} {
  cf.br ^bb1
^bb1:
  return %c : i1
}

// -----

// A piece that calls itself has nowhere to go.
// expected-error @below {{'func.func' op is a piece ('nx.piece') and is called from itself, so it cannot be inlined}}
func.func private @self(%x: f32) -> f32 attributes {nx.piece} {
  %0 = call @self(%x) : (f32) -> f32
  return %0 : f32
}

// -----

// Nor do two pieces that call each other.
func.func @entry(%x: f32) -> f32 {
  return %x : f32
}
// expected-error @below {{'func.func' op is a piece ('nx.piece') and is called from itself, so it cannot be inlined}}
func.func private @ping(%x: f32) -> f32 attributes {nx.piece} {
  %0 = call @pong(%x) : (f32) -> f32
  return %0 : f32
}
func.func private @pong(%x: f32) -> f32 attributes {nx.piece} {
  %0 = call @ping(%x) : (f32) -> f32
  return %0 : f32
}

// -----

func.func @caller() {
  call @odd() : () -> ()
  return
}
// expected-error @below {{'func.func' op is a piece ('nx.piece') and must end in 'func.return'}}
func.func private @odd() attributes {nx.piece} {
  "test.terminator"() : () -> ()
}
