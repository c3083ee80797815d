// RUN: nx-opt %s -split-input-file -nx-prepare-entry-points -verify-diagnostics

// The C interface of @main is defined under this name by the conversion to
// LLVM.
// expected-error @+1 {{'func.func' op uses the name '_mlir_ciface_main', which the C interface of public function @main takes}}
func.func private @_mlir_ciface_main(%x: i32) -> i32 {
  return %x : i32
}

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
