// RUN: nx-opt %s -split-input-file -convert-nx-to-llvm -verify-diagnostics

func.func @unsupported_attribute(%x: memref<4xf32>) {
  // expected-error @+1 {{cannot pass attribute 'attrs.kind' = f32 to the host: expected an integer, float, string, symbol, array or dictionary}}
  nx.invoke custom_call @t(%x) outs() attrs {kind = f32} : (memref<4xf32>) -> ()
  return
}

// -----

func.func @no_host_float(%x: memref<4xf32>) {
  // expected-error @+1 {{cannot pass attribute 'attrs.scale' of type 'f80' to the host: floats must be f16, bf16, f32 or f64}}
  nx.invoke elixir_call @f(%x) outs() attrs {scale = 1.5 : f80} : (memref<4xf32>) -> ()
  return
}

// -----

func.func @complex_elements(%x: memref<4xf32>) {
  // expected-error @+1 {{cannot pass attribute 'attrs.z' = dense<(1.000000e+00,2.000000e+00)> : tensor<1xcomplex<f32>> to the host: its elements are not integers or floats}}
  nx.invoke elixir_call @f(%x) outs() attrs {z = dense<(1.0, 2.0)> : tensor<1xcomplex<f32>>} : (memref<4xf32>) -> ()
  return
}

// -----

func.func @too_wide(%x: memref<4xf32>) {
  // expected-error @+1 {{cannot pass a 128-bit integer to the host: at most 64 bits}}
  nx.invoke custom_call @t(%x) outs() attrs {big = 1 : i128} : (memref<4xf32>) -> ()
  return
}

// -----

module {
  // expected-error @+1 {{'llvm.func' op defines '__nx_init', which convert-nx-to-llvm generates; was it run twice?}}
  llvm.func @__nx_init(%p: !llvm.ptr) -> !llvm.ptr {
    llvm.return %p : !llvm.ptr
  }
}

// -----

module {
  // expected-error @+1 {{'llvm.mlir.global' op defines '__nx_sites', which convert-nx-to-llvm generates; was it run twice?}}
  llvm.mlir.global internal constant @__nx_sites() : !llvm.ptr {
    %0 = llvm.mlir.zero : !llvm.ptr
    llvm.return %0 : !llvm.ptr
  }
}

// -----

// A failed call must be able to leave the function, which a structured
// region cannot branch out of.
func.func @in_a_loop(%x: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'nx.invoke' op must be in the body of a function, not in a region of 'scf.for', to stop the function when the host call fails (lower structured control flow first, e.g. convert-scf-to-cf)}}
    nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
  }
  return
}

// -----

// The same for a call of a function that may stop.
func.func private @may_fail()
func.func @call_in_a_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'func.call' op must be in the body of a function, not in a region of 'scf.for', to stop the function when the host call fails (lower structured control flow first, e.g. convert-scf-to-cf)}}
    func.call @may_fail() : () -> ()
  }
  return
}

// -----

// A function whose results have no LLVM form cannot return early.
func.func @tensor_result(%x: memref<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot stop @tensor_result after a failed host call: its result type 'tensor<4xf32>' has no LLVM equivalent}}
  nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
  return %t : tensor<4xf32>
}

// -----

// libnxrt's function names are taken by compiled code.
// expected-error @+1 {{'func.func' op uses the name of libnxrt's 'nxrt_run_current', which compiled code calls as '!llvm.func<ptr ()>'}}
func.func private @nxrt_run_current() -> i64

// -----

// expected-error @+1 {{'llvm.func' op uses the name of libnxrt's 'nxrt_invoke', which compiled code calls as '!llvm.func<ptr (ptr, ptr, ptr, i64, ptr, i64)>', but it has type '!llvm.func<void ()>'}}
llvm.func @nxrt_invoke()

// -----

// Host calls on tensors are lowered by bufferization first.
nx.callback @f : (tensor<2xf32>) -> tensor<2xf32>
func.func @not_bufferized(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'nx.elixir_call' op must be bufferized into 'nx.invoke' before convert-nx-to-llvm (run one-shot-bufferize first)}}
  %y = nx.elixir_call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// So are the allocation functions compiled code gets its buffers from.
