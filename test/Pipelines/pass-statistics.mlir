// nx-opt prints the nx passes' statistics although this LLVM keeps none
// (nx/Support/PassStatistics.h): one report, in upstream's list format.
// RUN: nx-opt %s --mlir-pass-statistics -nx-lower-to-cpu -o /dev/null 2>&1 | FileCheck %s
// RUN: nx-opt %s --mlir-pass-statistics -nx-assign-callback-ids -convert-nx-to-custom-call -o /dev/null 2>&1 | FileCheck %s --check-prefix=CUSTOM
// RUN: nx-opt %s --mlir-pass-statistics -nx-segment-callbacks=device=cuda -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEGMENT
// RUN: nx-runner %s --pass-statistics --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=RUNNER
// Without the option, no report.
// RUN: nx-opt %s -nx-lower-to-cpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE --allow-empty

// CHECK-COUNT-1: Pass statistics report
// CHECK-NOT: Pass statistics report
// CHECK-LABEL: ConvertNxToCustomCallPass
// CHECK-NEXT: (S) 1 blocks-inlined - Number of blocks replaced by their default implementation
// CHECK-LABEL: ConvertNxToLLVMPass
// CHECK-NEXT: (S) 3 call-sites - Number of call sites __nx_init registers
// CHECK-LABEL: NxAssignCallbackIdsPass
// CHECK-NEXT: (S) 2 callbacks - Number of callbacks numbered
// CHECK-LABEL: NxHoistDeallocsPass
// CHECK-NEXT: (S) {{[1-9][0-9]*}} deallocs-hoisted
// CHECK-LABEL: NxVectorizeLinalgPass
// CHECK: (S) {{[1-9][0-9]*}} vectorized

// CUSTOM-LABEL: ConvertNxToCustomCallPass
// CUSTOM-NEXT: (S) 1 blocks-inlined
// CUSTOM-NEXT: (S) 0 blocks-native
// CUSTOM-NEXT: (S) 3 callbacks
// CUSTOM-NEXT: (S) 0 stream-ops

// SEGMENT-LABEL: NxSegmentCallbacksPass
// SEGMENT-NEXT: (S) 1 orchestrators
// SEGMENT-NEXT: (S) 3 stages
// SEGMENT-NEXT: (S) 6 transfers

// RUNNER-LABEL: NxAssignCallbackIdsPass
// RUNNER-NEXT: (S) 2 callbacks

// NONE-NOT: Pass statistics report

nx.callback @normalize : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @log : (tensor<4xf32>) -> ()

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %0 = arith.mulf %x, %two : tensor<4xf32>
  %1 = nx.elixir_call @normalize(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = nx.io_callback @log(%1) : tensor<4xf32>
  %3 = nx.block "Example.Softplus" {} (%2) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%v: tensor<4xf32>):
    %e = math.exp %v : tensor<4xf32>
    %l = math.log1p %e : tensor<4xf32>
    nx.yield %l : tensor<4xf32>
  }
  %4 = nx.io_callback @log(%3) : tensor<4xf32>
  %5 = arith.addf %4, %x : tensor<4xf32>
  return %5 : tensor<4xf32>
}
