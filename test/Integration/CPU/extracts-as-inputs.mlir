// Elements a generic extracts at affine indices are read as inputs of
// those maps (nx-extracts-to-inputs): a strided window with a shift,
// x[2i + j + 1][2j] of x = 0, 1, ..., 143 (16x9), checked element for
// element; and an extract whose index could leave the tensor on some
// iterations but is never reached there (it sits in an scf.if), which stays
// an extract. On one thread, on three, serially, and as LLVM's loops.
// RUN: nx-runner %s --entry=windows --compute-threads=1 | FileCheck %s
// RUN: nx-runner %s --entry=windows --compute-threads=3 | FileCheck %s
// RUN: nx-runner %s --entry=windows --parallel=false | FileCheck %s
// RUN: nx-runner %s --entry=windows --vectorize=false | FileCheck %s
// RUN: nx-opt %s --nx-lower-to-cpu --mlir-pass-statistics 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATISTICS

// CHECK: result #0: tensor<4x3xf32> = {{\[}}[9, 20, 31], [27, 38, 49], [45, 56, 67], [63, 74, 85]]
// CHECK: result #1: tensor<8xf32> = [1, 2, 3, 4, 5, 6, 7, -1]
// STATISTICS: 1 extracts-to-inputs

#id = affine_map<(i, j) -> (i, j)>
#one = affine_map<(i) -> (i)>

func.func @windows() -> (tensor<4x3xf32>, tensor<8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %minus = arith.constant -1.0 : f32
  %ex = tensor.empty() : tensor<16x9xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%ex : tensor<16x9xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c9 = arith.constant 9 : index
    %r = arith.muli %i, %c9 : index
    %k = arith.addi %r, %j : index
    %ki = arith.index_cast %k : index to i32
    %f = arith.sitofp %ki : i32 to f32
    linalg.yield %f : f32
  } -> tensor<16x9xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %w = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x3xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i2 = arith.muli %i, %c2 : index
    %s = arith.addi %i2, %j : index
    %row = arith.addi %s, %c1 : index
    %col = arith.muli %j, %c2 : index
    %v = tensor.extract %x[%row, %col] : tensor<16x9xf32>
    linalg.yield %v : f32
  } -> tensor<4x3xf32>
  // y[i] = x[0][i + 1] for i < 7, -1 at i = 7 (where x[0][8] exists but the
  // guard keeps the extract from reading past a row of 8).
  %row0 = tensor.extract_slice %x[0, 0] [1, 8] [1, 1] : tensor<16x9xf32> to tensor<8xf32>
  %ey = tensor.empty() : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#one], iterator_types = ["parallel"]}
      outs(%ey : tensor<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %inside = arith.cmpi ult, %i, %c7 : index
    %v = scf.if %inside -> f32 {
      %n = arith.addi %i, %c1 : index
      %got = tensor.extract %row0[%n] : tensor<8xf32>
      scf.yield %got : f32
    } else {
      scf.yield %minus : f32
    }
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %w, %y : tensor<4x3xf32>, tensor<8xf32>
}
