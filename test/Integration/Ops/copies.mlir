// The concatenation and the padding of bench/models, whose operands
// bufferization copies into subviews of their results, run through
// nx-runner on the inputs of models.py and agree with models.py's NumPy
// reference (and PyTorch's, where it is installed) element for element: on
// one compute thread and on three, which share the copies' rows
// (nx-linalg-to-openmp makes each copy a linalg.copy; the concatenation's
// two copies go along the same rows, and one team runs both as a row
// chain, each tile writing whole rows of the result). The concatenation's
// result, 16 MiB that the program only returns, is written with streamed
// stores: one vector write per copy, fenced at the end of each thread's
// rows.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run concat \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.concat-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s --check-prefix=CONCAT
// RUN: %numpy_python %nx_src_root/bench/models/models.py run concat \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.concat-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=CONCAT
// RUN: %numpy_python %nx_src_root/bench/models/models.py run pad \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.pad-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s --check-prefix=PAD
// RUN: %numpy_python %nx_src_root/bench/models/models.py run pad \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.pad-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=PAD
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/concat.mlir --nx-lower-to-cpu \
// RUN:   --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATISTICS

// CONCAT: concat: nx vs NumPy (float64): max error 0 {{.*}}tolerance 0
// PAD: pad: nx vs NumPy (float64): max error 0 {{.*}}tolerance 0
// STATISTICS: 1 parallel-nests
// STATISTICS: 1 row-chains
// STATISTICS: 2 shared-copies
// STATISTICS: 2 streamed-writes
