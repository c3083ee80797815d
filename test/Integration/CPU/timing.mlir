// nx-runner --timing reports on stderr how long each phase took - parse,
// nx-lower-to-cpu with its passes, translation, JIT code generation,
// loading the call sites, the runs - and each run, with the share of it the
// compiled entry itself took (the rest is the runner's copies of inputs and
// results) and the page faults the process took during the entry; stdout
// is unchanged.
// RUN: nx-runner %s --timing --repeat=2 --input='[1, 2]:tensor<2xf32>' 2>%t.err \
// RUN:   | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=TIMING < %t.err
// RUN: nx-runner %s --timing --threads=2 --input='[1, 2]:tensor<2xf32>' 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=THREADS

// OUT: result #0: tensor<2xf32> = [2, 4]
// OUT-NEXT: all 2 runs (1 threads x 2) produced identical results
// OUT-NOT: {{.}}

// TIMING: run 1: {{[0-9.]+}} ms (entry {{[0-9.]+}} ms, {{[0-9]+}} page faults)
// TIMING-NEXT: run 2: {{[0-9.]+}} ms (entry {{[0-9.]+}} ms, {{[0-9]+}} page faults)
// TIMING: Execution time report
// TIMING-DAG: parse
// TIMING-DAG: nx-lower-to-cpu
// TIMING-DAG: ConvertNxToLLVM
// TIMING-DAG: translate to LLVM IR
// TIMING-DAG: JIT code generation
// TIMING-DAG: load (__nx_init)
// TIMING-DAG: runs
// TIMING: Total

// THREADS-DAG: run 1 (thread 1): {{[0-9.]+}} ms
// THREADS-DAG: run 2 (thread 2): {{[0-9.]+}} ms

nx.callback @nx.debug.identity : (tensor<2xf32>) -> ()
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = arith.addf %x, %x : tensor<2xf32>
  %z = nx.io_callback @nx.debug.identity(%y) : tensor<2xf32>
  return %z : tensor<2xf32>
}
