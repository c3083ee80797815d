// A runner never waits for something nothing can send. Only the runner
// holds the streams it opens (--stream, --outfeed, --infeed), so once it has
// pushed their --infeed values it ends their infeed: an infeed that finds
// no value left fails at once, naming the stream and the op, and a note
// says how to feed it. No --timeout-ms is needed for any of these.
//
// A stream opened by --stream or --outfeed and never fed.
// RUN: not nx-runner %s --entry=read_one --stream=batches 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=UNFED
// RUN: not nx-runner %s --entry=read_one --outfeed=batches 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=UNFED
// A run that reads more values than --infeed gave.
// RUN: not nx-runner %s --entry=read_two --infeed='batches=[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=SHORT
// The values the first run consumed are gone for the next runs: every run of
// --repeat and --threads reads its own.
// RUN: not nx-runner %s --entry=read_one --repeat=2 \
// RUN:   --infeed='batches=[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=RUNS
// RUN: not nx-runner %s --entry=read_one --threads=2 \
// RUN:   --infeed='batches=[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=RUNS
// RUN: not nx-runner %s --entry=read_one --keep-going --repeat=3 \
// RUN:   --infeed='batches=[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=KEEP
//
// A callback a library bound for bridge dispatch, with no handler and no
// bridge hook: inline, nothing but the runner pulls bridge requests, so it
// answers them with an error instead of leaving the run waiting; in bridge
// mode its dispatcher threads do the same.
// RUN: not nx-runner %s --entry=unanswered --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=BRIDGE
// RUN: not nx-runner %s --entry=unanswered --callbacks=%nx_test_callbacks \
// RUN:   --dispatch=bridge --input='[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=BRIDGE
//
// A stream a callback library opened is the library's to feed (here only
// its test.loopback callback does, and the program never calls it): the
// runner cannot know whether more will come, so only a deadline ends the
// wait.
// RUN: not nx-runner %s --entry=library_stream --callbacks=%nx_test_callbacks \
// RUN:   --timeout-ms=100 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=LIBRARY

nx.callback @test.unanswered : (tensor<2xf32>) -> tensor<2xf32>

// UNFED: nx-runner: error: infeed at {{.*}}unfed-streams.mlir:[[@LINE+6]]:8 failed: no more infeed values on stream 'batches': the host ended its infeed after 0 value(s)
// UNFED-NEXT: nx-runner: note: only --infeed feeds stream 'batches' (0 value(s) given): pass --infeed=batches=VALUE once for each value the program reads
// RUNS: nx-runner: error: infeed at {{.*}}unfed-streams.mlir:[[@LINE+4]]:8 failed: no more infeed values on stream 'batches': the host ended its infeed after 1 value(s)
// RUNS-NEXT: nx-runner: note: only --infeed feeds stream 'batches' (1 value(s) given): pass --infeed=batches=VALUE once for each value the program reads, in each of the 2 runs
// RUNS-NOT: result
func.func @read_one() -> tensor<2xf32> {
  %x = nx.infeed from "batches" : tensor<2xf32>
  return %x : tensor<2xf32>
}

// KEEP:      run 1: ok
// KEEP-NEXT:   result #0: tensor<2xf32> = [1, 2]
// KEEP-NEXT: run 2: error: infeed at {{.*}}unfed-streams.mlir:[[@LINE-6]]:8 failed: no more infeed values on stream 'batches': the host ended its infeed after 1 value(s)
// KEEP-NEXT: run 3: error: infeed at {{.*}}unfed-streams.mlir:[[@LINE-7]]:8 failed: no more infeed values on stream 'batches': the host ended its infeed after 1 value(s)
// KEEP-NEXT: 1 of 3 runs succeeded
// KEEP-NEXT: nx-runner: note: only --infeed feeds stream 'batches' (1 value(s) given): pass --infeed=batches=VALUE once for each value the program reads, in each of the 3 runs

// SHORT: nx-runner: error: infeed at {{.*}}unfed-streams.mlir:[[@LINE+5]]:8 failed: no more infeed values on stream 'batches': the host ended its infeed after 1 value(s)
// SHORT-NEXT: nx-runner: note: only --infeed feeds stream 'batches' (1 value(s) given): pass --infeed=batches=VALUE once for each value the program reads
// SHORT-NOT: result
func.func @read_two() -> tensor<2xf32> {
  %a = nx.infeed from "batches" : tensor<2xf32>
  %b = nx.infeed from "batches" : tensor<2xf32>
  %s = arith.addf %a, %b : tensor<2xf32>
  return %s : tensor<2xf32>
}

// BRIDGE: nx-runner: error: callback @test.unanswered at {{.*}}unfed-streams.mlir:[[@LINE+3]]:8 failed: bound for bridge dispatch, but no bridge hook is installed and nx-runner has no handler for it
// BRIDGE-NOT: result
func.func @unanswered(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.elixir_call @test.unanswered(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// LIBRARY: nx-runner: error: infeed at {{.*}}unfed-streams.mlir:[[@LINE+3]]:8 timed out after 100 ms (run deadline) waiting for stream 'test.loopback'
// LIBRARY-NOT: note
func.func @library_stream() -> tensor<2xf32> {
  %x = nx.infeed from "test.loopback" : tensor<2xf32>
  return %x : tensor<2xf32>
}
