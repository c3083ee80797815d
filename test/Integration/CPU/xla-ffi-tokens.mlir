// An XLA FFI handler that takes and returns a token (XLA's `Token`, a
// rank-0 buffer of dtype TOKEN with no data), in a StableHLO module that
// threads an ordering token through two calls, as a program ordering its
// effects does. The handler checks each token's view and prints its calls
// in order.
//
// RUN: nx-opt %s --allow-unregistered-dialect --nx-import-stablehlo -o %t.mlir
// RUN: FileCheck %s --check-prefix=IMPORTED < %t.mlir
// IMPORTED: nx.custom_call @test_ffi.ordered_log(%{{.*}}, %{{.*}}) {api_version = 4 : i32, has_side_effect = true} : (!nx.token, tensor<3xf32>) -> (tensor<f32>, !nx.token)
// RUN: nx-runner %t.mlir --ffi-library=%nx_test_ffi_handlers --input='3xf32=1 2 3' \
// RUN:   --input='3xf32=2 4 6' | FileCheck %s
// RUN: nx-compile %t.mlir -o %t.so
// RUN: nxrt-run %t.so --ffi-library=%nx_test_ffi_handlers --input='3xf32=1 2 3' \
// RUN:   --input='3xf32=2 4 6' | FileCheck %s
// CHECK: ordered_log call 1: sum 6
// CHECK-NEXT: ordered_log call 2: sum 12
// CHECK: result #0: tensor<f32> = 6
// CHECK-NEXT: result #1: tensor<f32> = 12
//
// A call without side effects whose data nothing reads still runs when a
// later call takes its token, as in XLA.
// RUN: nx-runner %t.mlir --entry=unread --ffi-library=%nx_test_ffi_handlers \
// RUN:   --input='3xf32=1 1 1' | FileCheck %s --check-prefix=UNREAD
// UNREAD: ordered_log call 1: sum 3
// UNREAD-NEXT: ordered_log call 2: sum 3
// UNREAD-NEXT: result #0: tensor<3xf32> = [1, 1, 1]
//
// A runtime target that takes no token says so.
// RUN: not nx-runner %t.mlir --entry=lapack_token --input='2x2xf32=2 0 0 1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAPACK
// LAPACK: operand is a token, where a tensor was expected

module @jit_ordered attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%token: !stablehlo.token, %x: tensor<3xf32>, %y: tensor<3xf32>) -> (!stablehlo.token, tensor<f32>, tensor<f32>) {
    %sum:2 = "stablehlo.custom_call"(%token, %x) <{api_version = 4 : i32, call_target_name = "test_ffi.ordered_log", has_side_effect = true}> : (!stablehlo.token, tensor<3xf32>) -> (tensor<f32>, !stablehlo.token)
    %sum2:2 = "stablehlo.custom_call"(%sum#1, %y) <{api_version = 4 : i32, call_target_name = "test_ffi.ordered_log", has_side_effect = true}> : (!stablehlo.token, tensor<3xf32>) -> (tensor<f32>, !stablehlo.token)
    return %sum2#1, %sum#0, %sum2#0 : !stablehlo.token, tensor<f32>, tensor<f32>
  }
  func.func public @unread(%x: tensor<3xf32>) -> tensor<3xf32> {
    %token = "stablehlo.create_token"() : () -> !stablehlo.token
    %sum:2 = "stablehlo.custom_call"(%token, %x) <{api_version = 4 : i32, call_target_name = "test_ffi.ordered_log"}> : (!stablehlo.token, tensor<3xf32>) -> (tensor<f32>, !stablehlo.token)
    %sum2:2 = "stablehlo.custom_call"(%sum#1, %x) <{api_version = 4 : i32, call_target_name = "test_ffi.ordered_log", has_side_effect = true}> : (!stablehlo.token, tensor<3xf32>) -> (tensor<f32>, !stablehlo.token)
    return %x : tensor<3xf32>
  }
  func.func public @lapack_token(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
    %token = "stablehlo.create_token"() : () -> !stablehlo.token
    %q:2 = "stablehlo.custom_call"(%token) <{api_version = 4 : i32, call_target_name = "qr_cpu_custom_call_f32", has_side_effect = true}> : (!stablehlo.token) -> (tensor<2x2xf32>, tensor<2x2xf32>)
    return %q#0 : tensor<2x2xf32>
  }
}
