// Contractions that no library takes (integers, f16, bf16, or f32 with
// --blas=false) run as register tiles (nx-vectorize-linalg): rows of the
// output by two vectors of columns, the accumulators in registers across
// the reduction loop. Their results equal NumPy's (exactly for integers
// and for small integers in f16 and bf16; within 1e-5 of the largest
// magnitude for f32) at one thread and at three, for shapes that leave
// partial tiles of rows and columns, for a product shared among threads
// whose last thread gets 3 of 8 rows (203 rows), for a transposed
// left-hand side, and for a vector times a matrix. A transposed right-hand
// side, which a register tile would gather, stays a loop nest and agrees too.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %numpy_python %S/Inputs/register_tiles.py make %t
// RUN: nx-compile %s --blas=false -o %t.so
// RUN: nxrt-run %t.so --entry=matmul_i32 --input=@%t/matmul_i32.in0.npy --input=@%t/matmul_i32.in1.npy \
// RUN:   --compute-threads=1 --quiet --output=%t/matmul_i32.out.1.npy
// RUN: nxrt-run %t.so --entry=matmul_i32 --input=@%t/matmul_i32.in0.npy --input=@%t/matmul_i32.in1.npy \
// RUN:   --compute-threads=3 --quiet --output=%t/matmul_i32.out.3.npy
// RUN: nxrt-run %t.so --entry=matmul_i32_shared --input=@%t/matmul_i32_shared.in0.npy --input=@%t/matmul_i32_shared.in1.npy \
// RUN:   --compute-threads=1 --quiet --output=%t/matmul_i32_shared.out.1.npy
// RUN: nxrt-run %t.so --entry=matmul_i32_shared --input=@%t/matmul_i32_shared.in0.npy --input=@%t/matmul_i32_shared.in1.npy \
// RUN:   --compute-threads=3 --quiet --output=%t/matmul_i32_shared.out.3.npy
// RUN: nxrt-run %t.so --entry=matmul_i8 --input=@%t/matmul_i8.in0.npy --input=@%t/matmul_i8.in1.npy \
// RUN:   --compute-threads=1 --quiet --output=%t/matmul_i8.out.1.npy
// RUN: nxrt-run %t.so --entry=matmul_i8 --input=@%t/matmul_i8.in0.npy --input=@%t/matmul_i8.in1.npy \
// RUN:   --compute-threads=3 --quiet --output=%t/matmul_i8.out.3.npy
// RUN: nxrt-run %t.so --entry=matmul_f32 --input=@%t/matmul_f32.in0.npy --input=@%t/matmul_f32.in1.npy \
// RUN:   --compute-threads=1 --quiet --output=%t/matmul_f32.out.1.npy
// RUN: nxrt-run %t.so --entry=matmul_f32 --input=@%t/matmul_f32.in0.npy --input=@%t/matmul_f32.in1.npy \
// RUN:   --compute-threads=3 --quiet --output=%t/matmul_f32.out.3.npy
// RUN: nxrt-run %t.so --entry=batch_matmul_f16 --input=@%t/batch_matmul_f16.in0.npy --input=@%t/batch_matmul_f16.in1.npy \
// RUN:   --compute-threads=1 --quiet --output=%t/batch_matmul_f16.out.1.npy
// RUN: nxrt-run %t.so --entry=batch_matmul_f16 --input=@%t/batch_matmul_f16.in0.npy --input=@%t/batch_matmul_f16.in1.npy \
// RUN:   --compute-threads=3 --quiet --output=%t/batch_matmul_f16.out.3.npy
// RUN: nxrt-run %t.so --entry=matmul_bf16_f32 --input=@%t/matmul_bf16_f32.in0.npy --input=@%t/matmul_bf16_f32.in1.npy \
// RUN:   --compute-threads=1 --quiet --output=%t/matmul_bf16_f32.out.1.npy
// RUN: nxrt-run %t.so --entry=matmul_bf16_f32 --input=@%t/matmul_bf16_f32.in0.npy --input=@%t/matmul_bf16_f32.in1.npy \
// RUN:   --compute-threads=3 --quiet --output=%t/matmul_bf16_f32.out.3.npy
// RUN: nxrt-run %t.so --entry=matmul_transposed_a_i32 --input=@%t/matmul_transposed_a_i32.in0.npy --input=@%t/matmul_transposed_a_i32.in1.npy \
// RUN:   --compute-threads=1 --quiet --output=%t/matmul_transposed_a_i32.out.1.npy
// RUN: nxrt-run %t.so --entry=matmul_transposed_a_i32 --input=@%t/matmul_transposed_a_i32.in0.npy --input=@%t/matmul_transposed_a_i32.in1.npy \
// RUN:   --compute-threads=3 --quiet --output=%t/matmul_transposed_a_i32.out.3.npy
// RUN: nxrt-run %t.so --entry=matmul_transposed_b_i32 --input=@%t/matmul_transposed_b_i32.in0.npy --input=@%t/matmul_transposed_b_i32.in1.npy \
// RUN:   --compute-threads=1 --quiet --output=%t/matmul_transposed_b_i32.out.1.npy
// RUN: nxrt-run %t.so --entry=matmul_transposed_b_i32 --input=@%t/matmul_transposed_b_i32.in0.npy --input=@%t/matmul_transposed_b_i32.in1.npy \
// RUN:   --compute-threads=3 --quiet --output=%t/matmul_transposed_b_i32.out.3.npy
// RUN: nxrt-run %t.so --entry=vecmat_i32 --input=@%t/vecmat_i32.in0.npy --input=@%t/vecmat_i32.in1.npy \
// RUN:   --compute-threads=1 --quiet --output=%t/vecmat_i32.out.1.npy
// RUN: nxrt-run %t.so --entry=vecmat_i32 --input=@%t/vecmat_i32.in0.npy --input=@%t/vecmat_i32.in1.npy \
// RUN:   --compute-threads=3 --quiet --output=%t/vecmat_i32.out.3.npy

