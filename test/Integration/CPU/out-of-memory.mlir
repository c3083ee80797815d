// A buffer the allocator refuses fails the run with RESOURCE_EXHAUSTED,
// naming its size and the op, in both runners and with exit code 1: the
// compiled code checks what malloc returned instead of writing through NULL
// (a segfault before). The entries allocate 4 * 10^11 bytes, more than
// memory and swap. --keep-going shows the process going on after a failed
// run.
//
// RUN: nx-compile %s -o %t.so
// RUN: not nx-runner %s --input='[1, 2, 3, 4]:tensor<4xf32>' 2>&1 | FileCheck %s --check-prefix=TOP
// RUN: not nxrt-run %t.so --input='[1, 2, 3, 4]:tensor<4xf32>' 2>&1 | FileCheck %s --check-prefix=TOP
// TOP: error: out of memory at {{.*}}out-of-memory.mlir:[[@LINE+11]]:12: cannot allocate a buffer of 400000000000 bytes
//
// RUN: not nx-runner %s --keep-going --repeat=2 --input='[1, 2, 3, 4]:tensor<4xf32>' 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: run 1: error: out of memory at
// AGAIN: run 2: error: out of memory at
// AGAIN: 0 of 2 runs succeeded
//
// A callee that runs out stops its caller too.
// RUN: not nxrt-run %t.so --entry=caller --input='[1, 2, 3, 4]:tensor<4xf32>' 2>&1 | FileCheck %s --check-prefix=TOP

func.func @main(%x: tensor<4xf32>) -> tensor<100000000000xf32> {
  %empty = tensor.empty() : tensor<100000000000xf32>
  %one = arith.constant 1.0 : f32
  %ones = linalg.fill ins(%one : f32) outs(%empty : tensor<100000000000xf32>) -> tensor<100000000000xf32>
  return %ones : tensor<100000000000xf32>
}

func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %big = call @main(%x) : (tensor<4xf32>) -> tensor<100000000000xf32>
  %part = tensor.extract_slice %big[0] [4] [1] : tensor<100000000000xf32> to tensor<4xf32>
  %sum = arith.addf %part, %x : tensor<4xf32>
  return %sum : tensor<4xf32>
}
