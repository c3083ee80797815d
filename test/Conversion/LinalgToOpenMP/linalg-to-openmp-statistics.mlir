// RUN: nx-opt %s -nx-linalg-to-openmp -mlir-pass-statistics -mlir-pass-statistics-display=list -o /dev/null 2>&1 | FileCheck %s

// The statistics count teams and serial nests, not linalg ops: a fill and
// a sum it initializes share one team, a large elementwise op has its own,
// three ops along the same rows of fresh buffers share one as a row chain
// (op by op, the second would run in the first one's tiles, the third in a
// team of its own),
// and a small op stays serial.
// CHECK: (S) 3 parallel-nests
// CHECK: (S) 1 row-chains
// CHECK: (S) 1 small-nests

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

func.func @statistics(%x: memref<512x256xf32>, %y: memref<512x256xf32>,
                      %small: memref<4x4xf32>) -> memref<512xf32> {
  %zero = arith.constant 0.0 : f32
  %sums = memref.alloc() : memref<512xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<512xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<512x256xf32>) outs(%sums : memref<512xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x256xf32>) outs(%y : memref<512x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  }
  %a = memref.alloc() : memref<512x256xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x256xf32>) outs(%a : memref<512x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  %b = memref.alloc() : memref<512x256xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<512x256xf32>) outs(%b : memref<512x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %l = math.log %in : f32
    linalg.yield %l : f32
  }
  %c = memref.alloc() : memref<512x256xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<512x256xf32>) outs(%c : memref<512x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.sqrt %in : f32
    linalg.yield %r : f32
  }
  memref.dealloc %a : memref<512x256xf32>
  memref.dealloc %b : memref<512x256xf32>
  memref.dealloc %c : memref<512x256xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%small : memref<4x4xf32>) outs(%small : memref<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  }
  return %sums : memref<512xf32>
}
