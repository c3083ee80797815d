// RUN: nx-opt %s -split-input-file -nx-segment-callbacks=device=cuda | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -nx-segment-callbacks="device=cuda include-io=false" | FileCheck %s --enable-var-scope --check-prefix=NOIO
// RUN: not nx-opt -nx-segment-callbacks=device=gpu < /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN --implicit-check-not=error

// UNKNOWN: error: nx-segment-callbacks: option 'device' must be one of host, cuda, rocm, tpu, got 'gpu'

// On a device, every copy between the host orchestrator and the stages is an
// explicit transfer: arguments in, stage results out to callbacks and to the
// return, callback results back in.

nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>) -> tensor<4xf32> attributes {nx.host_orchestrator} {
// CHECK-NEXT:    %[[XD:.+]] = nx.to_device %[[X]] to "cuda" : tensor<4xf32>
// CHECK-NEXT:    %[[A:.+]] = call @chain_stage0(%[[XD]])
// CHECK-NEXT:    %[[AH:.+]] = nx.to_host %[[A]] from "cuda" : tensor<4xf32>
// CHECK-NEXT:    %[[B:.+]] = nx.elixir_call @cb(%[[AH]])
// CHECK-NEXT:    %[[BD:.+]] = nx.to_device %[[B]] to "cuda"
// CHECK-NEXT:    %[[C:.+]] = call @chain_stage1(%[[BD]], %[[A]])
// CHECK-NEXT:    %[[CH:.+]] = nx.to_host %[[C]] from "cuda"
// CHECK-NEXT:    return %[[CH]]
// CHECK-LABEL: func.func private @chain_stage0(
// CHECK-SAME:      attributes {nx.device = "cuda"}
// CHECK-LABEL: func.func private @chain_stage1(
// CHECK-SAME:      attributes {nx.device = "cuda"}
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.addf %x, %x : tensor<4xf32>
  %b = nx.elixir_call @cb(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = arith.mulf %b, %a : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// Each value is copied once per direction, however many users it has. The
// last callback only needs boundary-0 values, so it shares that boundary.

nx.callback @two : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @once(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT:    %[[XD:.+]] = nx.to_device %[[X]] to "cuda"
// CHECK-NEXT:    %[[A:.+]] = call @once_stage0(%[[XD]])
// CHECK-NEXT:    %[[AH:.+]] = nx.to_host %[[A]] from "cuda"
// CHECK-NEXT:    %[[B:.+]] = nx.elixir_call @two(%[[AH]], %[[AH]])
// CHECK-NEXT:    %[[C:.+]] = nx.elixir_call @two(%[[AH]], %[[X]])
// CHECK-NEXT:    %[[E:.+]] = nx.elixir_call @two(%[[AH]], %[[B]])
// CHECK-NEXT:    %[[BD:.+]] = nx.to_device %[[B]] to "cuda"
// CHECK-NEXT:    %[[CD:.+]] = nx.to_device %[[C]] to "cuda"
// CHECK-NEXT:    %[[D:.+]] = call @once_stage1(%[[BD]], %[[XD]], %[[CD]])
// CHECK-NEXT:    %[[DH:.+]] = nx.to_host %[[D]] from "cuda"
// CHECK-NEXT:    return %[[DH]], %[[E]]
func.func @once(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = arith.negf %x : tensor<4xf32>
  %b = nx.elixir_call @two(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c = nx.elixir_call @two(%a, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = arith.addf %b, %x : tensor<4xf32>
  %d = arith.addf %s, %c : tensor<4xf32>
  %e = nx.elixir_call @two(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %d, %e : tensor<4xf32>, tensor<4xf32>
}

// -----

// Copies of values defined outside a host loop are hoisted out of it; loop
// carried values live on the host, so yields copy back.

nx.callback @step : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @loop(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>)
// CHECK:         %[[YD:.+]] = nx.to_device %[[Y]] to "cuda"
// CHECK-NEXT:    %[[W:.+]] = call @loop_stage0(%[[YD]])
// CHECK-NEXT:    %[[WH:.+]] = nx.to_host %[[W]] from "cuda"
// CHECK-NEXT:    %[[L:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[X]])
// CHECK-NEXT:      %[[D:.+]] = nx.elixir_call @step(%[[WH]])
// CHECK-NEXT:      %[[ACCD:.+]] = nx.to_device %[[ACC]] to "cuda"
// CHECK-NEXT:      %[[DD:.+]] = nx.to_device %[[D]] to "cuda"
// CHECK-NEXT:      %[[N:.+]] = func.call @loop_stage1(%[[ACCD]], %[[W]], %[[DD]])
// CHECK-NEXT:      %[[NH:.+]] = nx.to_host %[[N]] from "cuda"
// CHECK-NEXT:      scf.yield %[[NH]]
// CHECK:         return %[[L]]
// CHECK-LABEL: func.func private @loop_stage0(
// CHECK-NEXT:    arith.mulf
// CHECK-LABEL: func.func private @loop_stage1(
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    arith.addf
func.func @loop(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %w = arith.mulf %y, %y : tensor<4xf32>
  %l = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %d = nx.elixir_call @step(%w) : (tensor<4xf32>) -> tensor<4xf32>
    %a = arith.addf %acc, %w : tensor<4xf32>
    %n = arith.addf %a, %d : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %l : tensor<4xf32>
}

// -----

// A function's own nx.device overrides the option; the orchestrator itself
// runs on the host and drops it.

nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @override(
// CHECK-SAME:      attributes {nx.host_orchestrator} {
// CHECK-NEXT:    nx.to_device %{{.+}} to "tpu"
// CHECK-LABEL: func.func private @override_stage0(
// CHECK-SAME:      attributes {nx.device = "tpu"}
func.func @override(%x: tensor<4xf32>) -> tensor<4xf32> attributes {nx.device = "tpu"} {
  %a = arith.negf %x : tensor<4xf32>
  %b = nx.elixir_call @cb(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// With include-io=false, io_callback, infeed and outfeed stay in the stages
// (for backends that run them natively on the device): a function with only
// those has nothing to segment.

nx.callback @print : (tensor<2xf32>) -> ()

// CHECK-LABEL: func.func @io_only(
// CHECK-SAME:      attributes {nx.host_orchestrator}
// CHECK:         nx.io_callback @print
// NOIO-LABEL:  func.func @io_only(
// NOIO-NOT:      nx.host_orchestrator
// NOIO-NEXT:     arith.addf
// NOIO-NEXT:     nx.io_callback @print
// NOIO-NEXT:     return
func.func @io_only(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = arith.addf %x, %x : tensor<2xf32>
  %p = nx.io_callback @print(%a) : tensor<2xf32>
  return %p : tensor<2xf32>
}

// -----

// Nested host control flow: the callback two levels down reads a stage value
// of the function body, so its copy to the host is hoisted out of both the
// loop and the if; a scalar the host needs (the if condition) is copied too.

nx.callback @deep : (tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @nested(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>, %[[N:.+]]: index)
// CHECK:         %[[XD:.+]] = nx.to_device %[[X]] to "cuda"
// CHECK-NEXT:    %[[W:.+]] = call @nested_stage0(%[[XD]])
// CHECK-NEXT:    %[[WH:.+]] = nx.to_host %[[W]] from "cuda"
// CHECK-NEXT:    %[[L:.+]] = scf.for %[[I:.+]] = %{{.+}} to %[[N]] step %{{.+}} iter_args(%[[ACC:.+]] = %[[X]])
// CHECK-NEXT:      %[[ID:.+]] = nx.to_device %[[I]] to "cuda" : index
// CHECK-NEXT:      %[[P:.+]] = func.call @nested_stage1(%[[ID]]) : (index) -> i1
// CHECK-NEXT:      %[[PH:.+]] = nx.to_host %[[P]] from "cuda" : i1
// CHECK-NEXT:      %[[R:.+]] = scf.if %[[PH]]
// CHECK-NEXT:        %[[D:.+]] = nx.elixir_call @deep(%[[WH]])
// CHECK-NEXT:        scf.yield %[[D]]
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[ACC]]
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[R]]
// CHECK:         return %[[L]]
// CHECK-LABEL: func.func private @nested_stage0(
// CHECK-NEXT:    arith.negf
// CHECK-LABEL: func.func private @nested_stage1(
// CHECK-SAME:      %[[I:.+]]: index) -> i1
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[REM:.+]] = arith.remui %[[I]], %[[C2]]
// CHECK-NEXT:    %[[EQ:.+]] = arith.cmpi eq, %[[REM]], %[[C0]]
// CHECK-NEXT:    return %[[EQ]]
func.func @nested(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %w = arith.negf %x : tensor<4xf32>
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %rem = arith.remui %i, %c2 : index
    %p = arith.cmpi eq, %rem, %c0 : index
    %r = scf.if %p -> tensor<4xf32> {
      %d = nx.elixir_call @deep(%w) : (tensor<4xf32>) -> tensor<4xf32>
      scf.yield %d : tensor<4xf32>
    } else {
      scf.yield %acc : tensor<4xf32>
    }
    scf.yield %r : tensor<4xf32>
  }
  return %l : tensor<4xf32>
}
