// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp -cse | FileCheck %s --enable-var-scope

#x = affine_map<(i, k, l) -> (i, k, l)>
#p = affine_map<(i, k, l) -> (i, l)>
#rows = affine_map<(i, l) -> (i, l)>
#row = affine_map<(i, l) -> (i)>

// A softmax as nx-decompose-aggregated-ops and nx-split-reductions leave
// it: each row's maximum (partial, then final), the exponentials, each
// row's sum (partial, then final), the division. Op by op, four teams;
// as a row chain, one, each tile of 16 rows (the partial steps' granule)
// running all of them. The temporary buffers and views are made before
// the team and freed after it.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.+]]: memref<2048x1024xf32>)
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<2048x1024xf32>
// CHECK: %[[STAT:.+]] = memref.alloc() : memref<2048xf32>
// CHECK: %[[XV:.+]] = memref.expand_shape %[[X]]
// CHECK: %[[PMAX:.+]] = memref.alloc() : memref<2048x64xf32>
// CHECK: %[[OUTV:.+]] = memref.expand_shape %[[OUT]]
// CHECK: %[[PSUM:.+]] = memref.alloc() : memref<2048x64xf32>
// CHECK-NOT: linalg
// CHECK: omp.parallel {
// CHECK: omp.loop_nest (%[[ROW:.+]]) : index = (%{{.+}}) to (%{{.+}}) step (%c16) {
// CHECK: %[[S:.+]] = memref.subview %[[STAT]][%[[ROW]]] [16]
// CHECK: linalg.fill {{.+}} outs(%[[S]] :
// CHECK: %[[P:.+]] = memref.subview %[[PMAX]][%[[ROW]], 0] [16, 64]
// CHECK: linalg.fill {{.+}} outs(%[[P]] :
// CHECK: %[[XS:.+]] = memref.subview %[[XV]][%[[ROW]], 0, 0] [16, 16, 64]
// CHECK: linalg.generic {{.+}} ins(%[[XS]] : {{.+}}) outs(%[[P]] :
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.+}} ins(%[[P]] : {{.+}}) outs(%[[S]] :
// CHECK: %[[XR:.+]] = memref.subview %[[X]][%[[ROW]], 0] [16, 1024]
// CHECK: %[[O:.+]] = memref.subview %[[OUT]][%[[ROW]], 0] [16, 1024]
// CHECK: linalg.generic {{.+}} ins(%[[XR]], %[[S]] : {{.+}}) outs(%[[O]] :
// CHECK: math.exp
// CHECK: linalg.fill {{.+}} outs(%[[S]] :
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: linalg.generic {{.+}} outs(%[[S]] :
// CHECK: linalg.generic {{.+}} ins(%[[O]], %[[S]] : {{.+}}) outs(%[[O]] :
// CHECK: arith.divf
// CHECK: omp.yield
// CHECK: omp.terminator
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[PMAX]]
// CHECK-NEXT: memref.dealloc %[[PSUM]]
// CHECK-NEXT: memref.dealloc %[[STAT]]
// CHECK-NOT: omp.parallel
// CHECK: return %[[OUT]]
func.func @softmax(%x: memref<2048x1024xf32>) -> memref<2048x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %low = arith.constant 0xFF800000 : f32
  %out = memref.alloc() : memref<2048x1024xf32>
  %stat = memref.alloc() : memref<2048xf32>
  linalg.fill ins(%low : f32) outs(%stat : memref<2048xf32>)
  %xv = memref.expand_shape %x [[0], [1, 2]] output_shape [2048, 16, 64]
      : memref<2048x1024xf32> into memref<2048x16x64xf32>
  %pmax = memref.alloc() : memref<2048x64xf32>
  linalg.fill ins(%low : f32) outs(%pmax : memref<2048x64xf32>)
  linalg.generic {indexing_maps = [#x, #p], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%xv : memref<2048x16x64xf32>) outs(%pmax : memref<2048x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%pmax : memref<2048x64xf32>) outs(%stat : memref<2048xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  memref.dealloc %pmax : memref<2048x64xf32>
  linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %stat : memref<2048x1024xf32>, memref<2048xf32>) outs(%out : memref<2048x1024xf32>) {
  ^bb0(%in: f32, %max: f32, %o: f32):
    %d = arith.subf %in, %max : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%stat : memref<2048xf32>)
  %outv = memref.expand_shape %out [[0], [1, 2]] output_shape [2048, 16, 64]
      : memref<2048x1024xf32> into memref<2048x16x64xf32>
  %psum = memref.alloc() : memref<2048x64xf32>
  linalg.fill ins(%zero : f32) outs(%psum : memref<2048x64xf32>)
  linalg.generic {indexing_maps = [#x, #p], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%outv : memref<2048x16x64xf32>) outs(%psum : memref<2048x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%psum : memref<2048x64xf32>) outs(%stat : memref<2048xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %psum : memref<2048x64xf32>
  linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%out, %stat : memref<2048x1024xf32>, memref<2048xf32>) outs(%out : memref<2048x1024xf32>) {
  ^bb0(%in: f32, %sum: f32, %o: f32):
    %q = arith.divf %in, %sum : f32
    linalg.yield %q : f32
  }
  memref.dealloc %stat : memref<2048xf32>
  return %out : memref<2048x1024xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>
#first_row = affine_map<(i, j) -> (0, j)>

// The second op reads row 0 of the buffer the first writes, for every row
// it writes itself: a tile would read a row that another thread may not
// have written yet. No chain: a team each.
// CHECK-LABEL: func.func @reads_another_row
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK: omp.terminator
// CHECK: omp.parallel {
// CHECK: math.log
// CHECK: omp.terminator
func.func @reads_another_row(%x: memref<512x512xf32>) -> memref<512x512xf32> {
  %a = memref.alloc() : memref<512x512xf32>
  %b = memref.alloc() : memref<512x512xf32>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x512xf32>) outs(%a : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#first_row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<512x512xf32>) outs(%b : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %l = math.log %in : f32
    linalg.yield %l : f32
  }
  memref.dealloc %a : memref<512x512xf32>
  return %b : memref<512x512xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>

// The second op reads the first one's output through a reinterpret_cast
// whose rows are half rows of the buffer: its row i is in row i / 2 of the
// buffer, which another thread may still write. No chain.
// CHECK-LABEL: func.func @reinterpreted_rows
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK: omp.terminator
// CHECK: omp.parallel {
// CHECK: math.log
// CHECK: omp.terminator
func.func @reinterpreted_rows(%x: memref<512x1024xf32>) -> memref<512x512xf32> {
  %a = memref.alloc() : memref<512x1024xf32>
  %b = memref.alloc() : memref<512x512xf32>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x1024xf32>) outs(%a : memref<512x1024xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  %halves = memref.reinterpret_cast %a to offset: [0], sizes: [512, 512], strides: [512, 1]
      : memref<512x1024xf32> to memref<512x512xf32, strided<[512, 1]>>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%halves : memref<512x512xf32, strided<[512, 1]>>) outs(%b : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %l = math.log %in : f32
    linalg.yield %l : f32
  }
  memref.dealloc %a : memref<512x1024xf32>
  return %b : memref<512x512xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>

// The first op writes its output through a view of negated column stride
// (nx-reversed-views's, a flip run backwards): row i of the view is row i
// of the buffer, which the second op reads in the same tile. One chain.
// CHECK-LABEL: func.func @reversed_rows
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK-NOT: omp.terminator
// CHECK: math.log
// CHECK: omp.terminator
// CHECK-NOT: omp.parallel
func.func @reversed_rows(%x: memref<512x1024xf32>) -> memref<512x1024xf32> {
  %a = memref.alloc() : memref<512x1024xf32>
  %b = memref.alloc() : memref<512x1024xf32>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %a
      : memref<512x1024xf32> -> memref<f32>, index, index, index, index, index
  %flipped = memref.reinterpret_cast %base to offset: [1023], sizes: [512, 1024], strides: [1024, -1]
      : memref<f32> to memref<512x1024xf32, strided<[1024, -1], offset: 1023>>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x1024xf32>) outs(%flipped : memref<512x1024xf32, strided<[1024, -1], offset: 1023>>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<512x1024xf32>) outs(%b : memref<512x1024xf32>) {
  ^bb0(%in: f32, %o: f32):
    %l = math.log %in : f32
    linalg.yield %l : f32
  }
  memref.dealloc %a : memref<512x1024xf32>
  return %b : memref<512x1024xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>

// The same view one element further: its row i ends at the first element
// of the buffer's row i + 1, which another thread's tile may read (its last
// row would end past the buffer: nx makes no such view, but a cast may
// state one). No chain.
// CHECK-LABEL: func.func @reversed_rows_across
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK: omp.terminator
// CHECK: omp.parallel {
// CHECK: math.log
// CHECK: omp.terminator
func.func @reversed_rows_across(%x: memref<512x1024xf32>) -> memref<512x1024xf32> {
  %a = memref.alloc() : memref<512x1024xf32>
  %b = memref.alloc() : memref<512x1024xf32>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %a
      : memref<512x1024xf32> -> memref<f32>, index, index, index, index, index
  %flipped = memref.reinterpret_cast %base to offset: [1024], sizes: [512, 1024], strides: [1024, -1]
      : memref<f32> to memref<512x1024xf32, strided<[1024, -1], offset: 1024>>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x1024xf32>) outs(%flipped : memref<512x1024xf32, strided<[1024, -1], offset: 1024>>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<512x1024xf32>) outs(%b : memref<512x1024xf32>) {
  ^bb0(%in: f32, %o: f32):
    %l = math.log %in : f32
    linalg.yield %l : f32
  }
  memref.dealloc %a : memref<512x1024xf32>
  return %b : memref<512x1024xf32>
}

// -----

#planes = affine_map<(i, j, k) -> (i, j, k)>
#rows = affine_map<(i, j) -> (i, j)>

// The second op reads plane 0 of the first one's output, a subview that
// drops dimension 0: its row i is row i of that plane, not of the buffer.
// No chain.
// CHECK-LABEL: func.func @first_plane
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK: omp.terminator
// CHECK: omp.parallel {
// CHECK: math.log
// CHECK: omp.terminator
func.func @first_plane(%x: memref<512x512x256xf32>) -> memref<512x256xf32> {
  %a = memref.alloc() : memref<512x512x256xf32>
  %b = memref.alloc() : memref<512x256xf32>
  linalg.generic {indexing_maps = [#planes, #planes], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<512x512x256xf32>) outs(%a : memref<512x512x256xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  %plane = memref.subview %a[0, 0, 0] [1, 512, 256] [1, 1, 1]
      : memref<512x512x256xf32> to memref<512x256xf32, strided<[256, 1]>>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%plane : memref<512x256xf32, strided<[256, 1]>>) outs(%b : memref<512x256xf32>) {
  ^bb0(%in: f32, %o: f32):
    %l = math.log %in : f32
    linalg.yield %l : f32
  }
  memref.dealloc %a : memref<512x512x256xf32>
  return %b : memref<512x256xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>

// The first op writes a buffer that was passed in, which may share memory
// with %x: no chain.
// CHECK-LABEL: func.func @writes_argument
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK: omp.terminator
// CHECK: omp.parallel {
// CHECK: math.log
// CHECK: omp.terminator
func.func @writes_argument(%x: memref<512x512xf32>, %a: memref<512x512xf32>) -> memref<512x512xf32> {
  %b = memref.alloc() : memref<512x512xf32>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x512xf32>) outs(%a : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<512x512xf32>) outs(%b : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %l = math.log %in : f32
    linalg.yield %l : f32
  }
  return %b : memref<512x512xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>

// The second op reads the first one's output through memref.transpose,
// which is no view-like op: its root could be any buffer. No chain.
// CHECK-LABEL: func.func @reads_transposed_output
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK: omp.terminator
// CHECK: omp.parallel {
// CHECK: math.log
// CHECK: omp.terminator
func.func @reads_transposed_output(%x: memref<512x512xf32>) -> memref<512x512xf32> {
  %a = memref.alloc() : memref<512x512xf32>
  %b = memref.alloc() : memref<512x512xf32>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x512xf32>) outs(%a : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  %t = memref.transpose %a (i, j) -> (j, i) : memref<512x512xf32> to memref<512x512xf32, strided<[1, 512]>>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<512x512xf32, strided<[1, 512]>>) outs(%b : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %l = math.log %in : f32
    linalg.yield %l : f32
  }
  memref.dealloc %a : memref<512x512xf32>
  return %b : memref<512x512xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>

// A call between two ops (it could read anything) ends the chain, as do
// ops of another extent of loop 0: here no chain has two teams' ops.
// CHECK-LABEL: func.func @interrupted
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK: omp.terminator
// CHECK: call @observe
// CHECK: omp.parallel {
// CHECK: math.log
// CHECK: omp.terminator
// CHECK: omp.parallel {
// CHECK: math.sqrt
// CHECK: omp.terminator
func.func private @observe(memref<512x512xf32>)
func.func @interrupted(%x: memref<512x512xf32>) -> memref<256x512xf32> {
  %a = memref.alloc() : memref<512x512xf32>
  %b = memref.alloc() : memref<512x512xf32>
  %c = memref.alloc() : memref<256x512xf32>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x512xf32>) outs(%a : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  func.call @observe(%a) : (memref<512x512xf32>) -> ()
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<512x512xf32>) outs(%b : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %l = math.log %in : f32
    linalg.yield %l : f32
  }
  %half = memref.subview %b[0, 0] [256, 512] [1, 1] : memref<512x512xf32> to memref<256x512xf32, strided<[512, 1]>>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%half : memref<256x512xf32, strided<[512, 1]>>) outs(%c : memref<256x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = math.sqrt %in : f32
    linalg.yield %s : f32
  }
  memref.dealloc %a : memref<512x512xf32>
  memref.dealloc %b : memref<512x512xf32>
  return %c : memref<256x512xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>

// Two ops along the same 64 rows that cover 8192 points together, fewer
// than min-work: they stay serial, as each would alone.
// CHECK-LABEL: func.func @small
// CHECK-NOT: omp.parallel
func.func @small(%x: memref<64x64xf32>) -> memref<64x64xf32> {
  %a = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x64xf32>) outs(%a : memref<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x64xf32>) outs(%a : memref<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %l = math.log %in : f32
    linalg.yield %l : f32
  }
  return %a : memref<64x64xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>

// Dynamic sizes that nothing proves equal: %x's rows and %n. Op by op,
// each team compares its op's size with min-work at run time.
// CHECK-LABEL: func.func @dynamic
// CHECK: omp.parallel if(
// CHECK: math.exp
// CHECK: omp.terminator
// CHECK: omp.parallel if(
// CHECK: math.log
// CHECK: omp.terminator
func.func @dynamic(%x: memref<?x512xf32>, %n: index) -> memref<?x512xf32> {
  %a = memref.alloc(%n) : memref<?x512xf32>
  %b = memref.alloc(%n) : memref<?x512xf32>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x512xf32>) outs(%a : memref<?x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<?x512xf32>) outs(%b : memref<?x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %l = math.log %in : f32
    linalg.yield %l : f32
  }
  memref.dealloc %a : memref<?x512xf32>
  return %b : memref<?x512xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// A dynamic number of rows that is the same for every op: the buffers are
// allocated with %x's. One team, over %x's rows, whose if clause compares
// the chain's points (the exponentials', the fill's, the sums', the
// logarithms') with min-work at run time, as the pass does op by op; tiles
// of 8 rows of 512 (4096 points), the last one cut at the rows' end.
// CHECK-LABEL: func.func @dynamic_same_rows
// CHECK-SAME: (%[[X:.*]]: memref<?x512xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[ROWS:.*]] = memref.dim %[[X]], %[[C0]]
// CHECK: %[[MIN:.*]] = arith.constant 65536 : index
// CHECK: %[[BIG:.*]] = arith.cmpi sge, %{{.*}}, %[[MIN]] : index
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: omp.parallel if(%[[BIG]])
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%[[C0]]) to (%[[ROWS]]) step (%[[C8]])
// CHECK: affine.min #{{.*}}(%[[I]])[%[[ROWS]]]
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: math.log
// CHECK: omp.yield
// CHECK-NOT: omp.parallel
// CHECK: return
func.func @dynamic_same_rows(%x: memref<?x512xf32>) -> memref<?x512xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x512xf32>
  %a = memref.alloc(%n) : memref<?x512xf32>
  %s = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?x512xf32>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x512xf32>) outs(%a : memref<?x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%s : memref<?xf32>)
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x512xf32>) outs(%s : memref<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %t = arith.addf %in, %acc : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a, %s : memref<?x512xf32>, memref<?xf32>) outs(%b : memref<?x512xf32>) {
  ^bb0(%in: f32, %t: f32, %o: f32):
    %d = arith.subf %in, %t : f32
    %l = math.log %d : f32
    linalg.yield %l : f32
  }
  memref.dealloc %a : memref<?x512xf32>
  memref.dealloc %s : memref<?xf32>
  return %b : memref<?x512xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// The same ops, their rows read from a dimension 5 that %x does not have
