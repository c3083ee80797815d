// The reductions of bench/models along each kind of axis (a column sum,
// whose rows nx-linalg-to-openmp shares among workers, each with a row of
// partial sums; a sum over a batch of 16 wide rows, whose columns threads
// share; a row sum; a maximum over a middle axis), through nx-runner
// on the inputs of models.py, agree with models.py's NumPy reference in
// float64 (and PyTorch's, where it is installed) within 1e-4 of the output's
// largest magnitude: on one compute thread and on three (512 blocks of rows
// shared unevenly), and with serial reductions.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run column-sum \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.column-sum-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s --check-prefix=COLUMN-SUM
// RUN: %numpy_python %nx_src_root/bench/models/models.py run column-sum \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.column-sum-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=COLUMN-SUM
// RUN: %numpy_python %nx_src_root/bench/models/models.py run column-sum \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.column-sum-strict \
// RUN:   --flag=--strict-reductions | FileCheck %s --check-prefix=COLUMN-SUM
// RUN: %numpy_python %nx_src_root/bench/models/models.py run batch-sum \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.batch-sum \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=BATCH-SUM
// RUN: %numpy_python %nx_src_root/bench/models/models.py run row-sum \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.row-sum \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=ROW-SUM
// RUN: %numpy_python %nx_src_root/bench/models/models.py run middle-max \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.middle-max \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=MIDDLE-MAX
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/column-sum.mlir --nx-lower-to-cpu \
// RUN:   --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATISTICS

// COLUMN-SUM: column-sum: nx vs NumPy (float64): max error
// BATCH-SUM: batch-sum: nx vs NumPy (float64): max error
// ROW-SUM: row-sum: nx vs NumPy (float64): max error
// MIDDLE-MAX: middle-max: nx vs NumPy (float64): max error
// STATISTICS: 1 outer-reductions
