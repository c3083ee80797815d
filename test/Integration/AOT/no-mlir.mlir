// Ahead-of-time programs need libnxrt and no LLVM or MLIR library: neither
// nxrt-run nor a shared object nx-compile writes depends on one, so both run
// on a machine without an LLVM installation.
// RUN: llvm-readelf --needed-libs %nx_obj_root/bin/nxrt-run \
// RUN:   | FileCheck %s --check-prefix=RUNNER --implicit-check-not=LLVM --implicit-check-not=MLIR
// RUN: nx-compile %s -o %t.so
// RUN: llvm-readelf --needed-libs %t.so \
// RUN:   | FileCheck %s --check-prefix=OBJECT --implicit-check-not=LLVM --implicit-check-not=MLIR

// RUNNER: NeededLibraries [
// RUNNER: libnxrt.so.{{[0-9]+}}

// A program with a parallel loop nest depends on libomp as well.
// OBJECT: NeededLibraries [
// OBJECT: libnxrt.so.{{[0-9]+}}
// OBJECT: libomp.so.5

func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %y = arith.mulf %x, %x : tensor<512x512xf32>
  return %y : tensor<512x512xf32>
}