// expected-error @+1 {{'func.func' op uses the name of libnxrt's '_mlir_memref_to_llvm_alloc', which compiled code calls as '!llvm.func<ptr (i64)>'}}
func.func private @_mlir_memref_to_llvm_alloc(i32)

// -----

// A module with f32 products calls nxrt_gemm_prepare from __nx_init: a
// function of that name and another type is not libnxrt's.
llvm.func @nxrt_gemm_f32(i64)
// expected-error @+1 {{'func.func' op uses the name of libnxrt's 'nxrt_gemm_prepare', which compiled code calls as '!llvm.func<void ()>'}}
func.func @nxrt_gemm_prepare(%x: i32) {
  return
}

// -----

// A module with static buffers calls nxrt_heap_prepare from __nx_init.
// expected-error @+1 {{'func.func' op uses the name of libnxrt's 'nxrt_heap_prepare', which compiled code calls as '!llvm.func<void (i64)>'}}
func.func @nxrt_heap_prepare() {
  %buffer = memref.alloc() : memref<4xf32>
  memref.dealloc %buffer : memref<4xf32>
  return
}

// -----

// One with parallel code calls nxrt_threads_prepare.
func.func private @nxrt_compute_threads() -> i32
// expected-error @+1 {{'func.func' op uses the name of libnxrt's 'nxrt_threads_prepare', which compiled code calls as '!llvm.func<void ()>'}}
func.func @nxrt_threads_prepare(%x: i32) {
  return
}

// -----

// One with a convolution of constant sizes calls nxrt_conv2d_prepare_f32.
llvm.func @nxrt_conv2d_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64)
// expected-error @+1 {{'llvm.func' op uses the name of libnxrt's 'nxrt_conv2d_prepare_f32', which compiled code calls as}}
llvm.func @nxrt_conv2d_prepare_f32(%x: i64) {
  llvm.return
}
llvm.func @convolution(%p: !llvm.ptr) {
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.call @nxrt_conv2d_f32(%c1, %c1, %c1, %c1, %c1, %c1, %c1, %c1, %c1, %c1, %c1, %c1, %c1, %c1, %c1, %c1, %c1, %p, %c1, %c1, %c1, %c1, %p, %c1, %c1, %c1, %c1, %c1, %p, %c1, %p, %c1, %c1, %c1, %c1) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

// -----

// One with an i8 product of constant sizes calls nxrt_gemm_prepare_widened.
llvm.func @nxrt_gemm_i8_i32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
// expected-error @+1 {{'llvm.func' op uses the name of libnxrt's 'nxrt_gemm_prepare_widened', which compiled code calls as '!llvm.func<void (i32, i64, i64, i64)>'}}
llvm.func @nxrt_gemm_prepare_widened(%x: i64) {
  llvm.return
}
llvm.func @product(%p: !llvm.ptr) {
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.call @nxrt_gemm_i8_i32(%c1, %c1, %c1, %c1, %p, %c1, %c1, %c1, %p, %c1, %c1, %c1, %p, %c1, %c1, %c1, %c1) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}

// -----

// One with an f32 product whose B rows lie 256 floats apart calls
// nxrt_gemm_prepare_padded.
llvm.func @nxrt_gemm_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64)
// expected-error @+1 {{'llvm.func' op uses the name of libnxrt's 'nxrt_gemm_prepare_padded', which compiled code calls as '!llvm.func<void (i64)>'}}
llvm.func @nxrt_gemm_prepare_padded(%x: i64, %y: i64) {
  llvm.return
}
llvm.func @product(%p: !llvm.ptr) {
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c64 = llvm.mlir.constant(64 : i64) : i64
  %c256 = llvm.mlir.constant(256 : i64) : i64
  llvm.call @nxrt_gemm_f32(%c1, %c64, %c256, %c64, %p, %c1, %c64, %c1, %p, %c1, %c256, %c1, %p, %c1, %c256, %c1, %c1) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
  llvm.return
}
