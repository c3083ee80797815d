// RUN: nx-opt %s -split-input-file -convert-nx-to-custom-call | FileCheck %s --enable-var-scope
// RUN: nx-opt %s -split-input-file -convert-nx-to-custom-call=platform=cuda | FileCheck %s --enable-var-scope --check-prefix=CUDA

// CHECK-LABEL: func.func @qr_f32
// CHECK-SAME: (%[[A:.+]]: tensor<4x3xf32>)
// CHECK: %[[QR:.+]]:2 = nx.custom_call @qr_cpu_custom_call_f32(%[[A]]) {api_version = 4 : i32, backend_config = {mode = "reduced"}} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>)
// CHECK: return %[[QR]]#0, %[[QR]]#1
// Not on cuda: the default region is inlined.
// CUDA-LABEL: func.func @qr_f32
// CUDA-SAME: (%[[A:.+]]: tensor<4x3xf32>)
// CUDA: %[[R:.+]] = arith.constant dense<0.000000e+00> : tensor<3x3xf32>
// CUDA: return %[[A]], %[[R]]
// CUDA-NOT: nx.custom_call
func.func @qr_f32(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {mode = "reduced"} (%a) : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
  ^bb0(%m: tensor<4x3xf32>):
    %z = arith.constant dense<0.0> : tensor<3x3xf32>
    nx.yield %m, %z : tensor<4x3xf32>, tensor<3x3xf32>
  }
  return %q, %r : tensor<4x3xf32>, tensor<3x3xf32>
}

// -----

// CHECK-LABEL: func.func @eigh_f64
// CHECK: nx.custom_call @eigh_cpu_custom_call_f64(%{{.+}}) {api_version = 4 : i32, backend_config = {eps = 1.000000e-10 : f64, max_iter = 100 : i64}} : (tensor<3x3xf64>) -> (tensor<3xf64>, tensor<3x3xf64>)
func.func @eigh_f64(%a: tensor<3x3xf64>) -> (tensor<3xf64>, tensor<3x3xf64>) {
  %w, %v = nx.block "Nx.Block.LinAlg.Eigh" {eps = 1.0e-10 : f64, max_iter = 100 : i64} (%a) : (tensor<3x3xf64>) -> (tensor<3xf64>, tensor<3x3xf64>) {
  ^bb0(%m: tensor<3x3xf64>):
    %z = arith.constant dense<0.0> : tensor<3xf64>
    nx.yield %z, %m : tensor<3xf64>, tensor<3x3xf64>
  }
  return %w, %v : tensor<3xf64>, tensor<3x3xf64>
}

// -----

// f16 and bf16 go through the f32 kernel: operand converts before, result
// converts after.
// CHECK-LABEL: func.func @qr_f16
// CHECK-SAME: (%[[A:.+]]: tensor<3x3xf16>)
// CHECK: %[[E:.+]] = arith.extf %[[A]] : tensor<3x3xf16> to tensor<3x3xf32>
// CHECK: %[[QR:.+]]:2 = nx.custom_call @qr_cpu_custom_call_f32(%[[E]]) {api_version = 4 : i32, backend_config = {}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
// CHECK: %[[Q:.+]] = arith.truncf %[[QR]]#0 : tensor<3x3xf32> to tensor<3x3xf16>
// CHECK: %[[R:.+]] = arith.truncf %[[QR]]#1 : tensor<3x3xf32> to tensor<3x3xf16>
// CHECK: return %[[Q]], %[[R]]
func.func @qr_f16(%a: tensor<3x3xf16>) -> (tensor<3x3xf16>, tensor<3x3xf16>) {
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {} (%a) : (tensor<3x3xf16>) -> (tensor<3x3xf16>, tensor<3x3xf16>) {
  ^bb0(%m: tensor<3x3xf16>):
    nx.yield %m, %m : tensor<3x3xf16>, tensor<3x3xf16>
  }
  return %q, %r : tensor<3x3xf16>, tensor<3x3xf16>
}

// -----

// CHECK-LABEL: func.func @eigh_bf16
// CHECK: %[[E:.+]] = arith.extf %{{.+}} : tensor<2x2xbf16> to tensor<2x2xf32>
// CHECK: %[[W:.+]]:2 = nx.custom_call @eigh_cpu_custom_call_f32(%[[E]]) {api_version = 4 : i32, backend_config = {}} : (tensor<2x2xf32>) -> (tensor<2xf32>, tensor<2x2xf32>)
// CHECK: arith.truncf %[[W]]#0 : tensor<2xf32> to tensor<2xbf16>
// CHECK: arith.truncf %[[W]]#1 : tensor<2x2xf32> to tensor<2x2xbf16>
func.func @eigh_bf16(%a: tensor<2x2xbf16>) -> (tensor<2xbf16>, tensor<2x2xbf16>) {
  %w, %v = nx.block "Nx.Block.LinAlg.Eigh" {} (%a) : (tensor<2x2xbf16>) -> (tensor<2xbf16>, tensor<2x2xbf16>) {
  ^bb0(%m: tensor<2x2xbf16>):
    %z = arith.constant dense<0.0> : tensor<2xbf16>
    nx.yield %z, %m : tensor<2xbf16>, tensor<2x2xbf16>
  }
  return %w, %v : tensor<2xbf16>, tensor<2x2xbf16>
}

