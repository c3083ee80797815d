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
