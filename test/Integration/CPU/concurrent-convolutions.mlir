// Convolutions on oneDNN run from 4 host threads at once: every run must
// produce the first run's results (nx-runner compares them all). NHWC runs
// oneDNN's direct kernel on the caller's layout; NCHW with 64 channels
// runs it on the kernel's own layout, reordered around it. Every primitive
// gets a scratchpad of the calling thread's own: one shared by the process
// let concurrent runs write over each other's partial sums.
// RUN: nx-runner %s --entry=nhwc --threads=4 --repeat=10 --compute-threads=1 --quiet | FileCheck %s
// RUN: nx-runner %s --entry=nchw --threads=4 --repeat=10 --compute-threads=1 --quiet | FileCheck %s
// RUN: nx-runner %s --entry=nchw --threads=4 --repeat=10 --compute-threads=2 --quiet | FileCheck %s

// CHECK: all 40 runs (4 threads x 10) produced identical results

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

// Values that differ from element to element: ((i + 7j + 3k + 5l) mod 9) - 4.
func.func private @pattern(%shape: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%shape : tensor<?x?x?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %l = linalg.index 3 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c9 = arith.constant 9 : index
    %j7 = arith.muli %j, %c7 : index
    %k3 = arith.muli %k, %c3 : index
    %l5 = arith.muli %l, %c5 : index
    %s0 = arith.addi %i, %j7 : index
    %s1 = arith.addi %s0, %k3 : index
    %s2 = arith.addi %s1, %l5 : index
    %m = arith.remui %s2, %c9 : index
    %mi = arith.index_cast %m : index to i32
    %v = arith.sitofp %mi : i32 to f32
    %c4f = arith.constant 4.0 : f32
    %r = arith.subf %v, %c4f : f32
    linalg.yield %r : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @nhwc() -> tensor<1x24x24x64xf32> {
  %zero = arith.constant 0.0 : f32
  %xe = tensor.empty() : tensor<1x26x26x64xf32>
  %xd = tensor.cast %xe : tensor<1x26x26x64xf32> to tensor<?x?x?x?xf32>
  %xp = call @pattern(%xd) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %x = tensor.cast %xp : tensor<?x?x?x?xf32> to tensor<1x26x26x64xf32>
  %we = tensor.empty() : tensor<3x3x64x64xf32>
  %wd = tensor.cast %we : tensor<3x3x64x64xf32> to tensor<?x?x?x?xf32>
  %wp = call @pattern(%wd) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %w = tensor.cast %wp : tensor<?x?x?x?xf32> to tensor<3x3x64x64xf32>
  %e = tensor.empty() : tensor<1x24x24x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x24x64xf32>) -> tensor<1x24x24x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x26x26x64xf32>, tensor<3x3x64x64xf32>) outs(%z : tensor<1x24x24x64xf32>) -> tensor<1x24x24x64xf32>
  return %c : tensor<1x24x24x64xf32>
}

func.func @nchw() -> tensor<1x64x24x24xf32> {
  %zero = arith.constant 0.0 : f32
  %xe = tensor.empty() : tensor<1x64x26x26xf32>
  %xd = tensor.cast %xe : tensor<1x64x26x26xf32> to tensor<?x?x?x?xf32>
  %xp = call @pattern(%xd) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %x = tensor.cast %xp : tensor<?x?x?x?xf32> to tensor<1x64x26x26xf32>
  %we = tensor.empty() : tensor<64x64x3x3xf32>
  %wd = tensor.cast %we : tensor<64x64x3x3xf32> to tensor<?x?x?x?xf32>
  %wp = call @pattern(%wd) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %w = tensor.cast %wp : tensor<?x?x?x?xf32> to tensor<64x64x3x3xf32>
  %e = tensor.empty() : tensor<1x64x24x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x24x24xf32>) -> tensor<1x64x24x24xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x26x26xf32>, tensor<64x64x3x3xf32>) outs(%z : tensor<1x64x24x24xf32>) -> tensor<1x64x24x24xf32>
  return %c : tensor<1x64x24x24xf32>
}
