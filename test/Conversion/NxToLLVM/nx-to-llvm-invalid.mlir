// RUN: nx-opt %s -split-input-file -convert-nx-to-llvm -verify-diagnostics

func.func @unsupported_attribute(%x: memref<4xf32>) {
  // expected-error @+1 {{cannot pass attribute 'attrs.kind' = f32 to the host: expected an integer, float, string, symbol, array or dictionary}}
  nx.invoke custom_call @t(%x) outs() attrs {kind = f32} : (memref<4xf32>) -> ()
  return
}

// -----

func.func @too_wide(%x: memref<4xf32>) {
  // expected-error @+1 {{cannot pass a 128-bit integer to the host: at most 64 bits}}
  nx.invoke custom_call @t(%x) outs() attrs {big = 1 : i128} : (memref<4xf32>) -> ()
  return
}

// -----

// expected-error @+1 {{module already defines '__nx_init'; was convert-nx-to-llvm run twice?}}
module {
  llvm.func @__nx_init(%p: !llvm.ptr) -> !llvm.ptr {
    llvm.return %p : !llvm.ptr
  }
}
