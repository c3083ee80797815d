// Every pass and pipeline nx registers follows one naming scheme: a flag
// starting with nx- and a record Nx...Pass; conversions out of the nx
// dialect follow upstream's convert-nx-to-... and ConvertNxTo...Pass.
// RUN: %python %S/Inputs/check_pass_names.py nx-opt mlir-opt | FileCheck %s
// CHECK-DAG: --nx-lower-tosa: NxLowerTosaPass
// CHECK-DAG: --nx-linalg-to-blas: NxLinalgToBlasPass
// CHECK-DAG: --convert-nx-to-llvm: ConvertNxToLLVMPass
// CHECK-DAG: --nx-lower-to-cpu: pipeline of
// CHECK: flags follow the naming scheme
