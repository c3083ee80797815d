// REQUIRES: refusable-threads
// The workers of XLA_FFI_ThreadPool_Schedule are as many as the compute
// threads, or as many as the system gives: here 200 are asked for and the
// process may have 64 threads. The pool keeps the ones it got, and the
// handler's tasks run on them (without the check, the refused thread's
// std::system_error ended the process from inside libnxrt).
//
// RUN: nx-compile %s -o %t.so
// RUN: %as_nobody_with_64_threads nxrt-run %t.so --entry=pool \
// RUN:   --ffi-library=%nx_test_ffi_handlers --compute-threads=200 \
// RUN:   --input='5xf32=1 2 3 4 5' | FileCheck %s
// CHECK: result #0: tensor<5xf32> = [3, 6, 9, 12, 15]

func.func @pool(%x: tensor<5xf32>) -> tensor<5xf32> {
  %y = nx.custom_call @test_ffi.parallel_scale(%x) {api_version = 4 : i32, backend_config = {factor = 3.0 : f32}} : (tensor<5xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}
