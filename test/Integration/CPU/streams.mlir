// An infeed -> compute -> outfeed round trip through named streams: two
// infeed values (the second with two tensors) are consumed in order, the
// result is streamed back and also returned.
// RUN: nx-runner %s \
// RUN:   --infeed='batches=[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   --infeed='batches=[10, 20, 30, 40]:tensor<4xf32>;3:tensor<i64>' \
// RUN:   --outfeed=results \
// RUN:   | FileCheck %s --enable-var-scope
// Three runs in a row: each consumes the next two values, in push order.
// RUN: nx-runner %s --repeat=3 \
// RUN:   --infeed='batches=[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   --infeed='batches=[10, 20, 30, 40]:tensor<4xf32>;3:tensor<i64>' \
// RUN:   --infeed='batches=[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   --infeed='batches=[10, 20, 30, 40]:tensor<4xf32>;3:tensor<i64>' \
// RUN:   --infeed='batches=[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   --infeed='batches=[10, 20, 30, 40]:tensor<4xf32>;3:tensor<i64>' \
// RUN:   --outfeed=results \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=REPEAT
// Exported to StableHLO and imported back with raise-callbacks, which turns
// the streams' custom calls into nx.infeed / nx.outfeed again, the program
// runs the same.
// RUN: nx-opt %s --allow-unregistered-dialect -convert-nx-to-custom-call -nx-export-stablehlo \
// RUN:   | nx-opt --allow-unregistered-dialect -nx-import-stablehlo=raise-callbacks > %t.imported.mlir
// RUN: nx-runner %t.imported.mlir \
// RUN:   --infeed='batches=[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   --infeed='batches=[10, 20, 30, 40]:tensor<4xf32>;3:tensor<i64>' \
// RUN:   --outfeed=results \
// RUN:   | FileCheck %s --enable-var-scope

// CHECK: result #0: tensor<4xf32> = [33, 66, 99, 132]
// CHECK-NEXT: result #1: tensor<i64> = 4
// CHECK-NEXT: outfeed "results" #0.0: tensor<4xf32> = [33, 66, 99, 132]
// CHECK-NEXT: outfeed "results" #0.1: tensor<i64> = 4
// CHECK-NOT: outfeed

// REPEAT: result #0: tensor<4xf32> = [33, 66, 99, 132]
// REPEAT: all 3 runs (1 threads x 3) produced identical results
// REPEAT-NEXT: outfeed "results" #0.0: tensor<4xf32> = [33, 66, 99, 132]
// REPEAT-NEXT: outfeed "results" #0.1: tensor<i64> = 4
// REPEAT-NEXT: outfeed "results" #1.0: tensor<4xf32> = [33, 66, 99, 132]
// REPEAT-NEXT: outfeed "results" #1.1: tensor<i64> = 4
// REPEAT-NEXT: outfeed "results" #2.0: tensor<4xf32> = [33, 66, 99, 132]
// REPEAT-NEXT: outfeed "results" #2.1: tensor<i64> = 4
// REPEAT-NOT: outfeed
func.func @main() -> (tensor<4xf32>, tensor<i64>) {
  %a = nx.infeed from "batches" : tensor<4xf32>
  %b, %n = nx.infeed from "batches" : tensor<4xf32>, tensor<i64>
  %sum = arith.addf %a, %b : tensor<4xf32>
  %nf = arith.sitofp %n : tensor<i64> to tensor<f32>
  %ns = tensor.extract %nf[] : tensor<f32>
  %nb = tensor.splat %ns : tensor<4xf32>
  %scaled = arith.mulf %sum, %nb : tensor<4xf32>
  %one = arith.constant dense<1> : tensor<i64>
  %n1 = arith.addi %n, %one : tensor<i64>
  nx.outfeed %scaled, %n1 to "results" : tensor<4xf32>, tensor<i64>
  return %scaled, %n1 : tensor<4xf32>, tensor<i64>
}
