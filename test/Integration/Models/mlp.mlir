// bench/models/mlp.mlir, run by nx-runner on the inputs of models.py, agrees
// with models.py's NumPy reference in float64 (and PyTorch's, where it is
// installed) within its tolerance (1e-4 of the output's largest magnitude):
// with the default pipeline, and with loops only, serial reductions and
// libm's math.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run mlp \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.default | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run mlp \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s

// CHECK: mlp: nx vs NumPy (float64): max error
