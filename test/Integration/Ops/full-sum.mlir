// The sum of a whole 2048x2048 matrix of bench/models runs through
// nx-runner on the inputs of models.py and agrees with models.py's NumPy
// reference in float64 (and PyTorch's, where it is installed) within 1e-3 of
// the result: on one compute thread and on three (the vector's split sums
// shared among workers), and as one serial sum (--strict-reductions).
// nx-lower-to-cpu collapses its two reduced dimensions into one, splits the
// sum into vector-wide partial sums and shares their rows.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run full-sum \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.full-sum-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run full-sum \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.full-sum-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run full-sum \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.full-sum-strict \
// RUN:   --flag=--strict-reductions | FileCheck %s
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/full-sum.mlir --nx-lower-to-cpu \
// RUN:   --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATISTICS

// CHECK: full-sum: nx vs NumPy (float64): max error
// STATISTICS: 1 collapsed-reductions
// STATISTICS: 1 outer-reductions
// STATISTICS: 1 parallel-nests
// STATISTICS: 1 split