// RUN: %numpy_python %S/Inputs/register_tiles.py check %t | FileCheck %s
// CHECK-DAG: matmul_i32.out.1.npy: ok
// CHECK-DAG: matmul_i32.out.3.npy: ok
// CHECK-DAG: matmul_i32_shared.out.1.npy: ok
// CHECK-DAG: matmul_i32_shared.out.3.npy: ok
// CHECK-DAG: matmul_i8.out.1.npy: ok
// CHECK-DAG: matmul_i8.out.3.npy: ok
// CHECK-DAG: matmul_f32.out.1.npy: ok
// CHECK-DAG: matmul_f32.out.3.npy: ok
// CHECK-DAG: batch_matmul_f16.out.1.npy: ok
// CHECK-DAG: batch_matmul_f16.out.3.npy: ok
// CHECK-DAG: matmul_bf16_f32.out.1.npy: ok
// CHECK-DAG: matmul_bf16_f32.out.3.npy: ok
// CHECK-DAG: matmul_transposed_a_i32.out.1.npy: ok
// CHECK-DAG: matmul_transposed_a_i32.out.3.npy: ok
// CHECK-DAG: matmul_transposed_b_i32.out.1.npy: ok
// CHECK-DAG: matmul_transposed_b_i32.out.3.npy: ok
// CHECK-DAG: vecmat_i32.out.1.npy: ok
// CHECK-DAG: vecmat_i32.out.3.npy: ok
// CHECK-NOT: WRONG
//
// Every product but the one with a transposed right-hand side is tiled.
// RUN: nx-opt %s --nx-lower-to-cpu=blas=false --mlir-pass-statistics 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATISTICS
// STATISTICS: (S) 8 contractions-in-registers

#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(i, j) -> (i, j)>

func.func @matmul_i32(%a: tensor<37x29xi32>, %b: tensor<29x53xi32>) -> tensor<37x53xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<37x53xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<37x53xi32>) -> tensor<37x53xi32>
  %r = linalg.matmul ins(%a, %b : tensor<37x29xi32>, tensor<29x53xi32>) outs(%c : tensor<37x53xi32>) -> tensor<37x53xi32>
  return %r : tensor<37x53xi32>
}

