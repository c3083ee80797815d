// Upstream's --convert-to-llvm lowers nx through the interface the nx
// dialect implements (ConvertToLLVMPatternInterface): each nx.invoke
// becomes an nxrt_invoke call that stops the function when it fails, its
// site joins the list __nx_init hands the runtime, and nx.callback
// declarations go. The result is plain LLVM IR.
// RUN: nx-opt %s --convert-to-llvm | FileCheck %s --enable-var-scope
// RUN: nx-opt %s --convert-to-llvm --reconcile-unrealized-casts | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// CHECK-NOT: nx.
// CHECK: llvm.mlir.global internal constant @__nx_sites()
// CHECK: llvm.mlir.addressof @[[$SITE:__nx_site_0]] : !llvm.ptr
// CHECK-LABEL: llvm.func @report
// CHECK: %[[RUNCTX:.+]] = llvm.call @nxrt_run_current()
// CHECK: %[[STATUS:.+]] = llvm.call @nxrt_invoke(%[[RUNCTX]],
// CHECK: %[[FAILED:.+]] = llvm.icmp "ne" %[[STATUS]]
// CHECK: llvm.cond_br %[[FAILED]], ^[[EXIT:bb[0-9]+]], ^[[REST:bb[0-9]+]]
// CHECK: ^[[REST]]:
// CHECK: llvm.return
// CHECK: ^[[EXIT]]:
// CHECK-NEXT: %[[S:.+]] = llvm.load
// CHECK-NEXT: llvm.call @nxrt_invoke_failed(%[[RUNCTX]], %[[S]])
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: llvm.call @nxrt_program_add_sites
// CHECK: llvm.mlir.global internal @[[$SITE]]()
// CHECK-NOT: nx.

// IR: @__nx_sites = internal constant ptr @__nx_site_0
// The record: no next site, no site until __nx_init, then kind IO_CALLBACK
// (1) and the offsets and sizes of the bytes that follow: the dims, the
// name and the location.
// IR: @__nx_site_0 = internal global { ptr, ptr, [{{[0-9]+}} x i8] } { ptr null, ptr null, [{{[0-9]+}} x i8] c"\01\00\00\00\00\00\00\00{{.*}}log\00{{.*}}convert-to-llvm.mlir:{{[0-9]+}}:5\00
// IR: define {{.*}} @report(
// IR: call ptr @nxrt_invoke(
// IR: call void @nxrt_invoke_failed(
// IR: define ptr @__nx_init(ptr %0)
// IR: call ptr @nxrt_program_add_sites(ptr %0,

module attributes {nx.callback_ids = {log = 0 : i64}} {
  nx.callback @log : (tensor<4xf32>) -> () attributes {id = 0 : i64}
  func.func @report(%x: memref<4xf32>) -> i32 {
    nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<4xf32>) -> ()
    %c0 = arith.constant 0 : i32
    return %c0 : i32
  }
}
