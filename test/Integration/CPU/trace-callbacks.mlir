// --trace-callbacks (and NXRT_TRACE=1 in any host) logs each host call as it
// returns: the op, its callback and location, how it was dispatched and how
// long it took. --timing adds each callback's calls, total and longest time.
// Both go to stderr; stdout is unchanged.
// RUN: nx-runner %s --trace-callbacks --input='[1, 2]:tensor<2xf32>' \
// RUN:   --outfeed=log 2>%t.trace | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=TRACE --match-full-lines < %t.trace
// RUN: env NXRT_TRACE=1 nx-runner %s --input='[1, 2]:tensor<2xf32>' \
// RUN:   --outfeed=log 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE --match-full-lines
// RUN: nx-runner %s --trace-callbacks --dispatch=bridge --input='[1, 2]:tensor<2xf32>' \
// RUN:   --outfeed=log 2>&1 >/dev/null | FileCheck %s --check-prefix=BRIDGE
// RUN: nx-runner %s --timing --repeat=3 --input='[1, 2]:tensor<2xf32>' \
// RUN:   --outfeed=log 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// RUN: not nx-runner %s --entry=fails --trace-callbacks --timing \
// RUN:   --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=FAILS
// Without the flag nothing is traced.
// RUN: nx-runner %s --input='[1, 2]:tensor<2xf32>' --outfeed=log 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OUT --implicit-check-not=nxrt:

// OUT: result #0: tensor<2xf32> = [2, 4]

// TRACE:      nxrt: trace: elixir_call @nx.debug.identity at {{.*}}trace-callbacks.mlir:45:8: inline, {{[0-9.]+}} {{ns|us|ms}}
// TRACE-NEXT: nxrt: trace: io_callback @nx.debug.print at {{.*}}trace-callbacks.mlir:47:8: inline, {{[0-9.]+}} {{ns|us|ms}}
// TRACE-NEXT: nxrt: trace: outfeed at {{.*}}trace-callbacks.mlir:48:3: stream, {{[0-9.]+}} {{ns|us|ms}}
// TRACE-NOT: nxrt:

// BRIDGE: nxrt: trace: elixir_call @nx.debug.identity at {{.*}}: bridge,
// BRIDGE: nxrt: trace: io_callback @nx.debug.print at {{.*}}: bridge,

// TIMING:      host calls:
// TIMING-NEXT:    calls   total (ms)     max (ms)  callback
// TIMING-NEXT:        3 {{[0-9.]+}} {{[0-9.]+}}  elixir_call @nx.debug.identity
// TIMING-NEXT:        3 {{[0-9.]+}} {{[0-9.]+}}  io_callback @nx.debug.print
// TIMING-NEXT:        3 {{[0-9.]+}} {{[0-9.]+}}  outfeed at {{.*}}trace-callbacks.mlir:48:3

// FAILS: nxrt: trace: elixir_call @nx.debug.fail at {{.*}}trace-callbacks.mlir:54:8: inline, {{.*}}, failed: ABORTED
// FAILS: 1 {{[0-9.]+}} {{[0-9.]+}}  elixir_call @nx.debug.fail (1 failed)
// FAILS: nx-runner: error: callback @nx.debug.fail at {{.*}} failed: nx.debug.fail called

nx.callback @nx.debug.identity : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @nx.debug.print : (tensor<2xf32>) -> ()
nx.callback @nx.debug.fail : (tensor<2xf32>) -> tensor<2xf32>

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.elixir_call @nx.debug.identity(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %z = arith.addf %y, %y : tensor<2xf32>
  %w = nx.io_callback @nx.debug.print(%z) : tensor<2xf32>
  nx.outfeed %w to "log" : tensor<2xf32>
  return %w : tensor<2xf32>
}

// A failing callback is traced with its failure's code.
func.func @fails(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.elixir_call @nx.debug.fail(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
