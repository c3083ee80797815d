// linalg.batch_matmul of bench/models, plain and with its first or its
// second operand read transposed through indexing_maps (on BLAS with
// permuted strides, or as loops).
// Each runs through nx-runner on the inputs of models.py and agrees with
// models.py's NumPy reference in float64 (and PyTorch's, where it is
// installed) within 1e-4 of the output's largest magnitude: with the
// default pipeline, and with loops only, serial reductions and libm's math.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run batch-matmul \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.batch-matmul | FileCheck %s --check-prefix=BATCH-MATMUL
// RUN: %numpy_python %nx_src_root/bench/models/models.py run batch-matmul \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.batch-matmul-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=BATCH-MATMUL
// RUN: %numpy_python %nx_src_root/bench/models/models.py run batch-matmul-transposed \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.batch-matmul-transposed | FileCheck %s --check-prefix=BATCH-MATMUL-TRANSPOSED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run batch-matmul-transposed \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.batch-matmul-transposed-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=BATCH-MATMUL-TRANSPOSED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run batch-matmul-transposed-a \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.batch-matmul-transposed-a | FileCheck %s --check-prefix=BATCH-MATMUL-TRANSPOSED-A
// RUN: %numpy_python %nx_src_root/bench/models/models.py run batch-matmul-transposed-a \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.batch-matmul-transposed-a-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=BATCH-MATMUL-TRANSPOSED-A

// BATCH-MATMUL: batch-matmul: nx vs NumPy (float64): max error
// BATCH-MATMUL-TRANSPOSED: batch-matmul-transposed: nx vs NumPy (float64): max error
// BATCH-MATMUL-TRANSPOSED-A: batch-matmul-transposed-a: nx vs NumPy (float64): max error
