// linalg.softmax of bench/models (the named op, over the rows of 2048x1024)
// runs through nx-runner on the inputs of models.py and agrees with
// models.py's NumPy reference in float64 (and PyTorch's, where it is
// installed) within 1e-4 of the output's largest magnitude: on one compute
// thread and on three, and with serial reductions and libm's math.
// nx-lower-to-cpu decomposes it once, before bufferization, and multiplies
// each row by its sum's reciprocal (without --libm-math).
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run softmax \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.softmax-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run softmax \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.softmax-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run softmax \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.softmax-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math | FileCheck %s
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/softmax.mlir --nx-lower-to-cpu \
// RUN:   --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATISTICS

// CHECK: softmax: nx vs NumPy (float64): max error
// STATISTICS: 1 decomposed-ops
// STATISTICS: 1 reciprocal-divisors
