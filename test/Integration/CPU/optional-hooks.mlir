// An optional hook with no handler bound does nothing, as EXLA's optional
// hooks do; once a handler is bound it runs (here nx.debug.print, which
// prints its label). A required hook without a handler fails the run.
//
// RUN: nx-runner %s --entry=unbound --input='[1, 2]:tensor<2xf32>' | FileCheck %s --check-prefix=UNBOUND
// RUN: nx-runner %s --entry=unbound --dispatch=bridge --input='[1, 2]:tensor<2xf32>' | FileCheck %s --check-prefix=UNBOUND
// RUN: nx-runner %s --entry=bound --input='[1, 2]:tensor<2xf32>' | FileCheck %s --check-prefix=BOUND
// RUN: not nx-runner %s --entry=required --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=REQUIRED

nx.callback @no.such.hook : (tensor<2xf32>) -> ()
nx.callback @nx.debug.print : (tensor<2xf32>) -> ()

// UNBOUND-NOT: error
// UNBOUND: result #0: tensor<2xf32> = [2, 4]
func.func @unbound(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = arith.addf %x, %x : tensor<2xf32>
  %z = nx.io_callback optional @no.such.hook(%y) : tensor<2xf32>
  return %z : tensor<2xf32>
}

// BOUND: traced: tensor<2xf32> = [2, 4]
// BOUND-NEXT: result #0: tensor<2xf32> = [2, 4]
func.func @bound(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = arith.addf %x, %x : tensor<2xf32>
  %z = nx.io_callback optional @nx.debug.print(%y) static_args {label = "traced"} : tensor<2xf32>
  return %z : tensor<2xf32>
}

// REQUIRED: nx-runner: error: unknown callback @no.such.hook at {{.*}}optional-hooks.mlir:[[@LINE+3]]:8
func.func @required(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = arith.addf %x, %x : tensor<2xf32>
  %z = nx.io_callback @no.such.hook(%y) : tensor<2xf32>
  return %z : tensor<2xf32>
}
