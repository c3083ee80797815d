// One pool of threads in a process that runs compiled code. After products
// on oneDNN (f32) and OpenBLAS (f64), a convolution on oneDNN and parallel
// loop nests, the process has one OpenMP runtime mapped (LLVM's libomp:
// oneDNN's and OpenBLAS's requests for GCC's libgomp are answered by it)
// and no more threads than --compute-threads, the calling thread among
// them, plus the bridge's dispatchers (--dispatch-threads): test.process_report
// fails, naming every thread, when there are more than its max_threads.
//
// DEFINE: %{inputs} = --input=256x256xf32=1 --input=1x34x34x8xf32=1 \
// DEFINE:   --input=3x3x8x8xf32=1 --input=128x128xf64=1
// RUN: nx-runner %s --callbacks=%nx_test_callbacks --entry=one_compute_thread \
// RUN:   --compute-threads=1 --dispatch-threads=1 %{inputs} | FileCheck %s
// RUN: nx-runner %s --callbacks=%nx_test_callbacks --entry=three_compute_threads \
// RUN:   --compute-threads=3 --dispatch-threads=1 %{inputs} | FileCheck %s
// RUN: nx-compile %s -o %t.so
// RUN: nxrt-run %t.so --callbacks=%nx_test_callbacks --entry=one_compute_thread \
// RUN:   --compute-threads=1 --dispatch-threads=1 %{inputs} | FileCheck %s
// RUN: nxrt-run %t.so --callbacks=%nx_test_callbacks --entry=three_compute_threads \
// RUN:   --compute-threads=3 --dispatch-threads=1 %{inputs} | FileCheck %s
// A limit below what the run needs fails it, naming the threads.
// RUN: not nxrt-run %t.so --callbacks=%nx_test_callbacks --entry=one_compute_thread \
// RUN:   --compute-threads=3 --dispatch-threads=1 %{inputs} 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TOO-MANY

// CHECK: openmp runtimes: libomp.so.5{{$}}
// CHECK-NEXT: result #0: tensor<1x1xf32> = {{\[}}[256]]
// CHECK-NEXT: result #1: tensor<1x1xf32> = {{\[}}[72]]
// CHECK-NEXT: result #2: tensor<1x1xf64> = {{\[}}[128]]
// TOO-MANY: 4 threads, more than max_threads 2: nxrt-run nxrt-run nxrt-run nxrt-run

nx.callback @test.process_report : (tensor<256x256xf32>, tensor<1x32x32x8xf32>, tensor<128x128xf64>) -> ()

func.func private @compute(%a: tensor<256x256xf32>, %x: tensor<1x34x34x8xf32>, %w: tensor<3x3x8x8xf32>, %d: tensor<128x128xf64>)
    -> (tensor<256x256xf32>, tensor<1x32x32x8xf32>, tensor<128x128xf64>) {
  %zero = arith.constant 0.0 : f32
  %zero64 = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<256x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %p = linalg.matmul ins(%a, %a : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  %ce = tensor.empty() : tensor<1x32x32x8xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x32x32x8xf32>) -> tensor<1x32x32x8xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x34x34x8xf32>, tensor<3x3x8x8xf32>) outs(%cz : tensor<1x32x32x8xf32>) -> tensor<1x32x32x8xf32>
  %de = tensor.empty() : tensor<128x128xf64>
  %dz = linalg.fill ins(%zero64 : f64) outs(%de : tensor<128x128xf64>) -> tensor<128x128xf64>
  %dp = linalg.matmul ins(%d, %d : tensor<128x128xf64>, tensor<128x128xf64>) outs(%dz : tensor<128x128xf64>) -> tensor<128x128xf64>
  return %p, %c, %dp : tensor<256x256xf32>, tensor<1x32x32x8xf32>, tensor<128x128xf64>
}

func.func @one_compute_thread(%a: tensor<256x256xf32>, %x: tensor<1x34x34x8xf32>, %w: tensor<3x3x8x8xf32>, %d: tensor<128x128xf64>)
    -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf64>) {
  %p, %c, %dp = func.call @compute(%a, %x, %w, %d) : (tensor<256x256xf32>, tensor<1x34x34x8xf32>, tensor<3x3x8x8xf32>, tensor<128x128xf64>) -> (tensor<256x256xf32>, tensor<1x32x32x8xf32>, tensor<128x128xf64>)
  %r:3 = nx.io_callback @test.process_report(%p, %c, %dp) static_args {max_threads = 2 : i64} : tensor<256x256xf32>, tensor<1x32x32x8xf32>, tensor<128x128xf64>
  %s0 = tensor.extract_slice %r#0[0, 0] [1, 1] [1, 1] : tensor<256x256xf32> to tensor<1x1xf32>
  %s1 = tensor.extract_slice %r#1[0, 0, 0, 0] [1, 1, 1, 1] [1, 1, 1, 1] : tensor<1x32x32x8xf32> to tensor<1x1xf32>
  %s2 = tensor.extract_slice %r#2[0, 0] [1, 1] [1, 1] : tensor<128x128xf64> to tensor<1x1xf64>
  return %s0, %s1, %s2 : tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf64>
}

func.func @three_compute_threads(%a: tensor<256x256xf32>, %x: tensor<1x34x34x8xf32>, %w: tensor<3x3x8x8xf32>, %d: tensor<128x128xf64>)
    -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf64>) {
  %p, %c, %dp = func.call @compute(%a, %x, %w, %d) : (tensor<256x256xf32>, tensor<1x34x34x8xf32>, tensor<3x3x8x8xf32>, tensor<128x128xf64>) -> (tensor<256x256xf32>, tensor<1x32x32x8xf32>, tensor<128x128xf64>)
  %r:3 = nx.io_callback @test.process_report(%p, %c, %dp) static_args {max_threads = 4 : i64} : tensor<256x256xf32>, tensor<1x32x32x8xf32>, tensor<128x128xf64>
  %s0 = tensor.extract_slice %r#0[0, 0] [1, 1] [1, 1] : tensor<256x256xf32> to tensor<1x1xf32>
  %s1 = tensor.extract_slice %r#1[0, 0, 0, 0] [1, 1, 1, 1] [1, 1, 1, 1] : tensor<1x32x32x8xf32> to tensor<1x1xf32>
  %s2 = tensor.extract_slice %r#2[0, 0] [1, 1] [1, 1] : tensor<128x128xf64> to tensor<1x1xf64>
  return %s0, %s1, %s2 : tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf64>
}
