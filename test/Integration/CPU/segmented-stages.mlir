// --separate-stages compiles every nx.device function as its own unit (its
// own module, ExecutionEngine and, if it has call sites, nxrt program); the
// orchestrator calls it through a declaration bound to the stage's address.
// Results are identical to running the unsegmented program.
//
// DEFINE: %{qr_input} = --input='[[1, 2, 3], [4, 5, 6], [7, 8, 10], [2, 0, 1]]:tensor<4x3xf32>'
// RUN: nx-opt %s --mlir-print-debuginfo --nx-segment-callbacks=device=cuda -o %t.mlir
//
// A stage holding a block that lowers to a runtime (LAPACK) custom call: the
// stage's unit has call sites of its own. Also with the default region.
// RUN: nx-runner %s --callbacks=%nx_test_callbacks --entry=qr %{qr_input} > %t.qr.ref
// RUN: FileCheck %s --input-file=%t.qr.ref --check-prefix=QR
// RUN: nx-runner %t.mlir --separate-stages --callbacks=%nx_test_callbacks --entry=qr %{qr_input} > %t.qr.sep
// RUN: diff %t.qr.ref %t.qr.sep
// RUN: nx-runner %t.mlir --separate-stages --lower-blocks=false --callbacks=%nx_test_callbacks --entry=qr %{qr_input} > %t.qr.inl
// RUN: diff %t.qr.ref %t.qr.inl
// From 4 threads at once, 5 runs each.
// RUN: nx-runner %t.mlir --separate-stages --threads=4 --repeat=5 --callbacks=%nx_test_callbacks --entry=qr %{qr_input} \
// RUN:   | FileCheck %s --check-prefix=QR
//
// Stages calling a private helper (copied into each stage's unit).
// RUN: nx-runner %s --callbacks=%nx_test_callbacks --entry=helper --input='[1, 2, 3, 4]:tensor<4xf32>' > %t.helper.ref
// RUN: FileCheck %s --input-file=%t.helper.ref --check-prefix=HELPER
// RUN: nx-runner %t.mlir --separate-stages --callbacks=%nx_test_callbacks --entry=helper --input='[1, 2, 3, 4]:tensor<4xf32>' > %t.helper.sep
// RUN: diff %t.helper.ref %t.helper.sep
//
// A public function marked nx.device is an entry that runs from its own unit.
// RUN: nx-runner %t.mlir --separate-stages --entry=device_entry --input='[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   | FileCheck %s --check-prefix=DEVICE
//
// The main module only declares the stages; each stage's module defines it
// (public, with its C interface) and nothing else of the program.
// RUN: nx-runner %t.mlir --separate-stages --print-lowered | FileCheck %s --check-prefix=LOWERED
// LOWERED-LABEL: llvm.func @qr(
// LOWERED:       llvm.call @qr_stage0(
// LOWERED:       llvm.func @qr_stage0({{[^{]*}}attributes {nx.device = "cuda", sym_visibility = "private"}{{$}}
// LOWERED:       llvm.func @qr_stage1({{[^{]*}}attributes {nx.device = "cuda", sym_visibility = "private"}{{$}}
// LOWERED:       llvm.func @device_entry({{[^{]*}}attributes {nx.device = "cuda", sym_visibility = "private"}{{$}}
// LOWERED:       llvm.func @__nx_init(
// LOWERED:       // -----
// LOWERED-NOT:   nx.host_orchestrator
// LOWERED-DAG:   llvm.func @qr_stage0({{.*}}attributes {llvm.emit_c_interface, nx.device = "cuda"} {
// LOWERED-DAG:   qr_cpu_custom_call_f32\00
// LOWERED-NOT:   nx.host_orchestrator
// LOWERED:       // -----
// LOWERED-NOT:   llvm.func @qr_stage0(
// LOWERED:       llvm.func @qr_stage1({{.*}}attributes {llvm.emit_c_interface, nx.device = "cuda"} {
// LOWERED:       // -----
// LOWERED:       llvm.func @square({{.*}}sym_visibility = "private"
// LOWERED:       llvm.func @helper_stage0(
// LOWERED:       // -----
// LOWERED:       llvm.func @device_entry({{.*}}attributes {llvm.emit_c_interface, nx.device = "cuda"} {
// LOWERED-NOT:   nx.host_orchestrator

