// linalg.matvec of bench/models (4096x4096 times a vector) runs through
// nx-runner on the inputs of models.py and agrees with models.py's NumPy
// reference in float64 (and PyTorch's, where it is installed) within 1e-4
// of the output's largest magnitude: on libnxrt's GEMM at one compute thread
// and at three (shares of the rows), and as loops with serial reductions.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matvec \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.matvec-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matvec \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.matvec-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matvec \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.matvec-loops \
// RUN:   --flag=--blas=false --flag=--strict-reductions | FileCheck %s

// CHECK: matvec: nx vs NumPy (float64): max error
