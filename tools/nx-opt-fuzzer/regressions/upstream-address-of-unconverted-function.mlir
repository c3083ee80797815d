 // pipeline: nx-linalg-to-dnnl,convert-to-llvm{filter-dialects=nx,func,memref}
// nx-linalg-to-dnnl makes the convolution a oneDNN call. Upstream's
// convert-to-llvm then lowers the func.constant to an llvm.mlir.addressof of
// @referenced, whose !nx.token signature it does not convert, so @referenced
// stays a func.func and the address does not verify. Upstream does the same
// to a function of tensors with no nx pass or type in the pipeline; the
// harness must not call it nx's.
func.func @conv(%in: memref<1x5x5x2xf32>, %filter: memref<3x3x2x2xf32>, %out: memref<1x3x3x2xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x3x3x2xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%in, %filter : memref<1x5x5x2xf32>, memref<3x3x2x2xf32>) outs(%out : memref<1x3x3x2xf32>)
  return
}
func.func @referenced(%t: !nx.token) -> !nx.token {
  return %t : !nx.token
}
func.func @user() -> ((!nx.token) -> !nx.token) {
  %f = func.constant @referenced : (!nx.token) -> !nx.token
  return %f : (!nx.token) -> !nx.token
}
