// 24 random products that no library takes (seeded: the same ones every
// run), compiled once with --blas=false into register tiles and run at one
// and three threads, equal NumPy's exactly (Inputs/random_contractions.py
// says which shapes, types and layouts it draws). Random shapes found a
// crash the hand-written tests missed: two row tiles in one block (this
// seed draws it; the compile crashed before the fix).
// REQUIRES: numpy
// RUN: rm -rf %t && %numpy_python %S/Inputs/random_contractions.py \
// RUN:   --tools=%nx_tools --dir=%t --seed=2 --cases=24 | FileCheck %s
// CHECK-NOT: WRONG
// CHECK: {{^}}0 wrong
