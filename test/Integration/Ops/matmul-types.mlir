// The products of bench/models that the f32 GEMM does not take as they
// are, run through nx-runner on the inputs of models.py, agree with
// models.py's NumPy reference in float64 (and PyTorch's, where it is
// installed):
// - i8 operands summed in i32, exactly, on libnxrt (nxrt_gemm_part_i8_i32:
//   the f32 GEMM of the widened operands, in runs of the reduction short
//   enough to be exact) at one thread and at three, and as register tiles
//   with --blas=false (64 tiles of 8 rows shared unevenly);
// - bf16 operands summed in f32, on libnxrt (nxrt_gemm_part_bf16_f32:
//   oneDNN's bf16 kernels, or the f32 GEMM of the widened operands) at one
//   and three threads, and as register tiles with --blas=false, within the
//   case's tolerance of 2^-8 (PyTorch's result is rounded to bf16);
// - f16 operands summed in f32, on libnxrt (nxrt_gemm_part_f16_f32: the f32
//   GEMM of the widened operands) and as register tiles, within 2^-10.
// REQUIRES: numpy
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matmul-i8 \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.i8-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s --check-prefix=I8
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matmul-i8 \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.i8-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=I8
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matmul-i8 \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.i8-tiles \
// RUN:   --flag=--compute-threads=3 --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=I8
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matmul-bf16 \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.bf16-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s --check-prefix=BF16
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matmul-bf16 \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.bf16-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=BF16
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matmul-bf16 \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.bf16-tiles \
// RUN:   --flag=--compute-threads=3 --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=BF16
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matmul-f16 \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.f16-1 \
// RUN:   --flag=--compute-threads=1 | FileCheck %s --check-prefix=F16
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matmul-f16 \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.f16-3 \
// RUN:   --flag=--compute-threads=3 | FileCheck %s --check-prefix=F16
// RUN: %numpy_python %nx_src_root/bench/models/models.py run matmul-f16 \
// RUN:   --nx-runner=%nx_tools/nx-runner --dir=%t.f16-tiles \
// RUN:   --flag=--compute-threads=3 --flag=--blas=false \
// RUN:   | FileCheck %s --check-prefix=F16
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/matmul-i8.mlir --nx-lower-to-cpu \
// RUN:   --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=LIBRARY
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/matmul-bf16.mlir --nx-lower-to-cpu \
// RUN:   --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=LIBRARY
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/matmul-f16.mlir --nx-lower-to-cpu \
// RUN:   --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=LIBRARY
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/matmul-i8.mlir \
// RUN:   --nx-lower-to-cpu=blas=false --mlir-pass-statistics 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TILES
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/matmul-bf16.mlir \
// RUN:   --nx-lower-to-cpu=blas=false --mlir-pass-statistics 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TILES
// RUN: %nx_tools/nx-opt %nx_src_root/bench/models/matmul-f16.mlir \
// RUN:   --nx-lower-to-cpu=blas=false --mlir-pass-statistics 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TILES

// I8: matmul-i8: nx vs NumPy (float64): max error 0 (relative to
// BF16: matmul-bf16: nx vs NumPy (float64): max error
// BF16-NOT: models.py:
// F16: matmul-f16: nx vs NumPy (float64): max error
// F16-NOT: models.py:
// TILES: (S) 1 contractions-in-registers
// LIBRARY: NxLinalgToBlasPass
// LIBRARY-NEXT: (S) 1 contractions
// LIBRARY: (S) 0 contractions-in-registers
