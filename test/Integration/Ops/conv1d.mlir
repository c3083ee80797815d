// The 1-D convolution of bench/models (four 1024-step sequences of 64
// channels, 64 filters 3 wide) runs through nx-runner on the inputs of
// models.py and agrees with models.py's NumPy reference in float64 (and
// PyTorch's, where it is installed) within 1e-4 of the output's largest
// magnitude: on oneDNN at one compute thread and at three, as a matrix
// product (--dnnl=false) and as loops (--blas=false). nx-lower-to-cpu makes
// it a 2-D convolution one row high, which oneDNN writes over the output's
// zero fill.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv1d \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv1d-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv1d \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv1d-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv1d \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv1d-gemm \
// RUN:   --flag=--dnnl=false | FileCheck %s
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv1d \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv1d-loops \
// RUN:   --flag=--blas=false | FileCheck %s
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/conv1d.mlir --nx-lower-to-cpu \
// RUN:   --mlir-print-ir-after=nx-linalg-to-dnnl 2>&1 | FileCheck %s --check-prefix=CALL

// CHECK: conv1d: nx vs NumPy (float64): max error
// CALL-NOT: linalg.fill
// CALL: call @nxrt_conv2d_f32
// CALL-NOT: linalg.fill
