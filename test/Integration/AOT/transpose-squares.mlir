// Transposes compiled for AVX2 (x86-64-v3, run here) move every element to
// its place: nx-vectorize-linalg cuts them into blocks whose output rows
// fill a cache line (16 f32 columns, two squares of eight lanes) and writes
// each square's transpose as a network of shuffles. The 1024x1024 result
// (4 MiB, only returned) is written with non-temporal stores, at 1 and 3
// threads; the others are small, cached, of other element types (f64
// squares of four, i16 squares of sixteen, i8 squares of 32 whose rows
// already fill half a line and stay as they are), of an extent no tile
// divides, or a permutation of the last two of three dimensions. Two more,
// f64 and i8, are large enough for their threads to share strips of the
// columns they write (nx-linalg-to-openmp), run at 3 threads.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %numpy_python %S/Inputs/transpose_squares.py make %t
// RUN: nx-compile %s --mcpu=x86-64-v3 -o %t/squares.so
// RUN: nxrt-run %t/squares.so --entry=transpose_f32 --input=@%t/transpose_f32.in.npy \
// RUN:   --compute-threads=1 --quiet --output=%t/transpose_f32.out1.npy
// RUN: nxrt-run %t/squares.so --entry=transpose_f32 --input=@%t/transpose_f32.in.npy \
// RUN:   --compute-threads=3 --quiet --output=%t/transpose_f32.out3.npy
// RUN: nxrt-run %t/squares.so --entry=transpose_f32_small --input=@%t/transpose_f32_small.in.npy \
// RUN:   --quiet --output=%t/transpose_f32_small.out.npy
// RUN: nxrt-run %t/squares.so --entry=transpose_f32_ragged --input=@%t/transpose_f32_ragged.in.npy \
// RUN:   --quiet --output=%t/transpose_f32_ragged.out.npy
// RUN: nxrt-run %t/squares.so --entry=transpose_f64 --input=@%t/transpose_f64.in.npy \
// RUN:   --quiet --output=%t/transpose_f64.out.npy
// RUN: nxrt-run %t/squares.so --entry=transpose_i16 --input=@%t/transpose_i16.in.npy \
// RUN:   --quiet --output=%t/transpose_i16.out.npy
// RUN: nxrt-run %t/squares.so --entry=transpose_i8 --input=@%t/transpose_i8.in.npy \
// RUN:   --quiet --output=%t/transpose_i8.out.npy
// RUN: nxrt-run %t/squares.so --entry=transpose_f64_strips --input=@%t/transpose_f64_strips.in.npy \
// RUN:   --compute-threads=3 --quiet --output=%t/transpose_f64_strips.out.npy
// RUN: nxrt-run %t/squares.so --entry=transpose_i8_strips --input=@%t/transpose_i8_strips.in.npy \
// RUN:   --compute-threads=3 --quiet --output=%t/transpose_i8_strips.out.npy
// RUN: nxrt-run %t/squares.so --entry=permute_f32 --input=@%t/permute_f32.in.npy \
// RUN:   --quiet --output=%t/permute_f32.out.npy
// RUN: %numpy_python %S/Inputs/transpose_squares.py check %t | FileCheck %s

// CHECK: permute_f32.out.npy: 0 wrong
// CHECK-NEXT: transpose_f32.out1.npy: 0 wrong
// CHECK-NEXT: transpose_f32.out3.npy: 0 wrong
// CHECK-NEXT: transpose_f32_ragged.out.npy: 0 wrong
// CHECK-NEXT: transpose_f32_small.out.npy: 0 wrong
// CHECK-NEXT: transpose_f64.out.npy: 0 wrong
// CHECK-NEXT: transpose_f64_strips.out.npy: 0 wrong
// CHECK-NEXT: transpose_i16.out.npy: 0 wrong
// CHECK-NEXT: transpose_i8.out.npy: 0 wrong
// CHECK-NEXT: transpose_i8_strips.out.npy: 0 wrong

func.func @transpose_f32(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %e = tensor.empty() : tensor<1024x1024xf32>
  %t = linalg.transpose ins(%x : tensor<1024x1024xf32>)
                        outs(%e : tensor<1024x1024xf32>) permutation = [1, 0]
  return %t : tensor<1024x1024xf32>
}

func.func @transpose_f32_small(%x: tensor<96x64xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %t = linalg.transpose ins(%x : tensor<96x64xf32>)
                        outs(%e : tensor<64x96xf32>) permutation = [1, 0]
  return %t : tensor<64x96xf32>
}

func.func @transpose_f32_ragged(%x: tensor<72x40xf32>) -> tensor<40x72xf32> {
  %e = tensor.empty() : tensor<40x72xf32>
  %t = linalg.transpose ins(%x : tensor<72x40xf32>)
                        outs(%e : tensor<40x72xf32>) permutation = [1, 0]
  return %t : tensor<40x72xf32>
}

func.func @transpose_f64(%x: tensor<96x64xf64>) -> tensor<64x96xf64> {
  %e = tensor.empty() : tensor<64x96xf64>
  %t = linalg.transpose ins(%x : tensor<96x64xf64>)
                        outs(%e : tensor<64x96xf64>) permutation = [1, 0]
  return %t : tensor<64x96xf64>
}

func.func @transpose_i16(%x: tensor<96x64xi16>) -> tensor<64x96xi16> {
  %e = tensor.empty() : tensor<64x96xi16>
  %t = linalg.transpose ins(%x : tensor<96x64xi16>)
                        outs(%e : tensor<64x96xi16>) permutation = [1, 0]
  return %t : tensor<64x96xi16>
}

func.func @transpose_i8(%x: tensor<128x64xi8>) -> tensor<64x128xi8> {
  %e = tensor.empty() : tensor<64x128xi8>
  %t = linalg.transpose ins(%x : tensor<128x64xi8>)
                        outs(%e : tensor<64x128xi8>) permutation = [1, 0]
  return %t : tensor<64x128xi8>
}

func.func @transpose_f64_strips(%x: tensor<512x1024xf64>) -> tensor<1024x512xf64> {
  %e = tensor.empty() : tensor<1024x512xf64>
  %t = linalg.transpose ins(%x : tensor<512x1024xf64>)
                        outs(%e : tensor<1024x512xf64>) permutation = [1, 0]
  return %t : tensor<1024x512xf64>
}

func.func @transpose_i8_strips(%x: tensor<1024x640xi8>) -> tensor<640x1024xi8> {
  %e = tensor.empty() : tensor<640x1024xi8>
  %t = linalg.transpose ins(%x : tensor<1024x640xi8>)
                        outs(%e : tensor<640x1024xi8>) permutation = [1, 0]
  return %t : tensor<640x1024xi8>
}

func.func @permute_f32(%x: tensor<2x96x64xf32>) -> tensor<2x64x96xf32> {
  %e = tensor.empty() : tensor<2x64x96xf32>
  %t = linalg.transpose ins(%x : tensor<2x96x64xf32>)
                        outs(%e : tensor<2x64x96xf32>) permutation = [0, 2, 1]
  return %t : tensor<2x64x96xf32>
}
