// RUN: nx-opt %s -split-input-file -allow-unregistered-dialect -nx-segment-callbacks -verify-diagnostics

nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>

func.func @in_parallel(%x: tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-note @below {{enclosing 'scf.parallel' is here}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    // expected-error @below {{'nx.elixir_call' op cannot be segmented inside 'scf.parallel'; parallel iterations give host callbacks no order; use scf.for}}
    %r = nx.elixir_call @cb(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.reduce
  }
  return
}

// -----

nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>

func.func @in_forall(%x: tensor<4xf32>) {
  // expected-note @below {{enclosing 'scf.forall' is here}}
  scf.forall (%i) in (4) {
    // expected-error @below {{'nx.elixir_call' op cannot be segmented inside 'scf.forall'; parallel iterations give host callbacks no order; use scf.for}}
    %r = nx.elixir_call @cb(%x) : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>

func.func @in_block(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @below {{enclosing 'nx.block' is here}}
  %r = nx.block "Test.Block" {} (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @below {{'nx.elixir_call' op cannot be segmented inside 'nx.block'; the default implementation of a block must be pure computation}}
    %b = nx.elixir_call @cb(%a) : (tensor<4xf32>) -> tensor<4xf32>
    nx.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

nx.callback @print : (tensor<4xf32>) -> ()

func.func @in_generic(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @below {{enclosing 'linalg.generic' is here}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    // expected-error @below {{'nx.outfeed' op cannot be segmented inside 'linalg.generic'; only scf.if, scf.for, scf.while, scf.index_switch and scf.execute_region can run on the host around callbacks}}
    nx.outfeed %x to "s" : tensor<4xf32>
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>

// expected-note @below {{enclosing 'func.func' is here}}
func.func @branches(%p: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  cf.cond_br %p, ^bb1, ^bb2(%x : tensor<4xf32>)
^bb1:
  // expected-error @below {{'nx.elixir_call' op cannot be segmented inside a region of 'func.func' with 3 blocks; nx-segment-callbacks needs structured control flow (scf)}}
  %r = nx.elixir_call @cb(%x) : (tensor<4xf32>) -> tensor<4xf32>
  cf.br ^bb2(%r : tensor<4xf32>)
^bb2(%y: tensor<4xf32>):
  return %y : tensor<4xf32>
}

// -----

nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>

func.func @multi_block_region(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @below {{enclosing 'scf.execute_region' is here}}
  %r = scf.execute_region -> tensor<4xf32> {
    // expected-error @below {{'nx.elixir_call' op cannot be segmented inside a region of 'scf.execute_region' with 2 blocks; nx-segment-callbacks needs structured control flow (scf)}}
    %a = nx.elixir_call @cb(%x) : (tensor<4xf32>) -> tensor<4xf32>
    cf.br ^bb1(%a : tensor<4xf32>)
  ^bb1(%b: tensor<4xf32>):
    scf.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>

// An unregistered op may end a body; the stages are placed in front of a
// terminator, so the pass needs one it knows.
func.func @unknown_terminator(%x: tensor<4xf32>) {
  // expected-error @below {{'nx.elixir_call' op cannot be segmented in a block that ends in 'test.end', which is not a known terminator}}
  %r = nx.elixir_call @cb(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-note @below {{the block ends here}}
  "test.end"(%r) : (tensor<4xf32>) -> ()
}
