// nxrt-run, like nx-runner (test/Integration/CPU/unfed-streams.mlir), never
// waits for something nothing can send: an infeed past the --infeed values
// of a stream the runner opened fails at once, naming the stream and the op,
// and so does a callback bound for bridge dispatch that no bridge hook or
// dispatcher answers.
// RUN: nx-compile %s -o %t.so
// RUN: not nxrt-run %t.so --entry=read_one --stream=batches 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=UNFED
// RUN: not nxrt-run %t.so --entry=read_one --repeat=2 \
// RUN:   --infeed='batches=[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=RUNS
// RUN: not nxrt-run %t.so --entry=read_one --keep-going --threads=3 \
// RUN:   --infeed='batches=[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=KEEP
// RUN: not nxrt-run %t.so --entry=unanswered --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=BRIDGE
// RUN: not nxrt-run %t.so --entry=unanswered --callbacks=%nx_test_callbacks \
// RUN:   --dispatch=bridge --input='[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=BRIDGE

nx.callback @test.unanswered : (tensor<2xf32>) -> tensor<2xf32>

// UNFED: nxrt-run: error: infeed at {{.*}}unfed-streams.mlir:[[@LINE+10]]:8 failed: no more infeed values on stream 'batches': the host ended its infeed after 0 value(s)
// UNFED-NEXT: nxrt-run: note: only --infeed feeds stream 'batches' (0 value(s) given): pass --infeed=batches=VALUE once for each value the program reads
// RUNS: nxrt-run: error: infeed at {{.*}}unfed-streams.mlir:[[@LINE+8]]:8 failed: no more infeed values on stream 'batches': the host ended its infeed after 1 value(s)
// RUNS-NEXT: nxrt-run: note: only --infeed feeds stream 'batches' (1 value(s) given): pass --infeed=batches=VALUE once for each value the program reads, in each of the 2 runs
// RUNS-NOT: result
// One of the three threads gets the value; which one varies.
// KEEP-COUNT-2: (thread {{[1-3]}}): error: infeed at {{.*}}unfed-streams.mlir:[[@LINE+4]]:8 failed: no more infeed values on stream 'batches': the host ended its infeed after 1 value(s)
// KEEP: 1 of 3 runs succeeded
// KEEP-NEXT: nxrt-run: note: only --infeed feeds stream 'batches' (1 value(s) given): pass --infeed=batches=VALUE once for each value the program reads, in each of the 3 runs
func.func @read_one() -> tensor<2xf32> {
  %x = nx.infeed from "batches" : tensor<2xf32>
  return %x : tensor<2xf32>
}

// BRIDGE: nxrt-run: error: callback @test.unanswered at {{.*}}unfed-streams.mlir:[[@LINE+3]]:8 failed: bound for bridge dispatch, but no bridge hook is installed and nxrt-run has no handler for it
// BRIDGE-NOT: result
func.func @unanswered(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.elixir_call @test.unanswered(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
