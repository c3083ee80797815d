// In bridge mode one runtime serves the program and its callback libraries:
// what a library sets up on the runtime it is loaded into - a stream it
// feeds, a bridge hook of its own - serves the program as it does inline.
//
// The test library pushes an io_callback's operand to its own stream, and
// the program reads it back with an infeed; nx-runner's dispatcher threads
// serve the call in bridge mode.
// RUN: nx-runner %s --entry=loopback --callbacks=%nx_test_callbacks \
// RUN:   --input='[1, 2]:tensor<2xf32>' | FileCheck %s --check-prefix=LOOP
// RUN: nx-runner %s --entry=loopback --callbacks=%nx_test_callbacks --dispatch=bridge \
// RUN:   --input='[1, 2]:tensor<2xf32>' | FileCheck %s --check-prefixes=LOOP,LOOP-BRIDGE
//
// The bridge host library installs a hook, which counts the requests it
// receives: only calls of callbacks bound BRIDGE reach it. In bridge mode
// the inline handlers of both libraries are routed to nx-runner's
// dispatcher threads instead, so in either mode the hook sees none here.
// RUN: nx-runner %s --entry=hosted --callbacks=%nx_test_callbacks --callbacks=%nx_test_bridge_host \
// RUN:   --input='[1, 2]:tensor<2xf32>' | FileCheck %s --check-prefix=INLINE
// RUN: nx-runner %s --entry=hosted --callbacks=%nx_test_callbacks --callbacks=%nx_test_bridge_host \
// RUN:   --dispatch=bridge --input='[1, 2]:tensor<2xf32>' | FileCheck %s --check-prefix=HOSTED
//
// A library's stream and another library's hook together, from four
// threads: nx-runner's dispatcher threads serve every routed call.
// RUN: nx-runner %s --entry=loopback --callbacks=%nx_test_callbacks --callbacks=%nx_test_bridge_host \
// RUN:   --dispatch=bridge --threads=4 --repeat=5 --input='[1, 2]:tensor<2xf32>' \
// RUN:   | FileCheck %s --check-prefixes=LOOP,LOOP-HOOK

nx.callback @test.loopback : (tensor<2xf32>) -> ()
nx.callback @test.scale : (tensor<2xf32>) -> tensor<2xf32>
nx.callback @test.host.requests : () -> tensor<i64>

// LOOP: result #0: tensor<2xf32> = [1, 2]
// LOOP-BRIDGE-NEXT: bridge: served 1 callback request(s)
// LOOP-HOOK-NEXT: all 20 runs (4 threads x 5) produced identical results
// LOOP-HOOK-NEXT: bridge: served 20 callback request(s)
func.func @loopback(%x: tensor<2xf32>) -> tensor<2xf32> {
  %sent = nx.io_callback @test.loopback(%x) : tensor<2xf32>
  %back = nx.infeed from "test.loopback" : tensor<2xf32>
  return %back : tensor<2xf32>
}

// INLINE: result #0: tensor<2xf32> = [2, 4]
// INLINE-NEXT: result #1: tensor<i64> = 0
// HOSTED: result #0: tensor<2xf32> = [2, 4]
// HOSTED-NEXT: result #1: tensor<i64> = 0
// HOSTED-NEXT: bridge: served 2 callback request(s)
func.func @hosted(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>) {
  %y = nx.elixir_call @test.scale(%x) static_args {factor = 2.0 : f64} : (tensor<2xf32>) -> tensor<2xf32>
  %n = nx.elixir_call @test.host.requests() : () -> tensor<i64>
  return %y, %n : tensor<2xf32>, tensor<i64>
}
