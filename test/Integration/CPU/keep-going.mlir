// --keep-going runs every run even after one fails and reports each run's
// outcome; results may differ from run to run. A host callback with state
// across runs (every second call fails) shows that a failed run leaves the
// process working: the run after it succeeds. The exit code is 1 when any
// run failed.
//
// RUN: not nx-runner %s --callbacks=%nx_test_callbacks --keep-going --repeat=4 \
// RUN:   --input='[1, 2]:tensor<2xf32>' | FileCheck %s --check-prefix=INLINE
// RUN: not nx-runner %s --callbacks=%nx_test_callbacks --keep-going --repeat=4 \
// RUN:   --dispatch=bridge --input='[1, 2]:tensor<2xf32>' | FileCheck %s --check-prefix=INLINE
// RUN: nx-runner %s --callbacks=%nx_test_callbacks --keep-going \
// RUN:   --input='[1, 2]:tensor<2xf32>' | FileCheck %s --check-prefix=ONE
// RUN: not nx-runner %s --callbacks=%nx_test_callbacks --keep-going --output=%t.npy \
// RUN:   --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=OUTPUT

// INLINE:      run 1: ok
// INLINE-NEXT:   result #0: tensor<2xf32> = [2, 4]
// INLINE-NEXT:   result #1: tensor<i64> = 0
// INLINE-NEXT: run 2: error: callback @test.every_other at {{.*}}keep-going.mlir:[[@LINE+14]]:12 failed: call 1 fails
// INLINE-NEXT: run 3: ok
// INLINE-NEXT:   result #0: tensor<2xf32> = [2, 4]
// INLINE-NEXT:   result #1: tensor<i64> = 2
// INLINE-NEXT: run 4: error: callback @test.every_other at {{.*}}keep-going.mlir:{{[0-9]+}}:12 failed: call 3 fails
// INLINE-NEXT: 2 of 4 runs succeeded
// ONE:      run 1: ok
// ONE:      1 of 1 runs succeeded
// OUTPUT: nx-runner: error: --output cannot be combined with --keep-going, whose runs may produce different results

nx.callback @test.every_other : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>)

func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>) {
  %d = arith.addf %x, %x : tensor<2xf32>
  %y, %n = nx.elixir_call @test.every_other(%d) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>)
  return %y, %n : tensor<2xf32>, tensor<i64>
}
