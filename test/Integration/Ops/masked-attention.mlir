// Causal attention of bench/models (batch_matmul with a transposed operand,
// a mask of -inf built from linalg.index, softmax, batch_matmul) runs
// through nx-runner on the inputs of models.py and agrees with models.py's
// NumPy reference in float64 (and PyTorch's, where it is installed) within
// 1e-4 of the output's largest magnitude: with the default pipeline, and
// with loops only, serial reductions and libm's math.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run masked-attention \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.default | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run masked-attention \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s

// CHECK: masked-attention: nx vs NumPy (float64): max error
