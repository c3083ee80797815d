// The convolutions of bench/models: padded 3x3 NHWC/HWCF of stride 1 and 2
// and of dilation 2, NCHW/FCHW, and NHWC/FHWC of stride 2 on a batch of two,
// depthwise 3x3 convolutions of stride 1 and 2, and a grouped one (NHWGC/GFHWC,
// 8 groups of 16 channels; on oneDNN, and as loops). Each runs three ways: on
// oneDNN through libnxrt (the default), as matrix products through im2col
// (--dnnl=false; depthwise ones as vectorized loops), and as loops.
// Each runs through nx-runner on the inputs of models.py and agrees with
// models.py's NumPy reference in float64 (and PyTorch's, where it is
// installed) within 1e-4 of the output's largest magnitude: with the
// default pipeline, and with loops only, serial reductions and libm's math.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv | FileCheck %s --check-prefix=CONV
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=CONV
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-strided \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-strided | FileCheck %s --check-prefix=CONV-STRIDED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-strided \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-strided-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=CONV-STRIDED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run depthwise-conv \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.depthwise-conv | FileCheck %s --check-prefix=DEPTHWISE-CONV
// RUN: %numpy_python %nx_src_root/bench/models/models.py run depthwise-conv \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.depthwise-conv-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=DEPTHWISE-CONV
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-dilated \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-dilated | FileCheck %s --check-prefix=CONV-DILATED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-dilated \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-dilated-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=CONV-DILATED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run depthwise-conv-strided \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.depthwise-conv-strided | FileCheck %s --check-prefix=DEPTHWISE-CONV-STRIDED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run depthwise-conv-strided \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.depthwise-conv-strided-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=DEPTHWISE-CONV-STRIDED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-nchw \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-nchw | FileCheck %s --check-prefix=CONV-NCHW
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-nchw \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-nchw-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=CONV-NCHW
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-fhwc \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-fhwc | FileCheck %s --check-prefix=CONV-FHWC
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-fhwc \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-fhwc-strict \
// RUN:   --flag=--strict-reductions --flag=--libm-math --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=CONV-FHWC

// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-im2col --flag=--dnnl=false \
// RUN:   | FileCheck %s --check-prefix=CONV
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-strided \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-strided-im2col --flag=--dnnl=false \
// RUN:   | FileCheck %s --check-prefix=CONV-STRIDED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run depthwise-conv \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.depthwise-conv-im2col --flag=--dnnl=false \
// RUN:   | FileCheck %s --check-prefix=DEPTHWISE-CONV
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-dilated \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-dilated-im2col --flag=--dnnl=false \
// RUN:   | FileCheck %s --check-prefix=CONV-DILATED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run depthwise-conv-strided \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.depthwise-conv-strided-im2col --flag=--dnnl=false \
// RUN:   | FileCheck %s --check-prefix=DEPTHWISE-CONV-STRIDED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-nchw \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-nchw-im2col --flag=--dnnl=false \
// RUN:   | FileCheck %s --check-prefix=CONV-NCHW
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-fhwc \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-fhwc-im2col --flag=--dnnl=false \
// RUN:   | FileCheck %s --check-prefix=CONV-FHWC
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-grouped \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-grouped --flag=--compute-threads=3 \
// RUN:   | FileCheck %s --check-prefix=CONV-GROUPED
// RUN: %numpy_python %nx_src_root/bench/models/models.py run conv-grouped \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.conv-grouped-loops --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=CONV-GROUPED
// CONV: conv: nx vs NumPy (float64): max error
// CONV-STRIDED: conv-strided: nx vs NumPy (float64): max error
// DEPTHWISE-CONV: depthwise-conv: nx vs NumPy (float64): max error
// CONV-DILATED: conv-dilated: nx vs NumPy (float64): max error
// DEPTHWISE-CONV-STRIDED: depthwise-conv-strided: nx vs NumPy (float64): max error
// CONV-NCHW: conv-nchw: nx vs NumPy (float64): max error
// CONV-FHWC: conv-fhwc: nx vs NumPy (float64): max error
// CONV-GROUPED: conv-grouped: nx vs NumPy (float64): max error
