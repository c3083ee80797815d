// A 2048x2048 linalg.transpose (tiled into 32x32 blocks by
// nx-tile-transposes within each thread's rows). Its 16 MiB output is only
// returned, so the default pipeline writes it with non-temporal stores; a
// team of 3 threads checks that every thread's stores are seen, and
// --stream-unread-outputs=false the cached writes.
// Each runs through nx-runner on the inputs of models.py and agrees with
// models.py's NumPy reference in float64 (and PyTorch's, where it is
// installed) within 1e-4 of the output's largest magnitude: with the
// default pipeline, and with loops only, serial reductions and libm's math.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run transpose \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.transpose | FileCheck %s --check-prefix=TRANSPOSE
// RUN: %numpy_python %nx_src_root/bench/models/models.py run transpose \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.transpose-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=TRANSPOSE
// RUN: %numpy_python %nx_src_root/bench/models/models.py run transpose \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.transpose-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=TRANSPOSE
// RUN: %numpy_python %nx_src_root/bench/models/models.py run transpose \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.transpose-cached \
// RUN:   --flag=--stream-unread-outputs=false | FileCheck %s --check-prefix=TRANSPOSE

// TRANSPOSE: transpose: nx vs NumPy (float64): max error