// -----

// Integer matrices go through the f32 kernel, as in EXLA: sitofp in; f32
// results (as Nx declares them) come out as they are, integer ones through
// fptosi.
// CHECK-LABEL: func.func @qr_i32
// CHECK-SAME: (%[[A:.+]]: tensor<2x2xi32>)
// CHECK: %[[F:.+]] = arith.sitofp %[[A]] : tensor<2x2xi32> to tensor<2x2xf32>
// CHECK: %[[QR:.+]]:2 = nx.custom_call @qr_cpu_custom_call_f32(%[[F]])
// CHECK: %[[QI:.+]] = arith.fptosi %[[QR]]#0 : tensor<2x2xf32> to tensor<2x2xi32>
// CHECK: return %[[QI]], %[[QR]]#1 : tensor<2x2xi32>, tensor<2x2xf32>
// CHECK-NOT: nx.block
func.func @qr_i32(%a: tensor<2x2xi32>) -> (tensor<2x2xi32>, tensor<2x2xf32>) {
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {} (%a) : (tensor<2x2xi32>) -> (tensor<2x2xi32>, tensor<2x2xf32>) {
  ^bb0(%m: tensor<2x2xi32>):
    %z = arith.constant dense<0.0> : tensor<2x2xf32>
    nx.yield %m, %z : tensor<2x2xi32>, tensor<2x2xf32>
  }
  return %q, %r : tensor<2x2xi32>, tensor<2x2xf32>
}

// -----

// Boolean and complex QR and unknown block kinds skip: the default region is
// inlined, with the block arguments replaced by the inputs.
// CHECK-LABEL: func.func @skips
// CHECK-SAME: (%[[I:.+]]: tensor<2x2xi1>, %[[C:.+]]: tensor<2x2xcomplex<f32>>, %[[X:.+]]: tensor<4xf32>)
// CHECK: %[[S:.+]] = arith.addf %[[X]], %[[X]] : tensor<4xf32>
// CHECK: return %[[I]], %[[I]], %[[C]], %[[C]], %[[S]]
// CHECK-NOT: nx.block
// CHECK-NOT: nx.custom_call
func.func @skips(%i: tensor<2x2xi1>, %c: tensor<2x2xcomplex<f32>>, %x: tensor<4xf32>)
    -> (tensor<2x2xi1>, tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<4xf32>) {
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {} (%i) : (tensor<2x2xi1>) -> (tensor<2x2xi1>, tensor<2x2xi1>) {
  ^bb0(%m: tensor<2x2xi1>):
    nx.yield %m, %m : tensor<2x2xi1>, tensor<2x2xi1>
  }
  %cq, %cr = nx.block "Nx.Block.LinAlg.QR" {} (%c) : (tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) {
  ^bb0(%m: tensor<2x2xcomplex<f32>>):
    nx.yield %m, %m : tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
  }
  %s = nx.block "My.Unknown.Block" {} (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%v: tensor<4xf32>):
    %d = arith.addf %v, %v : tensor<4xf32>
    nx.yield %d : tensor<4xf32>
  }
  return %q, %r, %cq, %cr, %s : tensor<2x2xi1>, tensor<2x2xi1>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<4xf32>
}

// -----

// Callbacks inside an inlined default implementation are lowered too, and
// nested blocks are handled innermost first. On cuda the callback is
// allowed because the function is a host orchestrator.
nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32> attributes {id = 5 : i64}

// CHECK-LABEL: func.func @nested
// CHECK: %[[C:.+]] = nx.custom_call @exla_runtime_callback(%{{.+}}, %{{.+}}) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 5>, callback_id_size = 8 : ui64, num_aliased_data_outputs = 0 : ui64}, has_side_effect = true} : (tensor<8xui8>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[C]]
// CUDA-LABEL: func.func @nested
// CUDA: nx.custom_call @exla_runtime_callback
func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> attributes {nx.host_orchestrator} {
  %r = nx.block "Outer" {} (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%v: tensor<4xf32>):
    %i = nx.block "Inner" {} (%v) : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%w: tensor<4xf32>):
      %c = nx.elixir_call @cb(%w) : (tensor<4xf32>) -> tensor<4xf32>
      nx.yield %c : tensor<4xf32>
    }
    nx.yield %i : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
