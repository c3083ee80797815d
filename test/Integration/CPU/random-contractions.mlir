// 24 random products (seeded: the same ones every run), compiled once
// with --blas=false into register tiles and run at one
// and three threads, equal NumPy's exactly (Inputs/random_contractions.py
// says which shapes, types and layouts it draws). Random shapes found a
// crash the hand-written tests missed: two row tiles in one block (this
// seed draws it; the compile crashed before the fix).
// REQUIRES: numpy
// RUN: rm -rf %t && %numpy_python %S/Inputs/random_contractions.py \
// RUN:   --tools=%nx_tools --dir=%t --seed=2 --cases=24 | FileCheck %s
//
// The same for AVX2 (256-bit vectors: tiles of 6 rows) and in the serial
// order of --strict-reductions (no fused multiply-adds).
// RUN: %numpy_python %S/Inputs/random_contractions.py --tools=%nx_tools \
// RUN:   --dir=%t.v3 --seed=2 --cases=24 --flag=--mcpu=x86-64-v3 | FileCheck %s
// RUN: %numpy_python %S/Inputs/random_contractions.py --tools=%nx_tools \
// RUN:   --dir=%t.strict --seed=2 --cases=24 --flag=--strict-reductions | FileCheck %s
//
// The products libnxrt takes, through libnxrt: this seed draws 8 of f16
// into f32, 4 of i8 into i32 and 2 each of f32 and f64, with transposed
// operands, batches and single rows or columns (the rest stay tiles).
// RUN: %numpy_python %S/Inputs/random_contractions.py --tools=%nx_tools \
// RUN:   --dir=%t.library --seed=7 --cases=32 --library | FileCheck %s
// CHECK-NOT: WRONG
// CHECK: {{^}}0 wrong
