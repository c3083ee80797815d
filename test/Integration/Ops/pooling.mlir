// The pooling ops of bench/models: a 2x2 max-pool of stride 2
// (linalg.pooling_nhwc_max) and a 3x3 average pool of stride 2
// (linalg.pooling_nhwc_sum and a division).
// Each runs through nx-runner on the inputs of models.py and agrees with
// models.py's NumPy reference in float64 (and PyTorch's, where it is
// installed) within 1e-4 of the output's largest magnitude: with the
// default pipeline, and with loops only, serial reductions and libm's math.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run max-pool \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.max-pool | FileCheck %s --check-prefix=MAX-POOL
// RUN: %numpy_python %nx_src_root/bench/models/models.py run max-pool \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.max-pool-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=MAX-POOL
// RUN: %numpy_python %nx_src_root/bench/models/models.py run avg-pool \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.avg-pool | FileCheck %s --check-prefix=AVG-POOL
// RUN: %numpy_python %nx_src_root/bench/models/models.py run avg-pool \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.avg-pool-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=AVG-POOL

// MAX-POOL: max-pool: nx vs NumPy (float64): max error
// AVG-POOL: avg-pool: nx vs NumPy (float64): max error
