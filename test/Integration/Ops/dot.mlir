// The dot product of bench/models (two vectors of 2^22 f32, linalg.dot)
// runs through nx-runner on the inputs of models.py and agrees with
// models.py's NumPy reference in float64 (and PyTorch's, where it is
// installed) within 1e-4 of the result's magnitude: split into vector
// partial sums shared among one and three threads, and in the serial order
// (strict-reductions). It is no GEMM call: a GEMM of one element ran on one
// thread.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run dot \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.dot-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run dot \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.dot-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run dot \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.dot-strict \
// RUN:   --flag=--strict-reductions | FileCheck %s
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/dot.mlir --nx-lower-to-cpu \
// RUN:   --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=SHARED

// CHECK: dot: nx vs NumPy (float64): max error
// SHARED: NxLinalgToBlasPass
// SHARED-NEXT: (S) 0 contractions
// SHARED: (S) 1 outer-reductions
// SHARED: NxSplitReductionsPass
// SHARED-NEXT: (S) 1 split
