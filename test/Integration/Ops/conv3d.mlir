// The 3-D convolutions of bench/models run through nx-runner on the inputs of
// models.py and agree with models.py's NumPy reference in float64 (and
// PyTorch's, where it is installed) within 1e-4 of the output's largest
// magnitude: on oneDNN at one compute thread and at three, as matrix
// products (--dnnl=false) and as loops (--blas=false). The cases are a
// 16x32x32 volume of 16 channels by 3x3x3x16x32 (conv3d), a batch of two
// strided along the depth and the width and dilated along the height, whose
// planes are copied (conv3d-strided), a depthwise one (depthwise-conv3d),
// and the first and the last in PyTorch's NCDHW layouts (conv3d-ncdhw, and
// depthwise-conv3d-ncdhw, strided along the depth), which nx transposes to
// NDHWC first. nx-lower-to-cpu makes each three 2-D convolutions, one per
// kernel plane; the first writes over the output's zero fill.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv3d \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv3d-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s --check-prefix=CONV3D
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv3d \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv3d-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=CONV3D
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv3d \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv3d-gemm \
// RUN:   --flag=--dnnl=false | FileCheck %s --check-prefix=CONV3D
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv3d \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv3d-loops \
// RUN:   --flag=--blas=false | FileCheck %s --check-prefix=CONV3D
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv3d-strided \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.strided-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=STRIDED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv3d-strided \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.strided-gemm \
// RUN:   --flag=--dnnl=false | FileCheck %s --check-prefix=STRIDED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run depthwise-conv3d \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.depthwise-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=DEPTHWISE
// RUN: %numpy_python %nx_src_root/bench/models/models.py run depthwise-conv3d \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.depthwise-loops \
// RUN:   --flag=--blas=false | FileCheck %s --check-prefix=DEPTHWISE
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv3d-ncdhw \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.ncdhw-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s --check-prefix=NCDHW
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv3d-ncdhw \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.ncdhw-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=NCDHW
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv3d-ncdhw \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.ncdhw-gemm \
// RUN:   --flag=--dnnl=false | FileCheck %s --check-prefix=NCDHW
// RUN: %numpy_python %nx_src_root/bench/models/models.py run depthwise-conv3d-ncdhw \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.depthwise-ncdhw-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=DEPTHWISE-NCDHW
// RUN: %numpy_python %nx_src_root/bench/models/models.py run depthwise-conv3d-ncdhw \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.depthwise-ncdhw-loops \
// RUN:   --flag=--blas=false | FileCheck %s --check-prefix=DEPTHWISE-NCDHW
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/conv3d-ncdhw.mlir --nx-lower-to-cpu \
// RUN:   --mlir-print-ir-after=nx-linalg-to-dnnl 2>&1 | FileCheck %s --check-prefix=NCDHW-CALLS
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/conv3d.mlir --nx-lower-to-cpu \
// RUN:   --mlir-print-ir-after=nx-linalg-to-dnnl 2>&1 | FileCheck %s --check-prefix=CALLS

// CONV3D: conv3d: nx vs NumPy (float64): max error
// STRIDED: conv3d-strided: nx vs NumPy (float64): max error
// DEPTHWISE: depthwise-conv3d: nx vs NumPy (float64): max error
// NCDHW: conv3d-ncdhw: nx vs NumPy (float64): max error
// DEPTHWISE-NCDHW: depthwise-conv3d-ncdhw: nx vs NumPy (float64): max error
// The NCDHW convolution: three oneDNN calls, and the transposes around
// them, no convolution left as loops.
// NCDHW-CALLS-LABEL: func.func @conv3d_ncdhw(
// NCDHW-CALLS-NOT: linalg.conv
// NCDHW-CALLS-COUNT-3: llvm.call @nxrt_conv2d_f32
// NCDHW-CALLS-NOT: {{linalg\.conv|call @nxrt_conv2d_f32}}
// NCDHW-CALLS: return
// CALLS-LABEL: func.func @conv3d(
// CALLS-NOT: linalg.
// CALLS-COUNT-3: llvm.call @nxrt_conv2d_f32
// CALLS-NOT: {{linalg\.|call @nxrt_conv2d_f32}}
// CALLS: return
