// A failing host call inside a loop stops the program at once: no further
// iteration and no further host call, and the run reports the first failure
// naming the callback and the op. Its results were never written, so going
// on would steer the loop with garbage. Each case runs with inline and
// bridge dispatch, and segmented with every stage compiled on its own; a run
// deadline (--timeout-ms) is set so that a regression fails instead of
// hanging, and `timeout` stops the process should even that not work.
//
// DEFINE: %{run} = not timeout 60 nx-runner --callbacks=%nx_test_callbacks --timeout-ms=5000
// RUN: nx-opt %s --mlir-print-debuginfo --nx-segment-callbacks=device=cuda -o %t.segmented.mlir
//
// RUN: %{run} %s --entry=while_predicate --input='0:tensor<i64>' 2>&1 | FileCheck %s --check-prefix=PRED
// RUN: %{run} %s --dispatch=bridge --entry=while_predicate --input='0:tensor<i64>' 2>&1 | FileCheck %s --check-prefix=PRED
// RUN: %{run} %t.segmented.mlir --separate-stages --entry=while_predicate --input='0:tensor<i64>' 2>&1 | FileCheck %s --check-prefix=PRED
//
// RUN: %{run} %s --entry=loop_body --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=BODY
// RUN: %{run} %s --dispatch=bridge --entry=loop_body --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=BODY
// RUN: %{run} %t.segmented.mlir --separate-stages --entry=loop_body --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=BODY
//
// The trip count comes from the failing call: 8 runs each, as a garbage
// count made a loop spin in some runs only.
// RUN: %{run} %s --entry=trip_count --repeat=8 --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=TRIP
// RUN: %{run} %s --dispatch=bridge --entry=trip_count --repeat=8 --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=TRIP
// RUN: %{run} %t.segmented.mlir --separate-stages --entry=trip_count --repeat=8 --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=TRIP
//
// A failure in a function called from the loop stops the caller too.
// RUN: %{run} %s --entry=nested_call --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: %{run} %s --dispatch=bridge --entry=nested_call --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=NESTED
//
// Nothing fails, but the loop never ends: the run deadline stops it at its
// next host call.
// DEFINE: %{forever} = not timeout 60 nx-runner --timeout-ms=200 --entry=forever --input='[1, 2]:tensor<2xf32>'
// RUN: %{forever} %s 2>&1 | FileCheck %s --check-prefix=DEADLINE
// RUN: %{forever} %s --dispatch=bridge 2>&1 | FileCheck %s --check-prefix=DEADLINE
// RUN: %{forever} %t.segmented.mlir --separate-stages 2>&1 | FileCheck %s --check-prefix=DEADLINE

nx.callback @test.fail_at : (tensor<i64>) -> tensor<i64>
nx.callback @nx.debug.print : (tensor<i64>) -> ()
nx.callback @nx.debug.identity : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @nx.debug.fail : (tensor<2xf32>) -> tensor<i64>

// The predicate asks the host for the counter; the host fails once it is 3.
// PRED:      failing-loops.mlir:[[@LINE+14]]:10: tensor<i64> = 0
// PRED-NEXT: failing-loops.mlir:[[@LINE+13]]:10: tensor<i64> = 1
// PRED-NEXT: failing-loops.mlir:[[@LINE+12]]:10: tensor<i64> = 2
// PRED-NEXT: nx-runner: error: callback @test.fail_at at {{.*}}failing-loops.mlir:[[@LINE+5]]:10 failed: value 3 reached
// PRED-NOT:  tensor<i64>
func.func @while_predicate(%start: tensor<i64>) -> tensor<i64> {
  %limit = arith.constant dense<10> : tensor<i64>
  %r = scf.while (%i = %start) : (tensor<i64>) -> tensor<i64> {
    %j = nx.elixir_call @test.fail_at(%i) static_args {at = 3 : i64} : (tensor<i64>) -> tensor<i64>
    %more = arith.cmpi slt, %j, %limit : tensor<i64>
    %b = tensor.extract %more[] : tensor<i1>
    scf.condition(%b) %j : tensor<i64>
  } do {
  ^bb0(%i: tensor<i64>):
    %p = nx.io_callback @nx.debug.print(%i) : tensor<i64>
    %one = arith.constant dense<1> : tensor<i64>
    %n = arith.addi %p, %one : tensor<i64>
    scf.yield %n : tensor<i64>
  }
  return %r : tensor<i64>
}

// The body fails in its third iteration: the print after the failing call
// runs twice, the loop does not go on to 10.
// BODY:      failing-loops.mlir:[[@LINE+13]]:10: tensor<i64> = 0
// BODY-NEXT: failing-loops.mlir:[[@LINE+12]]:10: tensor<i64> = 1
// BODY-NEXT: nx-runner: error: callback @test.fail_at at {{.*}}failing-loops.mlir:[[@LINE+10]]:10 failed: value 2 reached
// BODY-NOT:  tensor<i64>
func.func @loop_body(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %x) -> tensor<2xf32> {
    %y = nx.elixir_call @nx.debug.identity(%acc) : (tensor<2xf32>) -> tensor<2xf32>
    %ii = arith.index_cast %i : index to i64
    %t = tensor.from_elements %ii : tensor<i64>
    %k = nx.elixir_call @test.fail_at(%t) static_args {at = 2 : i64} : (tensor<i64>) -> tensor<i64>
    %p = nx.io_callback @nx.debug.print(%k) : tensor<i64>
    %z = arith.addf %y, %y : tensor<2xf32>
    scf.yield %z : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// The loop's trip count is the failed call's (unwritten) result.
// TRIP:     nx-runner: error: callback @nx.debug.fail at {{.*}}failing-loops.mlir:[[@LINE+4]]:8 failed: no count
// TRIP-NOT: tensor<i64>
func.func @trip_count(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %n = nx.elixir_call @nx.debug.fail(%x) static_args {message = "no count"} : (tensor<2xf32>) -> tensor<i64>
  %n64 = tensor.extract %n[] : tensor<i64>
  %count = arith.index_cast %n64 : i64 to index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %x) -> tensor<2xf32> {
    %ii = arith.index_cast %i : index to i64
    %t = tensor.from_elements %ii : tensor<i64>
    %p = nx.io_callback @nx.debug.print(%t) : tensor<i64>
    %z = arith.addf %acc, %acc : tensor<2xf32>
    scf.yield %z : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// NESTED:      tensor<i64> = 0
// NESTED-NEXT: tensor<i64> = 1
// NESTED-NEXT: nx-runner: error: callback @test.fail_at at {{.*}}failing-loops.mlir:{{[0-9]+}}:10 failed: value 2 reached
// NESTED-NOT: tensor<i64>
func.func @nested_call(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %x) -> tensor<2xf32> {
    %z = func.call @loop_body(%acc) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %z : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// DEADLINE: nx-runner: error: callback @nx.debug.identity at {{.*}}failing-loops.mlir:[[@LINE+4]]:10 timed out after 200 ms (run deadline)
func.func @forever(%x: tensor<2xf32>) -> tensor<2xf32> {
  %true = arith.constant true
  %r = scf.while (%acc = %x) : (tensor<2xf32>) -> tensor<2xf32> {
    %y = nx.elixir_call @nx.debug.identity(%acc) : (tensor<2xf32>) -> tensor<2xf32>
    scf.condition(%true) %y : tensor<2xf32>
  } do {
  ^bb0(%acc: tensor<2xf32>):
    scf.yield %acc : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