nx.callback @test.scale : (tensor<3x3xf32>) -> tensor<3x3xf32>
nx.callback @test.scale64 : (tensor<4xf32>) -> tensor<4xf32>
nx.callback @nx.debug.identity : (tensor<4x3xf32>) -> tensor<4x3xf32>

// |R| x1000 of the QR factorisation (unique up to signs), rounded.
// QR: result #0: tensor<3x3xi32> = {{\[}}[8367, 9323, 11833], [0, 2467, 2305], [0, 0, 821]]
// QR-NOT: result #1
func.func @qr(%a: tensor<4x3xf32>) -> tensor<3x3xi32> {
  %ah = nx.elixir_call @nx.debug.identity(%a) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %q, %r = nx.block "Nx.Block.LinAlg.QR" {mode = "reduced"} (%ah) : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
  ^bb0(%m: tensor<4x3xf32>):
    // Modified Gram-Schmidt: column j loses its projections on the
    // (already orthonormal) columns before it, then is normalised.
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %fzero = arith.constant 0.0 : f32
    %r0 = arith.constant dense<0.0> : tensor<3x3xf32>
    %qf, %rf = scf.for %j = %c0 to %c3 step %c1 iter_args(%qa = %m, %ra = %r0) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
      %qb, %rb = scf.for %i = %c0 to %j step %c1 iter_args(%qi = %qa, %ri = %ra) -> (tensor<4x3xf32>, tensor<3x3xf32>) {
        %dot = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %fzero) -> (f32) {
          %x = tensor.extract %qi[%k, %i] : tensor<4x3xf32>
          %y = tensor.extract %qi[%k, %j] : tensor<4x3xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        %ri2 = tensor.insert %dot into %ri[%i, %j] : tensor<3x3xf32>
        %qi2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%qk = %qi) -> (tensor<4x3xf32>) {
          %x = tensor.extract %qk[%k, %i] : tensor<4x3xf32>
          %y = tensor.extract %qk[%k, %j] : tensor<4x3xf32>
          %p = arith.mulf %dot, %x : f32
          %d = arith.subf %y, %p : f32
          %qk2 = tensor.insert %d into %qk[%k, %j] : tensor<4x3xf32>
          scf.yield %qk2 : tensor<4x3xf32>
        }
        scf.yield %qi2, %ri2 : tensor<4x3xf32>, tensor<3x3xf32>
      }
      %sq = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %fzero) -> (f32) {
        %y = tensor.extract %qb[%k, %j] : tensor<4x3xf32>
        %p = arith.mulf %y, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      %norm = math.sqrt %sq : f32
      %rc = tensor.insert %norm into %rb[%j, %j] : tensor<3x3xf32>
      %qc = scf.for %k = %c0 to %c4 step %c1 iter_args(%qk = %qb) -> (tensor<4x3xf32>) {
        %y = tensor.extract %qk[%k, %j] : tensor<4x3xf32>
        %d = arith.divf %y, %norm : f32
        %qk2 = tensor.insert %d into %qk[%k, %j] : tensor<4x3xf32>
        scf.yield %qk2 : tensor<4x3xf32>
      }
      scf.yield %qc, %rc : tensor<4x3xf32>, tensor<3x3xf32>
    }
    nx.yield %qf, %rf : tensor<4x3xf32>, tensor<3x3xf32>
  }
  %rabs = math.absf %r : tensor<3x3xf32>
  %rs = nx.elixir_call @test.scale(%rabs) static_args {factor = 1000.0 : f64} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %rr = math.roundeven %rs : tensor<3x3xf32>
  %ri = arith.fptosi %rr : tensor<3x3xf32> to tensor<3x3xi32>
  return %ri : tensor<3x3xi32>
}

// HELPER: result #0: tensor<4xf32> = [4, 64, 324, 1024]
// HELPER-NEXT: result #1: tensor<4xf32> = [1, 16, 81, 256]
func.func private @square(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.mulf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @helper(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = func.call @square(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %h = nx.elixir_call @test.scale64(%s) static_args {factor = 2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %t = func.call @square(%h) : (tensor<4xf32>) -> tensor<4xf32>
  %q = func.call @square(%s) : (tensor<4xf32>) -> tensor<4xf32>
  return %t, %q : tensor<4xf32>, tensor<4xf32>
}

// DEVICE: result #0: tensor<4xf32> = [2, 4, 6, 8]
func.func @device_entry(%x: tensor<4xf32>) -> tensor<4xf32> attributes {nx.device = "cuda"} {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
