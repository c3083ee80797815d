// nx-cpu-codegen, nx-lower-to-cpu's fifth phase: linalg becomes loops over
// vectors of the chosen width, math functions polynomials that vectorize,
// and a transpose tiles of vector.transpose. With vectorize=false and
// libm-math=true, scalar loops that call libm.
// RUN: nx-opt %s --nx-cpu-host-calls --nx-cpu-bufferize \
// RUN:   | nx-opt --pass-pipeline='builtin.module(nx-cpu-codegen{vector-bits=512})' \
// RUN:   | FileCheck %s
// RUN: nx-opt %s --nx-cpu-host-calls --nx-cpu-bufferize \
// RUN:   | nx-opt --pass-pipeline='builtin.module(nx-cpu-codegen{vectorize=false libm-math=true})' \
// RUN:   | FileCheck %s --check-prefix=SCALAR

// CHECK-NOT: linalg.
// CHECK-LABEL: func.func @main
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} vector<16xf32>
// CHECK: math.fma {{.*}} : vector<16xf32>
// CHECK-NOT: math.exp
// CHECK: vector.transfer_write
// CHECK: vector.transpose
// CHECK-NOT: linalg.
// SCALAR: func.func private @expf(f32) -> f32
// SCALAR-LABEL: func.func @main
// SCALAR-NOT: vector.
// SCALAR: scf.for
// SCALAR: func.call @expf
// SCALAR-NOT: linalg.
func.func @main(%x: tensor<64x256xf32>)
    -> (tensor<64x256xf32>, tensor<256x64xf32>) {
  %y = math.exp %x : tensor<64x256xf32>
  %e = tensor.empty() : tensor<256x64xf32>
  %t = linalg.transpose ins(%x : tensor<64x256xf32>)
                        outs(%e : tensor<256x64xf32>) permutation = [1, 0]
  return %y, %t : tensor<64x256xf32>, tensor<256x64xf32>
}
