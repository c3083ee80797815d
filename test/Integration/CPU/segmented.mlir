// Segmented programs compute exactly what the unsegmented program computes.
// Every entry runs five ways and all outputs (results, prints, outfeeds) must
// be byte-identical to the first:
//   1. the program as written (checked with FileCheck, prefix %{prefix});
//   2. after `nx-segment-callbacks` (device=host: no transfers), whose IR is
//      checked with %{prefix}-SEG so the stages really exist;
//   3. after `nx-segment-callbacks=device=cuda` (nx.to_device / nx.to_host,
//      identities on the CPU);
//   4. and 5. both again with every stage compiled and JIT'd as its own unit
//      (--separate-stages).
// Locations are kept (--mlir-print-debuginfo) so nx.debug.print labels match.
//
// DEFINE: %{entry} =
// DEFINE: %{prefix} =
// DEFINE: %{args} =
// DEFINE: %{runner} = nx-runner --callbacks=%nx_test_callbacks --entry=%{entry} %{args}
// DEFINE: %{out} = %t.%{entry}
// DEFINE: %{run} = %{runner} %s > %{out}.ref \
// DEFINE:   && FileCheck %s --input-file=%{out}.ref --check-prefix=%{prefix} \
// DEFINE:   && nx-opt %s --mlir-print-debuginfo --nx-segment-callbacks > %{out}.host.mlir \
// DEFINE:   && FileCheck %s --input-file=%{out}.host.mlir --check-prefix=%{prefix}-SEG \
// DEFINE:   && nx-opt %s --mlir-print-debuginfo --nx-segment-callbacks=device=cuda > %{out}.cuda.mlir \
// DEFINE:   && FileCheck %s --input-file=%{out}.cuda.mlir --check-prefix=CUDA \
// DEFINE:   && %{runner} %{out}.host.mlir > %{out}.host && diff %{out}.ref %{out}.host \
// DEFINE:   && %{runner} %{out}.cuda.mlir > %{out}.cuda && diff %{out}.ref %{out}.cuda \
// DEFINE:   && %{runner} --separate-stages %{out}.host.mlir > %{out}.host.sep && diff %{out}.ref %{out}.host.sep \
// DEFINE:   && %{runner} --separate-stages %{out}.cuda.mlir > %{out}.cuda.sep && diff %{out}.ref %{out}.cuda.sep
//
// CUDA: nx.to_device
// CUDA: nx.to_host
//
// REDEFINE: %{entry} = chain
// REDEFINE: %{prefix} = CHAIN
// REDEFINE: %{args} = --input='[1, 2, 3, 4]:tensor<4xf32>'
// RUN: %{run}
// REDEFINE: %{entry} = diamond
// REDEFINE: %{prefix} = DIAMOND
// RUN: %{run}
// REDEFINE: %{entry} = multi
// REDEFINE: %{prefix} = MULTI
// REDEFINE: %{args} = --input='[1, 5, 3, 2]:tensor<4xf32>' --input='[10, 20, 30, 40]:tensor<4xf32>'
// RUN: %{run}
// REDEFINE: %{entry} = io_chain
// REDEFINE: %{prefix} = IOCHAIN
// REDEFINE: %{args} = --input='[1, 2, 3]:tensor<3xf32>'
// RUN: %{run}
// REDEFINE: %{entry} = io_ordered
// REDEFINE: %{prefix} = IOORDERED
// REDEFINE: %{args} = --input='[1, 2, 3]:tensor<3xf32>' --input='[7]:tensor<1xi64>'
// RUN: %{run}
// REDEFINE: %{entry} = loop
// REDEFINE: %{prefix} = LOOP
// REDEFINE: %{args} = --input='[1, 2, 3, 4]:tensor<4xf32>' --input='[1, 1, 2, 2]:tensor<4xf32>'
// RUN: %{run}
// REDEFINE: %{entry} = branch
// REDEFINE: %{prefix} = BRANCH
// REDEFINE: %{args} = --input='[1, 2, 3, 4]:tensor<4xf32>' --input='[0.5, 0.5, 0.5, 0.5]:tensor<4xf32>'
// RUN: %{run}
// REDEFINE: %{prefix} = BRANCHNEG
// REDEFINE: %{args} = --input='[1, 2, 3, 4]:tensor<4xf32>' --input='[-1, 0, 0, 0]:tensor<4xf32>'
// RUN: %{run}
// REDEFINE: %{entry} = feeds
// REDEFINE: %{prefix} = FEEDS
// REDEFINE: %{args} = --infeed='in=[1, 2, 3, 4]:tensor<4xf32>' \
// REDEFINE:   --infeed='in=[10, 20, 30, 40]:tensor<4xf32>;5:tensor<i64>' --outfeed=out
// RUN: %{run}
//
// The segmented program also runs from a pipe (nx-runner reads stdin).
// RUN: nx-opt %s --mlir-print-debuginfo --nx-segment-callbacks=device=cuda \
// RUN:   | nx-runner - --separate-stages --callbacks=%nx_test_callbacks \
// RUN:     --entry=chain --input='[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   | FileCheck %s --check-prefix=CHAIN

