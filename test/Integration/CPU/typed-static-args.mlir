// Static args reach the handler with their MLIR types: integers of every
// width and signedness up to 64 bits, f16 / bf16 / f32 / f64, strings,
// arrays (dense ones keep their element type) and nested dictionaries. A
// typed accessor rejects a mismatch: ui64 is not read as i64.
// RUN: nx-runner %s --entry=typed --callbacks=%nx_test_callbacks --input='[1, 2]:tensor<2xf64>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=TYPED
// RUN: nx-runner %s --entry=typed --dispatch=bridge --callbacks=%nx_test_callbacks --input='[1, 2]:tensor<2xf64>' \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=TYPED
// RUN: not nx-runner %s --entry=mismatch --callbacks=%nx_test_callbacks --input='[1, 2]:tensor<2xf64>' 2>&1 \
// RUN:   | FileCheck %s --enable-var-scope --check-prefix=MISMATCH

nx.callback @test.describe : (tensor<2xf64>) -> ()
nx.callback @test.scale64 : (tensor<2xf64>) -> tensor<2xf64>

// TYPED: describe @test.describe (16 static args)
// TYPED-NEXT:   big = 18446744073709551615 : ui64
// TYPED-NEXT:   brain = -1.5 : bf16
// TYPED-NEXT:   byte = -128 : si8
// TYPED-NEXT:   dense = [1 : i8, -2 : i8, 127 : i8]
// TYPED-NEXT:   elements = [65535 : ui16, 7 : ui16]
// TYPED-NEXT:   flag = true
// TYPED-NEXT:   floats = [0.5 : f32, -2 : f32]
// TYPED-NEXT:   half = 0.5 : f16
// TYPED-NEXT:   nested = {deep = {ratio = 0.25 : f32}, ids = [3 : i32, -1 : i32]}
// TYPED-NEXT:   odd = 3 : i3
// TYPED-NEXT:   one = 1 : ui1
// TYPED-NEXT:   plain = -7 : i64
// TYPED-NEXT:   precise = 0.100000001 : f32
// TYPED-NEXT:   short = -300 : i16
// TYPED-NEXT:   text = "hello"
// TYPED-NEXT:   wide = 0.1 : f64
// TYPED-NEXT: result #0: tensor<2xf64> = [1, 2]
func.func @typed(%x: tensor<2xf64>) -> tensor<2xf64> {
  nx.elixir_call @test.describe(%x) static_args {
    big = 18446744073709551615 : ui64, byte = -128 : si8, short = -300 : i16,
    odd = 3 : i3, one = 1 : ui1, plain = -7 : i64, flag = true,
    half = 0.5 : f16, brain = -1.5 : bf16, precise = 0.1 : f32, wide = 0.1 : f64,
    text = "hello", dense = array<i8: 1, -2, 127>, floats = array<f32: 0.5, -2.0>,
    elements = dense<[65535, 7]> : tensor<2xui16>,
    nested = {ids = array<i32: 3, -1>, deep = {ratio = 0.25 : f32}}
  } : (tensor<2xf64>) -> ()
  return %x : tensor<2xf64>
}

// MISMATCH: nx-runner: error: callback @test.scale64 at {{.*}}typed-static-args.mlir:[[@LINE+2]]:{{[0-9]+}} failed: attribute 'offset' has type ui64, expected a signless or signed integer (read unsigned integers with nxrt_attr_u64)
func.func @mismatch(%x: tensor<2xf64>) -> tensor<2xf64> {
  %y = nx.elixir_call @test.scale64(%x) static_args {factor = 2.0 : f64, offset = 18446744073709551615 : ui64} : (tensor<2xf64>) -> tensor<2xf64>
  return %y : tensor<2xf64>
}
