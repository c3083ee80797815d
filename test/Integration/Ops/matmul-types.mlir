// The products of bench/models that no library takes, i8 operands summed in
// i32 and bf16 operands summed in f32, each as register tiles
// (nx-vectorize-linalg), run through nx-runner on the inputs of models.py
// and agree with models.py's NumPy reference in float64 (and PyTorch's,
// where it is installed): the i8 product exactly, at one thread and at
// three (64 tiles of 8 rows shared unevenly); the bf16 product within its
// tolerance of 2^-8 (PyTorch's result is rounded to bf16), at three threads.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matmul-i8 \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.i8-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s --check-prefix=I8
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matmul-i8 \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.i8-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=I8
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matmul-bf16 \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.bf16 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=BF16
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/matmul-i8.mlir --nx-lower-to-cpu \
// RUN:   --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATISTICS
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/matmul-bf16.mlir --nx-lower-to-cpu \
// RUN:   --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATISTICS

// I8: matmul-i8: nx vs NumPy (float64): max error 0 (relative to
// BF16: matmul-bf16: nx vs NumPy (float64): max error
// BF16-NOT: models.py:
// STATISTICS: (S) 1 contractions-in-registers
