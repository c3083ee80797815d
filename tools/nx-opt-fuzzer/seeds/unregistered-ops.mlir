// Unregistered ops in function bodies (the harness allows them, as
// --allow-unregistered-dialect does); the terminator mutation puts one at
// the end of a block, where it is taken for a terminator.
// fuzz-pipeline: nx-split-functions{max-ops=2}
// fuzz-pipeline: nx-split-functions{max-ops=2},nx-inline-pieces
// fuzz-pipeline: nx-split-functions{max-ops=1}
// fuzz-pipeline: nx-split-functions{max-ops=3}
// fuzz-pipeline: nx-lower-to-cpu{max-function-ops=4}
// fuzz-pipeline: func.func(nx-split-deallocs,nx-hoist-deallocs)
// fuzz-pipeline: nx-segment-callbacks
// fuzz-pipeline: convert-to-llvm

func.func @body(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  %1 = "fuzz.op"(%0) : (f32) -> f32
  %2 = arith.mulf %1, %1 : f32
  %3 = arith.subf %2, %a : f32
  return %3 : f32
}

// -----

func.func @buffers(%a: memref<4xf32>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<4xf32>
  %y = arith.addf %x, %x : f32
  %b = memref.alloc() : memref<4xf32>
  memref.store %y, %b[%c0] : memref<4xf32>
  "fuzz.use"(%b) : (memref<4xf32>) -> ()
  return %b : memref<4xf32>
}

// -----

func.func @regions(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "fuzz.region"(%x) ({
  ^bb0(%y: tensor<4xf32>):
    %1 = arith.addf %y, %y : tensor<4xf32>
    "fuzz.yield"(%1) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
