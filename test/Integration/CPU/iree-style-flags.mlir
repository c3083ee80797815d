// nx-runner takes iree-run-module's spellings next to its own: --function
// for --entry, SHAPExTYPE=VALUES inputs (brackets optional, one value a
// splat) and --output=@file.npy.
//
// RUN: nx-runner %s --function=add --input="2x2xf32=1 2 3 4" --input="f32=10" \
// RUN:   --output=@%t.out.npy | FileCheck %s --check-prefix=FLAT
// FLAT: result #0: tensor<2x2xf32> = {{\[\[}}11, 12], [13, 14]]
// RUN: %numpy_python -c "import numpy; print(numpy.load('%t.out.npy').tolist())" \
// RUN:   | FileCheck %s --check-prefix=NPY
// NPY: {{\[\[}}11.0, 12.0], [13.0, 14.0]]
// RUN: nx-runner %s --function=add --input="2x2xf32=[[1 2][3 4]]" --input="f32=1" \
// RUN:   | FileCheck %s --check-prefix=NESTED
// NESTED: result #0: tensor<2x2xf32> = {{\[\[}}2, 3], [4, 5]]
// RUN: nx-runner %s --function=add --input="2x2xf32=7" --input="f32=1" \
// RUN:   | FileCheck %s --check-prefix=SPLAT
// SPLAT: result #0: tensor<2x2xf32> = {{\[\[}}8, 8], [8, 8]]
// RUN: not nx-runner %s --function=add --input="2x2xf32=1 2 3" --input="f32=1" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COUNT
// COUNT: nx-runner: error: --input #0: '2x2xf32=1 2 3' has a number of values that is neither 1 nor the shape's element count
// REQUIRES: numpy

func.func @add(%x: tensor<2x2xf32>, %y: tensor<f32>) -> tensor<2x2xf32> {
  %e = tensor.empty() : tensor<2x2xf32>
  %b = linalg.broadcast ins(%y : tensor<f32>) outs(%e : tensor<2x2xf32>) dimensions = [0, 1]
  %r = arith.addf %x, %b : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
