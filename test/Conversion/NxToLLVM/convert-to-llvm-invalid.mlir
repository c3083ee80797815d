// Under upstream's --convert-to-llvm, nx.invoke joins the site list of the
// module, which an earlier conversion may have made. What holds the list's
// names, @__nx_sites and @__nx_init, must therefore be that list.
// RUN: nx-opt %s -split-input-file --convert-to-llvm -verify-diagnostics

// expected-error @+1 {{'llvm.func' op uses the name '__nx_sites', which compiled code defines}}
llvm.func @__nx_sites()

func.func @report(%x: memref<4xf32>) {
  // expected-error @+1 {{failed to legalize operation 'nx.invoke'}}
  nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
  return
}

// -----

// expected-error @+1 {{'llvm.func' op uses the name '__nx_init', which compiled code defines}}
llvm.func @__nx_init(%p: !llvm.ptr) -> !llvm.ptr {
  llvm.return %p : !llvm.ptr
}

func.func @report(%x: memref<4xf32>) {
  // expected-error @+1 {{failed to legalize operation 'nx.invoke'}}
  nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
  return
}

// -----

// expected-error @+1 {{'llvm.mlir.global' op must point to a call-site record '__nx_site_<k>'; was it written by hand?}}
llvm.mlir.global internal constant @__nx_sites() : !llvm.ptr {
  %0 = llvm.mlir.addressof @elsewhere : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.mlir.global internal @elsewhere() : i64

func.func @report(%x: memref<4xf32>) {
  // expected-error @+1 {{failed to legalize operation 'nx.invoke'}}
  nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
  return
}

// -----

// A list that is not a pointer is not ours either.
// expected-error @+1 {{'llvm.mlir.global' op must point to a call-site record '__nx_site_<k>'; was it written by hand?}}
llvm.mlir.global internal @__nx_sites(0 : i64) : i64

func.func @report(%x: memref<4xf32>) {
  // expected-error @+1 {{failed to legalize operation 'nx.invoke'}}
  nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
  return
}

// -----

// A host call still on tensors needs bufferization first; converting the
// rest would erase the callback it calls.
nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>

func.func @unbufferized(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'nx.elixir_call' op must be bufferized into 'nx.invoke' before conversion to LLVM (run one-shot-bufferize first, or nx-lower-to-cpu instead)}}
  // expected-error @+1 {{failed to legalize operation 'nx.elixir_call'}}
  %y = nx.elixir_call @cb(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

nx.callback @log : (tensor<4xf32>) -> ()

func.func @unbufferized_io(%x: tensor<4xf32>) {
  // expected-error @+2 {{'nx.io_callback' op must be bufferized into 'nx.invoke' before conversion to LLVM}}
  // expected-error @+1 {{failed to legalize operation 'nx.io_callback'}}
  %y = nx.io_callback @log(%x) : tensor<4xf32>
  return
}

// -----

func.func @unbufferized_outfeed(%x: tensor<4xf32>) {
  // expected-error @+2 {{'nx.outfeed' op must be bufferized into 'nx.invoke' before conversion to LLVM}}
  // expected-error @+1 {{failed to legalize operation 'nx.outfeed'}}
  nx.outfeed %x to "results" : tensor<4xf32>
  return
}

// -----

// Under --convert-to-llvm no pass checks the runtime's names first: the
// patterns do, at the user's symbol.
// expected-error @+1 {{op uses the name of libnxrt's 'nxrt_program_add_sites', which compiled code calls as '!llvm.func<ptr (ptr, ptr)>'}}
func.func @nxrt_program_add_sites(%x: i32) -> i32 {
  return %x : i32
}

func.func @report(%x: memref<4xf32>) {
  // expected-error @+1 {{failed to legalize operation 'nx.invoke'}}
  nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
  return
}
