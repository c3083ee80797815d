// The README's sample callback library (examples/callbacks/callbacks.c) on a
// block-free variant of examples/callbacks.mlir.
// RUN: nx-runner %s --callbacks=%nx_example_callbacks --outfeed=results \
// RUN:   --input='[1, 2, 2, 4]:tensor<4xf32>' \
// RUN:   | FileCheck %s --enable-var-scope
// RUN: not nx-runner %s --entry=bad_norm --callbacks=%nx_example_callbacks \
// RUN:   --input='[1, 2, 2, 4]:tensor<4xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=BAD

nx.callback @normalize : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @log_vector : (tensor<4xf32>) -> ()

// 2x = [2, 4, 4, 8] has l2 norm 10.
// CHECK: [vector at {{.*}}example-callbacks.mlir:[[@LINE+7]]:{{[0-9]+}}] 0.2 0.4 0.4 0.8
// CHECK-NEXT: result #0: tensor<4xf32> = [0.2, 0.4, 0.4, 0.8]
// CHECK-NEXT: outfeed "results" #0: tensor<4xf32> = [0.2, 0.4, 0.4, 0.8]
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %doubled = arith.mulf %x, %two : tensor<4xf32>
  %normal = nx.elixir_call @normalize(%doubled) static_args {norm = "l2"} : (tensor<4xf32>) -> tensor<4xf32>
  %logged = nx.io_callback @log_vector(%normal) : tensor<4xf32>
  nx.outfeed %logged to "results" : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %r = arith.addf %logged, %zero : tensor<4xf32>
  return %r : tensor<4xf32>
}

// BAD: nx-runner: error: callback @normalize at {{.*}}example-callbacks.mlir:[[@LINE+2]]:8 failed: unknown norm 'l3' (use l2 or max)
func.func @bad_norm(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n = nx.elixir_call @normalize(%x) static_args {norm = "l3"} : (tensor<4xf32>) -> tensor<4xf32>
  return %n : tensor<4xf32>
}

// The README's example itself, exactly as `./dev.sh example` runs it.
// RUN: nx-runner %nx_src_root/examples/callbacks.mlir --callbacks=%nx_example_callbacks \
// RUN:   --input='[1, 2, 2, 4]:tensor<4xf32>' --outfeed=results \
// RUN:   | FileCheck %s --check-prefix=README
// README: [vector at {{.*}}examples/callbacks.mlir:20:13] 0.2 0.4 0.4 0.8
// README-NEXT: [vector at {{.*}}examples/callbacks.mlir:29:12] 0.798139 0.913015 0.913015 1.1711
// softplus(0.2) = 0.79813887: libm's expf/log1pf round it to 0.7981388,
// the polynomial approximations nx-lower-to-cpu uses to 0.7981389 (1 ulp).
// README-NEXT: result #0: tensor<4xf32> = [0.798138{{[89]}}, 0.91301525, 0.91301525, 1.1711006]
// README-NEXT: outfeed "results" #0: tensor<4xf32> = [0.798138{{[89]}}, 0.91301525, 0.91301525, 1.1711006]
