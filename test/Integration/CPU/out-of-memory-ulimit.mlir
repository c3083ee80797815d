// A buffer that would fit the machine but not the process's address-space
// limit (`ulimit -v`, 4 GiB against 8 GiB) fails the run cleanly too.
//
// UNSUPPORTED: sanitizer
// (a sanitizer's shadow memory does not fit under the limit)
// RUN: nx-compile %s -o %t.so
// RUN: not bash -c 'ulimit -v 4194304 && exec nxrt-run %t.so --input="[1, 2, 3, 4]:tensor<4xf32>"' 2>&1 | FileCheck %s
// CHECK: error: out of memory at {{.*}}out-of-memory-ulimit.mlir:[[@LINE+3]]:12: cannot allocate a buffer of 8589934592 bytes

func.func @main(%x: tensor<4xf32>) -> tensor<2147483648xf32> {
  %empty = tensor.empty() : tensor<2147483648xf32>
  %one = arith.constant 1.0 : f32
  %ones = linalg.fill ins(%one : f32) outs(%empty : tensor<2147483648xf32>) -> tensor<2147483648xf32>
  return %ones : tensor<2147483648xf32>
}
