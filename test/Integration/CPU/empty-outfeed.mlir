// An outfeed of no tensors sends an empty entry, a signal the host can wait
// for (EXLA's stream tests send one), between two outfeeds with payloads.
//
// RUN: nx-runner %s --input='[1, 2]:tensor<2xf32>' --outfeed=events | FileCheck %s
// RUN: nx-runner %s --input='[1, 2]:tensor<2xf32>' --outfeed=events --dispatch=bridge | FileCheck %s

// CHECK:      result #0: tensor<2xf32> = [2, 4]
// CHECK:      outfeed "events" #0: tensor<2xf32> = [1, 2]
// CHECK-NEXT: outfeed "events" #1: ()
// CHECK-NEXT: outfeed "events" #2: tensor<2xf32> = [2, 4]
// CHECK-NOT:  outfeed
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  nx.outfeed %x to "events" : tensor<2xf32>
  nx.outfeed to "events"
  %y = arith.addf %x, %x : tensor<2xf32>
  nx.outfeed %y to "events" : tensor<2xf32>
  return %y : tensor<2xf32>
}