// (undefined behavior, which upstream's value bounds crash on; found by
// fuzzing): no chain, a team per op.
// CHECK-LABEL: func.func @missing_dimension
// CHECK: omp.parallel
// CHECK: math.exp
// CHECK: omp.parallel
// CHECK: arith.addf
// CHECK: omp.parallel
// CHECK: math.log
func.func @missing_dimension(%x: memref<?x512xf32>) -> memref<?x512xf32> {
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c5 : memref<?x512xf32>
  %a = memref.alloc(%n) : memref<?x512xf32>
  %s = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?x512xf32>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x512xf32>) outs(%a : memref<?x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%s : memref<?xf32>)
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x512xf32>) outs(%s : memref<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %t = arith.addf %in, %acc : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a, %s : memref<?x512xf32>, memref<?xf32>) outs(%b : memref<?x512xf32>) {
  ^bb0(%in: f32, %t: f32, %o: f32):
    %d = arith.subf %in, %t : f32
    %l = math.log %d : f32
    linalg.yield %l : f32
  }
  memref.dealloc %a : memref<?x512xf32>
  memref.dealloc %s : memref<?xf32>
  return %b : memref<?x512xf32>
}

// -----

#rows = affine_map<(i, j) -> (i, j)>

// What follows the chain's last op stays where it is: the allocation after
// it is made after the team, and the chain does not take the transpose,
// which shares its output's columns.
// CHECK-LABEL: func.func @ends_at_last_op
// CHECK: omp.parallel {
// CHECK: math.exp
// CHECK: math.log
// CHECK: omp.terminator
// CHECK-NEXT: }
// CHECK-NEXT: memref.alloc() : memref<512x512xf32>
// CHECK: omp.parallel {
// CHECK: linalg.transpose
func.func @ends_at_last_op(%x: memref<512x512xf32>) -> memref<512x512xf32> {
  %a = memref.alloc() : memref<512x512xf32>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x512xf32>) outs(%a : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<512x512xf32>) outs(%a : memref<512x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    %l = math.log %in : f32
    linalg.yield %l : f32
  }
  %t = memref.alloc() : memref<512x512xf32>
  linalg.transpose ins(%a : memref<512x512xf32>) outs(%t : memref<512x512xf32>) permutation = [1, 0]
  memref.dealloc %a : memref<512x512xf32>
  return %t : memref<512x512xf32>
}
