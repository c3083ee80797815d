// Failed runs report the runtime's first failure - naming the callback and
// the op's file:line:col - on stderr and exit with 1.
//
// RUN: not nx-runner %s --entry=callback_error --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, -2, 3]:tensor<3xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=CBERR
// RUN: not nx-runner %s --entry=callback_error --callbacks=%nx_test_callbacks --dispatch=bridge \
// RUN:   --input='[1, -2, 3]:tensor<3xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=CBERR
// RUN: not nx-runner %s --entry=static_arg_error --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, 2, 3]:tensor<3xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=ATTRERR
// RUN: not nx-runner %s --entry=run_deadline --timeout-ms=50 \
// RUN:   --input='[1, 2, 3]:tensor<3xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=DEADLINE
// RUN: not nx-runner %s --entry=run_deadline --dispatch=bridge --callback-timeout-ms=40 \
// RUN:   --input='[1, 2, 3]:tensor<3xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=CBTIMEOUT
// RUN: not nx-runner %s --entry=unknown_callback --input='[1, 2, 3]:tensor<3xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=UNKNOWN
// RUN: not nx-runner %s --entry=unknown_callback --dispatch=bridge --input='[1, 2, 3]:tensor<3xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=UNKNOWN
// RUN: not nx-runner %s --entry=bridge_mismatch --callbacks=%nx_test_bridge_host \
// RUN:   --input='[1, 2, 3]:tensor<3xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=MISMATCH
// RUN: not nx-runner %s --entry=bridge_mismatch --callbacks=%nx_test_bridge_host --dispatch=bridge \
// RUN:   --input='[1, 2, 3]:tensor<3xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=MISMATCH
// RUN: nx-runner %s --entry=missing_stream --input='[1, 2, 3]:tensor<3xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=NOSTREAM
// RUN: not nx-runner %s --entry=missing_infeed_stream 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=NOINFEED
// RUN: not nx-runner %s --entry=failing_builtin --input='[1, 2, 3]:tensor<3xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=FAIL
// The same failure from 8 threads at once: every run fails the same way and
// the process still exits cleanly with the message.
// RUN: not nx-runner %s --entry=failing_builtin --threads=8 --repeat=4 \
// RUN:   --input='[1, 2, 3]:tensor<3xf32>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=FAIL

nx.callback @test.check_positive : (tensor<3xf32>) -> ()
nx.callback @test.scale : (tensor<3xf32>) -> tensor<3xf32>
nx.callback @nx.debug.sleep : (tensor<3xf32>) -> tensor<3xf32>
nx.callback @nx.debug.print : (tensor<3xf32>) -> ()
nx.callback @nx.debug.fail : (tensor<3xf32>) -> ()
nx.callback @not_registered : (tensor<3xf32>) -> tensor<3xf32>
nx.callback @test.bridge_wrong_shape : (tensor<3xf32>) -> tensor<3xf32>

// CBERR: nx-runner: error: callback @test.check_positive at {{.*}}failures.mlir:[[@LINE+4]]:8 failed: value -2 at index 1 of argument 0 is not positive
// CBERR-NOT: result
func.func @callback_error(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = arith.addf %x, %x : tensor<3xf32>
  %c = nx.io_callback @test.check_positive(%x) : tensor<3xf32>
  %z = arith.addf %c, %y : tensor<3xf32>
  return %z : tensor<3xf32>
}

// A required static argument is missing.
// ATTRERR: nx-runner: error: callback @test.scale at {{.*}}failures.mlir:[[@LINE+2]]:8 failed: missing attribute 'factor'
func.func @static_arg_error(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = nx.elixir_call @test.scale(%x) static_args {offset = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// Inline callbacks cannot be interrupted; the run deadline is checked before
// the next call. In bridge mode the per-call reply timeout fires instead.
// DEADLINE: nx-runner: error: callback @nx.debug.print at {{.*}}failures.mlir:[[@LINE+5]]:8 timed out after 50 ms (run deadline)
// CBTIMEOUT: nx-runner: error: callback @nx.debug.sleep at {{.*}}failures.mlir:[[@LINE+3]]:8 timed out after 40 ms
// CBTIMEOUT-NOT: run deadline
func.func @run_deadline(%x: tensor<3xf32>) -> tensor<3xf32> {
  %s = nx.elixir_call @nx.debug.sleep(%x) static_args {ms = 300 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  %p = nx.io_callback @nx.debug.print(%s) : tensor<3xf32>
  return %p : tensor<3xf32>
}

// UNKNOWN: nx-runner: error: unknown callback @not_registered at {{.*}}failures.mlir:[[@LINE+2]]:8
func.func @unknown_callback(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = nx.elixir_call @not_registered(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// The test bridge host answers this bridge callback with a tensor<4xf32>.
// MISMATCH: nx-runner: error: callback @test.bridge_wrong_shape at {{.*}}failures.mlir:[[@LINE+2]]:8 failed: expected the elixir_call function to match the given output template (tensor<3xf32>), got (tensor<4xf32>)
func.func @bridge_mismatch(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = nx.elixir_call @test.bridge_wrong_shape(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// No --outfeed/--stream opens "nowhere": the runner opens it for the
// program's outfeed and prints it, as --outfeed=nowhere would, with a note.
// NOSTREAM-DAG: result #0: tensor<3xf32> = [2, 4, 6]
// NOSTREAM-DAG: nx-runner: note: printing stream 'nowhere', which the program writes and no --outfeed names
// NOSTREAM-DAG: outfeed "nowhere" #0: tensor<3xf32> = [1, 2, 3]
func.func @missing_stream(%x: tensor<3xf32>) -> tensor<3xf32> {
  nx.outfeed %x to "nowhere" : tensor<3xf32>
  %y = arith.addf %x, %x : tensor<3xf32>
  return %y : tensor<3xf32>
}

// NOINFEED: nx-runner: error: infeed at {{.*}}failures.mlir:[[@LINE+2]]:8 failed: no stream named 'nothing'
func.func @missing_infeed_stream() -> tensor<3xf32> {
  %x = nx.infeed from "nothing" : tensor<3xf32>
  return %x : tensor<3xf32>
}

// FAIL: nx-runner: error: callback @nx.debug.fail at {{.*}}failures.mlir:[[@LINE+3]]:3 failed: custom failure message
// FAIL-NOT: result
func.func @failing_builtin(%x: tensor<3xf32>) -> tensor<3xf32> {
  nx.elixir_call @nx.debug.fail(%x) static_args {message = "custom failure message"} : (tensor<3xf32>) -> ()
  %y = arith.addf %x, %x : tensor<3xf32>
  return %y : tensor<3xf32>
}