nx.callback @test.scale : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @test.add_sub : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
nx.callback @test.stats : (tensor<4xf32>) -> (tensor<f32>, tensor<f32>, tensor<i64>)
nx.callback @test.check_positive : (tensor<3xf32>) -> ()
nx.callback @nx.debug.print : (tensor<3xf32>) -> ()
nx.callback @nx.debug.print.f32x4 : (tensor<4xf32>) -> ()
nx.callback @nx.debug.print.i64 : (tensor<1xi64>) -> ()

// A chain: stage, callback, stage, callback, stage, callback, stage.
// CHAIN: result #0: tensor<4xf32> = [14, 26, 42, 62]
// CHAIN-NOT: {{.}}
// CHAIN-SEG-LABEL: func.func @chain(
// CHAIN-SEG: call @chain_stage3(
// CHAIN-SEG-LABEL: func.func private @chain_stage0(
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.mulf %x, %x : tensor<4xf32>
  %b = nx.elixir_call @test.scale(%a) static_args {factor = 2.0 : f64, offset = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %c = arith.addf %b, %x : tensor<4xf32>
  %d = nx.elixir_call @test.scale(%c) static_args {factor = 0.5 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %e = arith.subf %d, %a : tensor<4xf32>
  %f = nx.elixir_call @test.scale(%e) static_args {factor = 10.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %g = arith.addf %f, %c : tensor<4xf32>
  return %g : tensor<4xf32>
}

// A diamond: two callbacks on the same stage result (one boundary), joined by
// the next stage, then a third callback and a last stage that reuses a
// stage-0 value.
// DIAMOND: result #0: tensor<4xf32> = [21, 17, -11, -63]
// DIAMOND-NOT: {{.}}
// DIAMOND-SEG-LABEL: func.func @diamond(
// DIAMOND-SEG: call @diamond_stage0(
// DIAMOND-SEG-NEXT: nx.elixir_call pure @test.scale(
// DIAMOND-SEG-NEXT: nx.elixir_call @test.scale(
// DIAMOND-SEG-NEXT: call @diamond_stage1(
func.func @diamond(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.addf %x, %x : tensor<4xf32>
  %l = nx.elixir_call pure @test.scale(%a) static_args {factor = 3.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %r = nx.elixir_call @test.scale(%a) static_args {factor = -1.0 : f64, offset = 5 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %lr = arith.mulf %l, %r : tensor<4xf32>
  %j = nx.elixir_call @test.scale(%lr) static_args {factor = 1.0 : f64, offset = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %out = arith.addf %j, %a : tensor<4xf32>
  return %out : tensor<4xf32>
}

// Multiple results everywhere: callbacks with several results, a stage with
// several results, and an orchestrator returning stage results, callback
// results, an argument, a constant and one value twice.
// MULTI: result #0: tensor<4xf32> = [99, 9975, 8091, 6396]
// MULTI-NEXT: result #1: tensor<4xf32> = [9, 95, 87, 78]
// MULTI-NEXT: result #2: tensor<f32> = 269
// MULTI-NEXT: result #3: tensor<f32> = 95
// MULTI-NEXT: result #4: tensor<i64> = 1
// MULTI-NEXT: result #5: tensor<4xf32> = [10, 20, 30, 40]
// MULTI-NEXT: result #6: tensor<4xf32> = [10, 100, 90, 80]
// MULTI-NEXT: result #7: tensor<4xf32> = [10, 100, 90, 80]
// MULTI-NEXT: result #8: tensor<2xi32> = [1, 2]
// MULTI-NEXT: result #9: tensor<4xf32> = [2, 10, 6, 4]
// MULTI-NOT: {{.}}
// MULTI-SEG-LABEL: func.func @multi(
// MULTI-SEG: call @multi_stage0(
// MULTI-SEG: call @multi_stage1(
func.func @multi(%a: tensor<4xf32>, %b: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<i64>,
        tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xi32>, tensor<4xf32>) {
  %m = arith.mulf %a, %b : tensor<4xf32>
  %a2 = arith.addf %a, %a : tensor<4xf32>
  %sum, %diff = nx.elixir_call @test.add_sub(%m, %a) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %total, %max, %argmax = nx.elixir_call @test.stats(%diff) : (tensor<4xf32>) -> (tensor<f32>, tensor<f32>, tensor<i64>)
  %sq = arith.mulf %sum, %diff : tensor<4xf32>
  %k = arith.constant dense<[1, 2]> : tensor<2xi32>
  return %sq, %diff, %total, %max, %argmax, %b, %m, %m, %k, %a2
      : tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<i64>,
        tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xi32>, tensor<4xf32>
}

// io_callbacks chained through data run in data order, pass their operand
// through to the stages, and one whose result is unused still runs.
// IOCHAIN: segmented.mlir:[[@LINE+10]]:{{[0-9]+}}: tensor<3xf32> = [1, 2, 3]
// IOCHAIN-NEXT: segmented.mlir:[[@LINE+11]]:{{[0-9]+}}: tensor<3xf32> = [2, 4, 6]
// IOCHAIN-NEXT: segmented.mlir:[[@LINE+13]]:{{[0-9]+}}: tensor<3xf32> = [3, 6, 9]
// IOCHAIN-NEXT: result #0: tensor<3xf32> = [3, 6, 9]
// IOCHAIN-NEXT: result #1: tensor<3xf32> = [1, 2, 3]
// IOCHAIN-NOT: {{.}}
// IOCHAIN-SEG-LABEL: func.func @io_chain(
// IOCHAIN-SEG: call @io_chain_stage1(
func.func @io_chain(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %two = arith.constant dense<2.0> : tensor<3xf32>
  %a = nx.io_callback @nx.debug.print(%x) : tensor<3xf32>
  %b = arith.mulf %a, %two : tensor<3xf32>
  %c = nx.io_callback @nx.debug.print(%b) : tensor<3xf32>
  %unused = nx.io_callback @test.check_positive(%c) : tensor<3xf32>
  %d = arith.addf %c, %a : tensor<3xf32>
  %e = nx.io_callback @nx.debug.print(%d) : tensor<3xf32>
  %half = arith.constant dense<0.5> : tensor<3xf32>
  %x2 = arith.addf %a, %a : tensor<3xf32>
  %x1 = arith.mulf %x2, %half : tensor<3xf32>
  return %e, %x1 : tensor<3xf32>, tensor<3xf32>
}

// `ordered` io_callbacks keep program order across stages: the print of %n
// is ready at boundary 0 but must follow the print of the stage-0 value %b.
// IOORDERED: segmented.mlir:[[@LINE+11]]:{{[0-9]+}}: tensor<3xf32> = [2, 4, 6]
// IOORDERED-NEXT: segmented.mlir:[[@LINE+11]]:{{[0-9]+}}: tensor<1xi64> = [7]
// IOORDERED-NEXT: segmented.mlir:[[@LINE+12]]:{{[0-9]+}}: tensor<3xf32> = [4, 16, 36]
// IOORDERED-NEXT: segmented.mlir:[[@LINE+13]]:{{[0-9]+}}: tensor<1xi64> = [14]
// IOORDERED-NEXT: segmented.mlir:[[@LINE+13]]:{{[0-9]+}}: tensor<3xf32> = [1, 2, 3]
// IOORDERED-NEXT: result #0: tensor<3xf32> = [4, 16, 36]
// IOORDERED-NEXT: result #1: tensor<1xi64> = [14]
// IOORDERED-NOT: {{.}}
// IOORDERED-SEG-LABEL: func.func @io_ordered(
func.func @io_ordered(%x: tensor<3xf32>, %n: tensor<1xi64>) -> (tensor<3xf32>, tensor<1xi64>) {
  %b = arith.addf %x, %x : tensor<3xf32>
  %b1 = nx.io_callback ordered @nx.debug.print(%b) : tensor<3xf32>
  %n1 = nx.io_callback ordered @nx.debug.print.i64(%n) : tensor<1xi64>
  %c = arith.mulf %b1, %b1 : tensor<3xf32>
  %c1 = nx.io_callback ordered @nx.debug.print(%c) : tensor<3xf32>
  %n2 = arith.addi %n1, %n1 : tensor<1xi64>
  %n3 = nx.io_callback ordered @nx.debug.print.i64(%n2) : tensor<1xi64>
  %x1 = nx.io_callback ordered @nx.debug.print(%x) : tensor<3xf32>
  return %c1, %n3 : tensor<3xf32>, tensor<1xi64>
}

// Callbacks inside scf.for: the loop stays in the orchestrator (host control
// flow) and its body's pure parts are stages called once per iteration.
// LOOP: segmented.mlir:[[@LINE+20]]:{{[0-9]+}}: tensor<4xf32> = [2, 3, 7, 8]
// LOOP-NEXT: segmented.mlir:[[@LINE+19]]:{{[0-9]+}}: tensor<4xf32> = [3, 3.5, 9.5, 10]
// LOOP-NEXT: segmented.mlir:[[@LINE+18]]:{{[0-9]+}}: tensor<4xf32> = [3.5, 3.75, 10.75, 11]
// LOOP-NEXT: result #0: tensor<4xf32> = [2.75, 2.875, 14.75, 15]
// LOOP-NOT: {{.}}
// LOOP-SEG-LABEL: func.func @loop(
// LOOP-SEG: call @loop_stage0(
// LOOP-SEG: scf.for
// LOOP-SEG: func.call @loop_stage1(
// LOOP-SEG: nx.io_callback
// LOOP-SEG: nx.elixir_call
// LOOP-SEG: func.call @loop_stage2(
// LOOP-SEG: scf.yield
func.func @loop(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %w = arith.mulf %y, %y : tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> tensor<4xf32> {
    %s = arith.addf %acc, %w : tensor<4xf32>
    %p = nx.io_callback @nx.debug.print.f32x4(%s) : tensor<4xf32>
    %h = nx.elixir_call @test.scale(%p) static_args {factor = 0.5 : f64} : (tensor<4xf32>) -> tensor<4xf32>
    %n = arith.addf %h, %y : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  %out = arith.mulf %r, %y : tensor<4xf32>
  return %out : tensor<4xf32>
}

// A callback in one branch of an scf.if whose condition a stage computes
// from tensor data (a scalar i1 crossing the boundary).
// BRANCH: result #0: tensor<4xf32> = [7, 13, 19, 25]
// BRANCH-NOT: {{.}}
// BRANCHNEG: result #0: tensor<4xf32> = [-1, -2, -3, -4]
// BRANCHNEG-NOT: {{.}}
// BRANCH-SEG-LABEL: func.func @branch(
// BRANCH-SEG: scf.if
// BRANCH-SEG: nx.elixir_call @test.scale(
// BRANCHNEG-SEG-LABEL: func.func @branch(
func.func @branch(%x: tensor<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %t0 = tensor.extract %t[%c0] : tensor<4xf32>
  %cond = arith.cmpf ogt, %t0, %zero : f32
  %r = scf.if %cond -> tensor<4xf32> {
    %a = arith.addf %x, %x : tensor<4xf32>
    %b = nx.elixir_call @test.scale(%a) static_args {factor = 3.0 : f64, offset = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %b : tensor<4xf32>
  } else {
    %n = arith.negf %x : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// Infeed and outfeed between stages: each stream op is a host op, in
// program order.
// FEEDS: result #0: tensor<4xf32> = [22, 48, 78, 112]
// FEEDS-NEXT: result #1: tensor<i64> = 5
// FEEDS-NEXT: outfeed "out" #0: tensor<4xf32> = [1, 4, 9, 16]
// FEEDS-NEXT: outfeed "out" #1.0: tensor<4xf32> = [22, 48, 78, 112]
// FEEDS-NEXT: outfeed "out" #1.1: tensor<i64> = 5
// FEEDS-NOT: {{.}}
// FEEDS-SEG-LABEL: func.func @feeds(
// FEEDS-SEG: nx.infeed
// FEEDS-SEG: call @feeds_stage0(
// FEEDS-SEG: nx.outfeed
// FEEDS-SEG: nx.infeed
// FEEDS-SEG: call @feeds_stage1(
// FEEDS-SEG: nx.elixir_call
// FEEDS-SEG: nx.outfeed
func.func @feeds() -> (tensor<4xf32>, tensor<i64>) {
  %a = nx.infeed from "in" : tensor<4xf32>
  %sq = arith.mulf %a, %a : tensor<4xf32>
  nx.outfeed %sq to "out" : tensor<4xf32>
  %b, %n = nx.infeed from "in" : tensor<4xf32>, tensor<i64>
  %s = arith.addf %sq, %b : tensor<4xf32>
  %h = nx.elixir_call @test.scale(%s) static_args {factor = 2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  nx.outfeed %h, %n to "out" : tensor<4xf32>, tensor<i64>
  return %h, %n : tensor<4xf32>, tensor<i64>
}