func.func @matmul_i32_shared(%a: tensor<203x96xi32>, %b: tensor<96x150xi32>) -> tensor<203x150xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<203x150xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<203x150xi32>) -> tensor<203x150xi32>
  %r = linalg.matmul ins(%a, %b : tensor<203x96xi32>, tensor<96x150xi32>) outs(%c : tensor<203x150xi32>) -> tensor<203x150xi32>
  return %r : tensor<203x150xi32>
}

// i8 operands, extended to i32 in the product's body.
func.func @matmul_i8(%a: tensor<70x64xi8>, %b: tensor<64x40xi8>) -> tensor<70x40xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<70x40xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<70x40xi32>) -> tensor<70x40xi32>
  %r = linalg.matmul ins(%a, %b : tensor<70x64xi8>, tensor<64x40xi8>) outs(%c : tensor<70x40xi32>) -> tensor<70x40xi32>
  return %r : tensor<70x40xi32>
}

func.func @matmul_f32(%a: tensor<45x33xf32>, %b: tensor<33x70xf32>) -> tensor<45x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<45x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<45x70xf32>) -> tensor<45x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<45x33xf32>, tensor<33x70xf32>) outs(%c : tensor<45x70xf32>) -> tensor<45x70xf32>
  return %r : tensor<45x70xf32>
}

func.func @batch_matmul_f16(%a: tensor<3x19x23xf16>, %b: tensor<3x23x35xf16>) -> tensor<3x19x35xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<3x19x35xf16>
  %c = linalg.fill ins(%zero : f16) outs(%e : tensor<3x19x35xf16>) -> tensor<3x19x35xf16>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x19x23xf16>, tensor<3x23x35xf16>) outs(%c : tensor<3x19x35xf16>) -> tensor<3x19x35xf16>
  return %r : tensor<3x19x35xf16>
}

// bf16 operands (rounded from f32 here, since .npy has no bf16) into f32.
func.func @matmul_bf16_f32(%a: tensor<33x40xf32>, %b: tensor<40x66xf32>) -> tensor<33x66xf32> {
  %ea = tensor.empty() : tensor<33x40xbf16>
  %a16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<33x40xf32>) outs(%ea : tensor<33x40xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<33x40xbf16>
  %eb = tensor.empty() : tensor<40x66xbf16>
  %b16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<40x66xf32>) outs(%eb : tensor<40x66xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<40x66xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x66xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x66xf32>) -> tensor<33x66xf32>
  %r = linalg.matmul ins(%a16, %b16 : tensor<33x40xbf16>, tensor<40x66xbf16>) outs(%c : tensor<33x66xf32>) -> tensor<33x66xf32>
  return %r : tensor<33x66xf32>
}

func.func @matmul_transposed_a_i32(%a: tensor<29x37xi32>, %b: tensor<29x53xi32>) -> tensor<37x53xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<37x53xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<37x53xi32>) -> tensor<37x53xi32>
  %r = linalg.generic {indexing_maps = [#km, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<29x37xi32>, tensor<29x53xi32>) outs(%c : tensor<37x53xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<37x53xi32>
  return %r : tensor<37x53xi32>
}

func.func @matmul_transposed_b_i32(%a: tensor<37x29xi32>, %b: tensor<53x29xi32>) -> tensor<37x53xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<37x53xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<37x53xi32>) -> tensor<37x53xi32>
  %r = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<37x29xi32>, tensor<53x29xi32>) outs(%c : tensor<37x53xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<37x53xi32>
  return %r : tensor<37x53xi32>
}

func.func @vecmat_i32(%a: tensor<29xi32>, %b: tensor<29x77xi32>) -> tensor<77xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<77xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<77xi32>) -> tensor<77xi32>
  %r = linalg.vecmat ins(%a, %b : tensor<29xi32>, tensor<29x77xi32>) outs(%c : tensor<77xi32>) -> tensor<77xi32>
  return %r : tensor<77xi32>
}
