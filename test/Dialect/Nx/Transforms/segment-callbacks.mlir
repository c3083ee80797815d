// RUN: nx-opt %s -split-input-file -nx-segment-callbacks | FileCheck %s --enable-var-scope
// The pass is idempotent: orchestrators are left alone.
// RUN: nx-opt %s -split-input-file -nx-segment-callbacks -nx-segment-callbacks | FileCheck %s --enable-var-scope

// A chain: stage, callback, stage. The last stage reads the callback result
// and a stage-0 value that lives across the boundary.

nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>) -> tensor<4xf32> attributes {nx.host_orchestrator} {
// CHECK-NEXT:    %[[A:.+]] = call @chain_stage0(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[B:.+]] = nx.elixir_call @cb(%[[A]])
// CHECK-NEXT:    %[[C:.+]] = call @chain_stage1(%[[B]], %[[A]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[C]] : tensor<4xf32>
// CHECK-LABEL: func.func private @chain_stage0(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>) -> tensor<4xf32> attributes {nx.device = "host"} {
// CHECK-NEXT:    %[[A:.+]] = arith.addf %[[X]], %[[X]]
// CHECK-NEXT:    return %[[A]]
// CHECK-LABEL: func.func private @chain_stage1(
// CHECK-SAME:      %[[B:.+]]: tensor<4xf32>, %[[A:.+]]: tensor<4xf32>) -> tensor<4xf32> attributes {nx.device = "host"} {
// CHECK-NEXT:    %[[C:.+]] = arith.mulf %[[B]], %[[A]]
// CHECK-NEXT:    return %[[C]]
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.addf %x, %x : tensor<4xf32>
  %b = nx.elixir_call @cb(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = arith.mulf %b, %a : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// A diamond: two callbacks on the same stage value share one boundary, and
// the join is one stage.

nx.callback @left : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @right : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @diamond(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT:    %[[A:.+]] = call @diamond_stage0(%[[X]])
// CHECK-NEXT:    %[[L:.+]] = nx.elixir_call @left(%[[A]])
// CHECK-NEXT:    %[[R:.+]] = nx.elixir_call @right(%[[A]])
// CHECK-NEXT:    %[[J:.+]] = call @diamond_stage1(%[[L]], %[[R]])
// CHECK-NEXT:    return %[[J]]
// CHECK-LABEL: func.func private @diamond_stage0(
// CHECK-NEXT:    arith.negf
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @diamond_stage1(
// CHECK-SAME:      %[[L:.+]]: tensor<4xf32>, %[[R:.+]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[J:.+]] = arith.addf %[[L]], %[[R]]
// CHECK-NEXT:    return %[[J]]
// CHECK-NOT:   func.func private @diamond_stage2
func.func @diamond(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.negf %x : tensor<4xf32>
  %l = nx.elixir_call @left(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %r = nx.elixir_call @right(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %j = arith.addf %l, %r : tensor<4xf32>
  return %j : tensor<4xf32>
}

// -----

// Independent callbacks: the one depending on nothing computed runs at the
// first boundary (stage 0 is empty, so it is not emitted); computation not
// needed by the callbacks is sunk to the last stage.

nx.callback @source : () -> tensor<2xi64>
nx.callback @sink : (tensor<2xi64>) -> tensor<2xi64>

// CHECK-LABEL: func.func @independent(
// CHECK-SAME:      %[[X:.+]]: tensor<2xi64>)
// CHECK-NEXT:    %[[S:.+]] = nx.elixir_call @source()
// CHECK-NEXT:    %[[T:.+]] = nx.elixir_call @sink(%[[X]])
// CHECK-NEXT:    %[[R:.+]] = call @independent_stage0(%[[X]], %[[S]], %[[T]])
// CHECK-NEXT:    return %[[R]]
// CHECK-LABEL: func.func private @independent_stage0(
// CHECK-SAME:      %[[X:.+]]: tensor<2xi64>, %[[S:.+]]: tensor<2xi64>, %[[T:.+]]: tensor<2xi64>)
// CHECK-NEXT:    %[[M:.+]] = arith.muli %[[X]], %[[X]]
// CHECK-NEXT:    %[[A:.+]] = arith.addi %[[M]], %[[S]]
// CHECK-NEXT:    %[[B:.+]] = arith.addi %[[A]], %[[T]]
// CHECK-NEXT:    return %[[B]]
func.func @independent(%x: tensor<2xi64>) -> tensor<2xi64> {
  %m = arith.muli %x, %x : tensor<2xi64>
  %s = nx.elixir_call @source() : () -> tensor<2xi64>
  %a = arith.addi %m, %s : tensor<2xi64>
  %t = nx.elixir_call @sink(%x) : (tensor<2xi64>) -> tensor<2xi64>
  %b = arith.addi %a, %t : tensor<2xi64>
  return %b : tensor<2xi64>
}

// -----

// Multiple results: a callback with two results, a stage with two live-outs,
// and a function returning a callback result directly (no last stage).

nx.callback @split : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<i32>)

// CHECK-LABEL: func.func @multi(
// CHECK-SAME:      %[[X:.+]]: tensor<3xf32>)
// CHECK-NEXT:    %[[S:.+]]:2 = call @multi_stage0(%[[X]]) : (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT:    %[[C:.+]]:2 = nx.elixir_call @split(%[[S]]#0, %[[S]]#1)
// CHECK-NEXT:    return %[[C]]#0, %[[C]]#1, %[[S]]#1
// CHECK-LABEL: func.func private @multi_stage0(
// CHECK-SAME:      %[[X:.+]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT:    %[[A:.+]] = arith.addf %[[X]], %[[X]]
// CHECK-NEXT:    %[[B:.+]] = arith.mulf %[[A]], %[[X]]
// CHECK-NEXT:    return %[[A]], %[[B]]
// CHECK-NOT:   func.func private @multi_stage1
func.func @multi(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<i32>, tensor<3xf32>) {
  %a = arith.addf %x, %x : tensor<3xf32>
  %b = arith.mulf %a, %x : tensor<3xf32>
  %c:2 = nx.elixir_call @split(%a, %b) : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<i32>)
  return %c#0, %c#1, %b : tensor<3xf32>, tensor<i32>, tensor<3xf32>
}

// -----

// Unused values: an unused effectful callback result is kept, an unused pure
// callback and dead computation are dropped, and a value only used inside its
// stage does not cross a boundary.

nx.callback @effect : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @unused(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT:    %[[A:.+]] = call @unused_stage0(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %{{.+}} = nx.elixir_call @effect(%[[A]])
// CHECK-NEXT:    return %[[X]]
// CHECK-NOT:     nx.elixir_call pure
// CHECK-LABEL: func.func private @unused_stage0(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[T:.+]] = arith.negf %[[X]]
// CHECK-NEXT:    %[[A:.+]] = arith.addf %[[T]], %[[T]]
// CHECK-NEXT:    return %[[A]]
// CHECK-NOT:   func.func private @unused_stage1
func.func @unused(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = arith.negf %x : tensor<4xf32>
  %a = arith.addf %t, %t : tensor<4xf32>
  %dead = arith.mulf %a, %a : tensor<4xf32>
  %u = nx.elixir_call @effect(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %p = nx.elixir_call pure @effect(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// Callbacks with no tensor dependence, effectful ones keep program order: the
// second @tick is ready at the first boundary but follows @log.

nx.callback @tick : () -> tensor<i64>
nx.callback @log : (tensor<i64>) -> tensor<i64>

// CHECK-LABEL: func.func @ordering(
// CHECK-SAME:      %[[X:.+]]: tensor<i64>)
// CHECK-NEXT:    %[[T0:.+]] = nx.elixir_call @tick()
// CHECK-NEXT:    %[[P:.+]] = nx.elixir_call pure @tick()
// CHECK-NEXT:    %[[S:.+]] = call @ordering_stage0(%[[T0]], %[[X]])
// CHECK-NEXT:    %[[L:.+]] = nx.elixir_call @log(%[[S]])
// CHECK-NEXT:    %[[T1:.+]] = nx.elixir_call @tick()
// CHECK-NEXT:    %[[R:.+]] = call @ordering_stage1(%[[L]], %[[T1]], %[[P]])
// CHECK-NEXT:    return %[[R]]
func.func @ordering(%x: tensor<i64>) -> tensor<i64> {
  %t0 = nx.elixir_call @tick() : () -> tensor<i64>
  %s = arith.addi %t0, %x : tensor<i64>
  %l = nx.elixir_call @log(%s) : (tensor<i64>) -> tensor<i64>
  %t1 = nx.elixir_call @tick() : () -> tensor<i64>
  %p = nx.elixir_call pure @tick() : () -> tensor<i64>
  %a = arith.addi %l, %t1 : tensor<i64>
  %b = arith.addi %a, %p : tensor<i64>
  return %b : tensor<i64>
}

// -----

// io_callback, outfeed and infeed are host ops by default. Unordered
// io_callbacks only follow data; `ordered` ones and streams keep program
// order.

nx.callback @print : (tensor<2xf32>) -> ()

// CHECK-LABEL: func.func @io(
// CHECK-SAME:      %[[X:.+]]: tensor<2xf32>)
// CHECK-NEXT:    %[[I:.+]] = nx.infeed from "in"
// CHECK-NEXT:    %[[U:.+]] = nx.io_callback @print(%[[X]])
// CHECK-NEXT:    %[[A:.+]] = call @io_stage0(%[[I]])
// CHECK-NEXT:    %[[P:.+]] = nx.io_callback ordered @print(%[[A]])
// CHECK-NEXT:    nx.outfeed %[[P]] to "out"
// CHECK-NEXT:    %[[Q:.+]] = nx.io_callback ordered @print(%[[X]])
// CHECK-NEXT:    return %[[Q]], %[[U]]
// CHECK-LABEL: func.func private @io_stage0(
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    return
func.func @io(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %i = nx.infeed from "in" : tensor<2xf32>
  %a = arith.addf %i, %i : tensor<2xf32>
  %p = nx.io_callback ordered @print(%a) : tensor<2xf32>
  nx.outfeed %p to "out" : tensor<2xf32>
  %q = nx.io_callback ordered @print(%x) : tensor<2xf32>
  %u = nx.io_callback @print(%x) : tensor<2xf32>
  return %q, %u : tensor<2xf32>, tensor<2xf32>
}

// -----

// Constants are rematerialized in every stage that uses them and never cross
// a boundary; a constant the orchestrator itself needs stays there.

nx.callback @cst : (tensor<2xf32>) -> tensor<2xf32>

// CHECK-LABEL: func.func @constants(
// CHECK-SAME:      %[[X:.+]]: tensor<2xf32>)
// CHECK-NEXT:    %[[C:.+]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[A:.+]] = call @constants_stage0(%[[X]]) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[B:.+]] = nx.elixir_call @cst(%[[A]])
// CHECK-NEXT:    %[[D:.+]] = nx.elixir_call @cst(%[[C]])
// CHECK-NEXT:    %[[E:.+]] = call @constants_stage1(%[[B]], %[[D]]) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    return %[[E]]
// CHECK-LABEL: func.func private @constants_stage0(
// CHECK-SAME:      %[[X:.+]]: tensor<2xf32>)
// CHECK-NEXT:    %[[C:.+]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[A:.+]] = arith.addf %[[X]], %[[C]]
// CHECK-NEXT:    return %[[A]]
// CHECK-LABEL: func.func private @constants_stage1(
// CHECK-SAME:      %[[B:.+]]: tensor<2xf32>, %[[D:.+]]: tensor<2xf32>)
// CHECK-NEXT:    %[[C:.+]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[M:.+]] = arith.mulf %[[B]], %[[C]]
// CHECK-NEXT:    %[[S:.+]] = arith.addf %[[M]], %[[D]]
// CHECK-NEXT:    return %[[S]]
func.func @constants(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = arith.constant dense<1.0> : tensor<2xf32>
  %a = arith.addf %x, %c : tensor<2xf32>
  %b = nx.elixir_call @cst(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %d = nx.elixir_call @cst(%c) : (tensor<2xf32>) -> tensor<2xf32>
  %m = arith.mulf %b, %c : tensor<2xf32>
  %s = arith.addf %m, %d : tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

// Functions without host ops are left alone.

// CHECK-LABEL: func.func @pure(
// CHECK-NOT:     nx.host_orchestrator
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    return
// CHECK-NOT:   func.func private @pure_stage0
func.func @pure(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.addf %x, %x : tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// A call of a function containing callbacks is a host op; both functions
// become orchestrators.

nx.callback @inner_cb : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @callee(
// CHECK-SAME:      attributes {nx.host_orchestrator}
// CHECK-NEXT:    nx.elixir_call @inner_cb
// CHECK-NEXT:    return
func.func @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = nx.elixir_call @inner_cb(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @caller(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>) -> tensor<4xf32> attributes {nx.host_orchestrator}
// CHECK-NEXT:    %[[A:.+]] = call @caller_stage0(%[[X]])
// CHECK-NEXT:    %[[B:.+]] = call @callee(%[[A]])
// CHECK-NEXT:    %[[C:.+]] = call @caller_stage1(%[[B]])
// CHECK-NEXT:    return %[[C]]
// CHECK-LABEL: func.func private @caller_stage0(
// CHECK-NEXT:    arith.negf
// CHECK-LABEL: func.func private @caller_stage1(
// CHECK-NEXT:    arith.negf
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.negf %x : tensor<4xf32>
  %b = call @callee(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = arith.negf %b : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// A loop without callbacks is computation: it goes into a stage whole.

nx.callback @after_loop : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @pure_loop(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT:    %[[L:.+]] = call @pure_loop_stage0(%[[X]])
// CHECK-NEXT:    %[[R:.+]] = nx.elixir_call @after_loop(%[[L]])
// CHECK-NEXT:    return %[[R]]
// CHECK-LABEL: func.func private @pure_loop_stage0(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK:         %[[L:.+]] = scf.for %{{.+}} = %[[C0]] to %[[C8]] step %[[C1]] iter_args(%[[ACC:.+]] = %[[X]])
// CHECK-NEXT:      %[[N:.+]] = arith.addf %[[ACC]], %[[ACC]]
// CHECK-NEXT:      scf.yield %[[N]]
// CHECK:         return %[[L]]
func.func @pure_loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %l = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %n = arith.addf %acc, %acc : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  %r = nx.elixir_call @after_loop(%l) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A loop with a callback inside stays in the orchestrator (on the host) and
// its body is segmented recursively: the body's computation still runs as
// stages, called from inside the loop.

nx.callback @step : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @host_loop(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK:         %[[W:.+]] = call @host_loop_stage0(%[[Y]])
// CHECK-NEXT:    %[[L:.+]] = scf.for %{{.+}} = %[[C0]] to %[[C8]] step %[[C1]] iter_args(%[[ACC:.+]] = %[[X]])
// CHECK-NEXT:      %[[A:.+]] = func.call @host_loop_stage1(%[[ACC]], %[[W]])
// CHECK-NEXT:      %[[B:.+]] = nx.elixir_call @step(%[[A]])
// CHECK-NEXT:      %[[N:.+]] = func.call @host_loop_stage2(%[[B]])
// CHECK-NEXT:      scf.yield %[[N]]
// CHECK:         %[[R:.+]] = call @host_loop_stage3(%[[L]])
// CHECK-NEXT:    return %[[R]]
// CHECK-LABEL: func.func private @host_loop_stage0(
// CHECK-NEXT:    arith.mulf
// CHECK-LABEL: func.func private @host_loop_stage1(
// CHECK-NEXT:    arith.addf
// CHECK-LABEL: func.func private @host_loop_stage2(
// CHECK-NEXT:    arith.negf
// CHECK-LABEL: func.func private @host_loop_stage3(
// CHECK-NEXT:    arith.negf
func.func @host_loop(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %w = arith.mulf %y, %y : tensor<4xf32>
  %l = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %a = arith.addf %acc, %w : tensor<4xf32>
    %b = nx.elixir_call @step(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %n = arith.negf %b : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  %r = arith.negf %l : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// scf.if and scf.while with callbacks: the ops stay on the host, each region
// is segmented on its own (a region without callbacks becomes one stage).

nx.callback @maybe : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @again : (tensor<4xf32>) -> tensor<i1>

// CHECK-LABEL: func.func @host_if(
// CHECK-SAME:      %[[P:.+]]: i1, %[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT:    %[[R:.+]] = scf.if %[[P]]
// CHECK-NEXT:      %[[B:.+]] = nx.elixir_call @maybe(%[[X]])
// CHECK-NEXT:      scf.yield %[[B]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[N:.+]] = func.call @host_if_stage0(%[[X]])
// CHECK-NEXT:      scf.yield %[[N]]
// CHECK:         return %[[R]]
// CHECK-LABEL: func.func private @host_if_stage0(
// CHECK-NEXT:    arith.negf
func.func @host_if(%p: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %p -> tensor<4xf32> {
    %b = nx.elixir_call @maybe(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %b : tensor<4xf32>
  } else {
    %n = arith.negf %x : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @host_while(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT:    %[[R:.+]] = scf.while (%[[A:.+]] = %[[X]])
// CHECK-NEXT:      %[[C:.+]] = nx.elixir_call @again(%[[A]])
// CHECK-NEXT:      %[[E:.+]] = func.call @host_while_stage0(%[[C]]) : (tensor<i1>) -> i1
// CHECK-NEXT:      scf.condition(%[[E]]) %[[A]]
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[B:.+]]: tensor<4xf32>):
// CHECK-NEXT:      %[[N:.+]] = func.call @host_while_stage1(%[[B]])
// CHECK-NEXT:      scf.yield %[[N]]
// CHECK:         return %[[R]]
// CHECK-LABEL: func.func private @host_while_stage0(
// CHECK-NEXT:    tensor.extract
// CHECK-LABEL: func.func private @host_while_stage1(
// CHECK-NEXT:    arith.negf
func.func @host_while(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.while (%a = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    %c = nx.elixir_call @again(%a) : (tensor<4xf32>) -> tensor<i1>
    %e = tensor.extract %c[] : tensor<i1>
    scf.condition(%e) %a : tensor<4xf32>
  } do {
  ^bb0(%b: tensor<4xf32>):
    %n = arith.negf %b : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Ordered callbacks stay ordered, in program order, in the orchestrator.
nx.callback @print : (tensor<3xf32>) -> ()
nx.callback @step : (tensor<3xf32>) -> tensor<3xf32>

// CHECK-LABEL: func.func @ordered(
// CHECK-SAME:      %[[X:.+]]: tensor<3xf32>, %[[Y:.+]]: tensor<3xf32>)
// CHECK: nx.elixir_call ordered @print(%[[Y]])
// CHECK: %[[A:.+]] = nx.io_callback ordered @print(%[[X]])
// CHECK: %[[S:.+]] = call @ordered_stage0(%[[A]])
// CHECK: nx.elixir_call ordered @step(%[[S]])
func.func @ordered(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  nx.elixir_call ordered @print(%y) : (tensor<3xf32>) -> ()
  %a = nx.io_callback ordered @print(%x) : tensor<3xf32>
  %d = arith.addf %a, %a : tensor<3xf32>
  %b = nx.elixir_call ordered @step(%d) : (tensor<3xf32>) -> tensor<3xf32>
  return %b : tensor<3xf32>
}
