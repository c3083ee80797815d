// Bufferized nx (nx.invoke on memrefs) next to LLVM-dialect code and tensor
// code without nx ops, through every pipeline, upstream convert-to-llvm
// included; a splice or a snippet brings unbufferized nx ops in.
// fuzz-pipeline: all

module attributes {nx.callback_ids = {log = 0 : i64, scale = 1 : i64}} {
  nx.callback @log : (tensor<4xf32>) -> () attributes {id = 0 : i64}
  nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32> attributes {id = 1 : i64}
  func.func @report(%x: memref<4xf32>, %y: memref<4xf32>) -> i32 {
    nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
    nx.invoke elixir_call @scale(%x) outs(%y) {has_side_effect} : (memref<4xf32>) -> (memref<4xf32>)
    %c0 = arith.constant 0 : i32
    return %c0 : i32
  }
  func.func @compute(%t: tensor<4xf32>) -> tensor<4xf32> {
    %0 = arith.addf %t, %t : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  llvm.func @lowered(%arg0: i64) -> i64 {
    %0 = llvm.add %arg0, %arg0 : i64
    llvm.return %0 : i64
  }
}
