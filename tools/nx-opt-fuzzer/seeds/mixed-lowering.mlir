// A module with nx at every stage: an unlowered callback on tensors, a
// bufferized invoke, and code already in the LLVM dialect, through every
// pipeline but upstream convert-to-llvm, which the selector mutation adds
// (lowered-invokes.mlir has what goes through it now): a pass that lowers
// one part must leave the others valid.
// fuzz-pipeline: all
// fuzz-skip-pipeline: convert-to-llvm
// fuzz-skip-pipeline: convert-to-llvm{filter-dialects=nx,func,memref}

nx.callback @normalize : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @log : (tensor<4xf32>) -> ()
func.func @tensors(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nx.elixir_call @normalize(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @buffers(%x: memref<4xf32>) {
  nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
  return
}
llvm.func @lowered(%arg0: i64) -> i64 {
  %0 = llvm.add %arg0, %arg0 : i64
  llvm.return %0 : i64
}

// -----

module attributes {nx.callback_ids = {log = 0 : i64}} {
  nx.callback @log : (tensor<4xf32>) -> () attributes {id = 0 : i64}
  nx.callback @scale : (tensor<4xf32>) -> tensor<4xf32> attributes {id = 1 : i64}
  func.func @report(%x: memref<4xf32>) -> i32 {
    nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
    %c0 = arith.constant 0 : i32
    return %c0 : i32
  }
  func.func @later(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = nx.elixir_call @scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  llvm.func @nxrt_run_current() -> !llvm.ptr
}
