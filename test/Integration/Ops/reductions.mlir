// Reductions over every kind of axis: column sums (the outer axis, in
// blocks of vector accumulators), row sums (the inner axis, split into
// vector-wide partial sums) and a maximum over the middle axis of three.
// Each runs through nx-runner on the inputs of models.py and agrees with
// models.py's NumPy reference in float64 (and PyTorch's, where it is
// installed) within 1e-4 of the output's largest magnitude: with the
// default pipeline, and with loops only, serial reductions and libm's math.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run column-sum \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.column-sum | FileCheck %s --check-prefix=COLUMN-SUM
// RUN: %numpy_python %nx_src_root/bench/models/models.py run column-sum \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.column-sum-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=COLUMN-SUM
// RUN: %numpy_python %nx_src_root/bench/models/models.py run row-sum \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.row-sum | FileCheck %s --check-prefix=ROW-SUM
// RUN: %numpy_python %nx_src_root/bench/models/models.py run row-sum \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.row-sum-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=ROW-SUM
// RUN: %numpy_python %nx_src_root/bench/models/models.py run middle-max \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.middle-max | FileCheck %s --check-prefix=MIDDLE-MAX
// RUN: %numpy_python %nx_src_root/bench/models/models.py run middle-max \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.middle-max-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=MIDDLE-MAX

// COLUMN-SUM: column-sum: nx vs NumPy (float64): max error
// ROW-SUM: row-sum: nx vs NumPy (float64): max error
// MIDDLE-MAX: middle-max: nx vs NumPy (float64): max error
