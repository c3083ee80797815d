 // pipeline: nx-segment-callbacks{device=cuda},nx-strip-transfers,nx-lower-to-cpu
// The LLVM dialect's verifier accepts a global of a struct that holds a
// tensor, which the passes leave as it is; upstream's translation to LLVM
// IR then crashes on it (mlir-translate --mlir-to-llvmir does, on the
// global alone). The harness must not translate such an input, nor call
// the crash nx's.
llvm.mlir.global internal @tensors_stage0() : !llvm.struct<(ptr, ptr, array<1 x tensor<16x16xi8>>)> {
  %0 = llvm.mlir.zero : !llvm.struct<(ptr, ptr, array<1 x tensor<16x16xi8>>)>
  llvm.return %0 : !llvm.struct<(ptr, ptr, array<1 x tensor<16x16xi8>>)>
}
func.func @tensors(%t: tensor<8xf32>, %x: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %s = tensor.extract_slice %t[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %y = arith.addf %x, %x : f32
  %i = tensor.insert %y into %s[%c0] : tensor<4xf32>
  return %i : tensor<4xf32>
}
