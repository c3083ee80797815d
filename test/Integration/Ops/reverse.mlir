// The reversal of bench/models (tosa.reverse of a 2048x2048 matrix along
// its last axis) runs through nx-runner on the inputs of models.py and
// agrees with models.py's NumPy reference (and PyTorch's torch.flip, where
// it is installed) element for element, on one compute thread and on
// three. Its lowering's extract at 2047 - j becomes an input of that map
// (nx-extracts-to-inputs), read through a view of negated strides
// (nx-reversed-views) that one team shares, and its output, only returned,
// is written with streamed stores.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run reverse \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.reverse-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run reverse \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.reverse-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/reverse.mlir --nx-lower-to-cpu \
// RUN:   --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATISTICS

// CHECK: reverse: nx vs NumPy (float64): max error 0 {{.*}}tolerance 0
// STATISTICS: 1 extracts-to-inputs
// STATISTICS: 1 parallel-nests
// STATISTICS: 1 reversed-views
// STATISTICS: 1 streamed-writes
