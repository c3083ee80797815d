// RUN: nx-opt %s -split-input-file -nx-linalg-to-openmp='num-threads-function=threads' -verify-diagnostics

// expected-error @+1 {{'func.func' op is named by num-threads-function; expected a func.func of type '() -> i32'}}
func.func private @threads() -> i64

func.func @fill(%y: memref<65536xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<65536xf32>)
  return
}

// -----

// expected-error @+1 {{'llvm.func' op is named by num-threads-function; expected a func.func of type '() -> i32'}}
llvm.func @threads() -> i32

func.func @fill(%y: memref<65536xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<65536xf32>)
  return
}
