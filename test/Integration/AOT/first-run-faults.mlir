// A first run finds its output's pages mapped: __nx_init faults in twice
// the heap the program holds at once (nxrt_heap_prepare), and with
// --reuse-inputs nxrt-run takes none of it for itself (it checks the
// inputs with digests, not copies). The 1 MiB output of this sum would
// take 256 page faults in its first run otherwise, as it did when nxrt-run
// kept a copy of the 4 MiB input, made after the program's preparation.
// --timing prints each entry's page faults.
// The sanitizers' allocators are not glibc's heap, which nxrt_heap_prepare
// prepares, and keep freed buffers in quarantine.
// UNSUPPORTED: sanitizer
//
// RUN: nx-compile %s -o %t.so
// RUN: nxrt-run %t.so --entry=sum_of_planes --input=4x512x512xf32=1 \
// RUN:   --repeat=2 --timing --reuse-inputs --quiet --compute-threads=1 2>&1 \
// RUN:   | FileCheck %s
// CHECK: run 1: {{[0-9.]+}} ms (entry {{[0-9.]+}} ms, {{[0-9]?[0-9]}} page faults)
// CHECK: run 2: {{[0-9.]+}} ms (entry {{[0-9.]+}} ms, {{[0-9]?[0-9]}} page faults)
//
// An f32 product whose B's rows lie 1024 floats apart, on oneDNN's AVX2
// sgemm (whatever the CPU: DNNL_MAX_CPU_ISA), copies B with padded rows into
// a buffer of the thread (4.2 MiB here): __nx_init maps it
// (nxrt_gemm_prepare_padded). Without it the first run took 980 page
// faults.
// RUN: env DNNL_MAX_CPU_ISA=AVX2 nxrt-run %t.so --entry=product \
// RUN:   --input=64x1024xf32=1 --input=1024x1024xf32=1 --repeat=2 --timing \
// RUN:   --reuse-inputs --quiet --compute-threads=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PADDED
// PADDED: run 1: {{[0-9.]+}} ms (entry {{[0-9.]+}} ms, {{[0-9]?[0-9]}} page faults)

func.func @sum_of_planes(%x: tensor<4x512x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %s = linalg.reduce ins(%x : tensor<4x512x512xf32>) outs(%z : tensor<512x512xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<512x512xf32>
}

func.func @product(%a: tensor<64x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1024xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %p = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x1024xf32>) outs(%z : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %p : tensor<64x1024xf32>
}
