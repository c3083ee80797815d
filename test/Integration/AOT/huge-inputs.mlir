// Inputs larger than memory and .npy headers that claim more than their
// file holds fail with a clear message and exit code 1 in both runners:
// nothing aborts, and a header's claim is checked against the file before
// anything is allocated for it (a 1 GiB claim used to be allocated and
// zeroed first).
//
// RUN: nx-compile %s -o %t.so
// RUN: printf '\223NUMPY\001\000\166\000%%-117s\n0123456789abcdef' "{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000,), }" > %t.huge.npy
// RUN: printf '\223NUMPY\001\000\166\000%%-117s\n0123456789abcdef' "{'descr': '<f4', 'fortran_order': False, 'shape': (268435456,), }" > %t.gib.npy
//
// RUN: not nx-runner %s --input=100000000000xf32=1 --input='[1]:tensor<1xf32>' 2>&1 | FileCheck %s --check-prefix=LITERAL
// RUN: not nxrt-run %t.so --input=100000000000xf32=1 --input='[1]:tensor<1xf32>' 2>&1 | FileCheck %s --check-prefix=LITERAL
// LITERAL: error: --input #0: RESOURCE_EXHAUSTED: out of memory for tensor<100000000000xf32> (400000000000 bytes)
//
// RUN: not nx-runner %s --input=@%t.huge.npy --input='[1]:tensor<1xf32>' 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not nxrt-run %t.so --input=@%t.huge.npy --input='[1]:tensor<1xf32>' 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: --input #0: '{{.*}}.huge.npy' is not a valid .npy file: expected 400000000000 bytes of data, found 16
//
// RUN: not nxrt-run %t.so --input=@%t.gib.npy --input='[1]:tensor<1xf32>' 2>&1 | FileCheck %s --check-prefix=GIB
// GIB: error: --input #0: '{{.*}}.gib.npy' is not a valid .npy file: expected 1073741824 bytes of data, found 16

func.func @main(%x: tensor<?xf32>, %y: tensor<1xf32>) -> tensor<1xf32> {
  return %y : tensor<1xf32>
}
