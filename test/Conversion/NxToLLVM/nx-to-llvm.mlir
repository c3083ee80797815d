// RUN: nx-opt %s -split-input-file -convert-nx-to-llvm | FileCheck %s --enable-var-scope

// Callback declarations and ids are resolved into sites and removed.
// CHECK: module {
// CHECK-NOT: nx.callback
// The dims are read as int64_t words in place, so they are aligned.
// CHECK-DAG: llvm.mlir.global internal constant @[[$DIMS:__nx_dims_[0-9]+]]("\04\00\00\00\00\00\00\00") {addr_space = 0 : i32, alignment = 8 : i64}
// __nx_init adds the sites from a table, five words per site: kind
// ELIXIR_CALL (0), the offsets of the name, the location and the attributes
// in one string blob, and the attributes' length (20 bytes).
// CHECK-DAG: llvm.mlir.global internal constant @__nx_site_table(dense<[0, 0, 16, {{[0-9]+}}, 20]> : tensor<5xi64>)
// Strings are NUL-terminated; entries start 8-byte aligned. Typed
// attributes: DICT of 1 entry "norm" = STRING "l2".
// CHECK-DAG: llvm.mlir.global internal constant @__nx_site_strings("normalize\00{{(\\00)*}}{{[^"]*}}nx-to-llvm.mlir:{{[0-9]+}}:3\00{{(\\00)*}}\06\01\00\00\00\04\00\00\00norm\04\02\00\00\00l2")
// It stores them in @__nx_sites, in program order.
// CHECK-DAG: llvm.mlir.global internal @__nx_sites() {{.*}} : !llvm.array<1 x ptr>

// CHECK-LABEL: func.func @elixir_call
// CHECK-SAME: (%[[IN:.+]]: memref<4xf32>, %[[OUT:.+]]: memref<4xf32>) -> memref<4xf32>
// View arrays (one pair, shared by the function's calls), the run and the
// status slot live in the entry block, so calls in loops do not grow the
// stack.
// CHECK: %[[ARGS:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(i32, i32, ptr, ptr)>
// CHECK: %[[RESULTS:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(i32, i32, ptr, ptr)>
// CHECK: %[[RUNCTX:.+]] = llvm.call @nxrt_run_current() : () -> !llvm.ptr
// CHECK: %[[STATUS_SLOT:.+]] = llvm.alloca %{{.+}} x !llvm.ptr
// CHECK: ^[[LOOP:bb[0-9]+]](
// The argument view, field by field: {dtype = NXRT_F32 (12), rank 1, dims,
// data}.
// CHECK: %[[VIEW:.+]] = llvm.getelementptr %[[ARGS]][0]
// CHECK: llvm.mlir.constant(12 : i32) : i32
// CHECK: llvm.getelementptr %[[VIEW]][0, 0]
// CHECK: llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.getelementptr %[[VIEW]][0, 1]
// CHECK: llvm.mlir.addressof @[[$DIMS]]
// CHECK: llvm.getelementptr %[[VIEW]][0, 2]
// CHECK: llvm.getelementptr %[[VIEW]][0, 3]
// CHECK: llvm.getelementptr %[[RESULTS]][0]
// CHECK: %[[SITES:.+]] = llvm.mlir.addressof @__nx_sites : !llvm.ptr
// CHECK: %[[SLOT:.+]] = llvm.getelementptr %[[SITES]][0, 0]
// CHECK: %[[SITE_PTR:.+]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[STATUS:.+]] = llvm.call @nxrt_invoke(%[[RUNCTX]], %[[SITE_PTR]], %[[ARGS]], %{{.+}}, %[[RESULTS]], %{{.+}})
// A failed call stops the function: no further iteration, no further call.
// CHECK: %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[FAILED:.+]] = llvm.icmp "ne" %[[STATUS]], %[[NULL]]
// CHECK: llvm.store %[[STATUS]], %[[STATUS_SLOT]]
// CHECK: llvm.cond_br %[[FAILED]], ^[[EXIT:bb[0-9]+]], ^[[REST:bb[0-9]+]]
// CHECK: ^[[REST]]:
// CHECK: cf.br ^[[LOOP]]
// The exit hands the status to the runtime and returns zeros.
// CHECK: ^[[EXIT]]:
// CHECK-NEXT: %[[S:.+]] = llvm.load %[[STATUS_SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: llvm.call @nxrt_invoke_failed(%[[RUNCTX]], %[[S]])
// CHECK-NEXT: %[[ZERO:.+]] = llvm.mlir.zero : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT: %[[MEMREF:.+]] = builtin.unrealized_conversion_cast %[[ZERO]] : {{.*}} to memref<4xf32>
// CHECK-NEXT: return %[[MEMREF]] : memref<4xf32>
// CHECK-NOT: nx.invoke

// __nx_init loops over the table: it adds each site (kind, name, location,
// attributes, length) to the program, stores it in @__nx_sites and returns
// the first error or null.
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-SAME: (%[[PROGRAM:.+]]: !llvm.ptr) -> !llvm.ptr
// CHECK: %[[ERROR:.+]] = llvm.alloca %{{.+}} x !llvm.ptr
// CHECK: ^[[HEAD:bb[0-9]+]](%[[I:.+]]: i64):
// CHECK-NEXT: %[[COUNT:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: llvm.icmp "ult" %[[I]], %[[COUNT]] : i64
// CHECK: llvm.mlir.addressof @__nx_site_table
// CHECK: llvm.mlir.addressof @__nx_site_strings
// CHECK: %[[KIND:.+]] = llvm.trunc %{{.+}} : i64 to i32
// CHECK: %[[ADDED:.+]] = llvm.call @nxrt_program_add_site(%[[PROGRAM]], %[[KIND]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[ERROR]])
// CHECK: %[[ALL:.+]] = llvm.mlir.addressof @__nx_sites : !llvm.ptr
// CHECK: %[[INTO:.+]] = llvm.getelementptr %[[ALL]][0, %[[I]]]
// CHECK: llvm.store %[[ADDED]], %[[INTO]]
// CHECK: llvm.icmp "eq" %[[ADDED]]
// CHECK: llvm.cond_br %{{.+}}, ^{{bb[0-9]+}}, ^[[HEAD]](
// CHECK: llvm.return %{{.+}} : !llvm.ptr
// CHECK: llvm.return %{{.+}} : !llvm.ptr
module attributes {nx.callback_ids = {normalize = 0 : i64}} {
  nx.callback @normalize : (tensor<4xf32>) -> tensor<4xf32> attributes {id = 0 : i64}
  func.func @elixir_call(%in: memref<4xf32>, %out: memref<4xf32>) -> memref<4xf32> {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    cf.br ^loop(%c0 : index)
  ^loop(%i: index):
    %more = arith.cmpi slt, %i, %c4 : index
    cf.cond_br %more, ^body, ^done
  ^body:
  nx.invoke elixir_call @normalize(%in) outs(%out) attrs {norm = "l2"} {has_side_effect} : (memref<4xf32>) -> (memref<4xf32>)
    %next = arith.addi %i, %c1 : index
    cf.br ^loop(%next : index)
  ^done:
    return %out : memref<4xf32>
  }
}

// -----

// Streams: the handle is an embedded constant (magic "NXSH", version 1,
// length, name) passed as the first argument; infeeds thread one tag per
// function, zero at entry, passed as argument and next-tag result.
// CHECK-DAG: llvm.mlir.global internal constant @[[$HANDLE:__nx_stream_[0-9]+]]("NXSH\01\00\00\00\03\00\00\00abc")
// Kinds OUTFEED (3) and INFEED (4).
// CHECK-DAG: llvm.mlir.global internal constant @__nx_site_table(dense<[3, 0, 8, {{[0-9]+}}, 0, 4, 0, {{[0-9]+}}, {{[0-9]+}}, 0]> : tensor<10xi64>)
// CHECK-LABEL: func.func @streams
// CHECK: %[[TAG:.+]] = llvm.alloca %{{.+}} x i64
// CHECK: llvm.store %{{.+}}, %[[TAG]] : i64, !llvm.ptr
// CHECK: llvm.mlir.addressof @[[$HANDLE]]
// CHECK: llvm.call @nxrt_invoke
// CHECK: llvm.mlir.addressof @[[$HANDLE]]
// CHECK: llvm.call @nxrt_invoke
// CHECK-LABEL: llvm.func @__nx_init
// CHECK: llvm.call @nxrt_program_add_site
func.func @streams(%x: memref<2xi8>, %y: memref<i1>) {
  nx.invoke outfeed @abc(%x) outs() {has_side_effect} : (memref<2xi8>) -> ()
  nx.invoke infeed @abc() outs(%y) {has_side_effect} : () -> (memref<i1>)
  return
}

// -----

// A module without host interactions still defines __nx_init, so every
// host can call it.
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NEXT: llvm.mlir.constant(1 : i64)
// CHECK-NEXT: llvm.alloca
// CHECK-NEXT: llvm.mlir.zero
// CHECK-NEXT: llvm.store
// CHECK-NEXT: llvm.return
func.func @nothing() {
  return
}

// -----

// Callers of a function that may stop on a failure stop too: after the call
// they check the run and take their own exit. @pure calls nothing that can
// fail and is left alone; @external is compiled elsewhere and may fail.
// CHECK-LABEL: func.func @leaf
// CHECK: llvm.call @nxrt_invoke
// CHECK: llvm.cond_br
// CHECK-LABEL: func.func @middle
// CHECK-NEXT: %[[CUR:.+]] = llvm.call @nxrt_run_current() : () -> !llvm.ptr
// CHECK-NEXT: %[[ONE:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[STATUS_SLOT:.+]] = llvm.alloca %[[ONE]] x !llvm.ptr
// CHECK-NEXT: %[[V:.+]] = call @leaf(%{{.+}}) : (memref<2xf32>) -> f32
// CHECK-NEXT: %[[FLAG:.+]] = llvm.call @nxrt_run_failed(%[[CUR]]) : (!llvm.ptr) -> i32
// CHECK-NEXT: %[[C0:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[NOSTATUS:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: %[[F:.+]] = llvm.icmp "ne" %[[FLAG]], %[[C0]] : i32
// CHECK-NEXT: llvm.store %[[NOSTATUS]], %[[STATUS_SLOT]]
// CHECK-NEXT: llvm.cond_br %[[F]], ^[[EXIT:bb[0-9]+]], ^[[REST:bb[0-9]+]]
// CHECK-NEXT: ^[[REST]]:
// CHECK-NEXT: return %[[V]] : f32
// CHECK-NEXT: ^[[EXIT]]:
// CHECK-NEXT: %[[S:.+]] = llvm.load %[[STATUS_SLOT]]
// CHECK-NEXT: llvm.call @nxrt_invoke_failed(%[[CUR]], %[[S]])
// CHECK-NEXT: %[[Z:.+]] = llvm.mlir.zero : f32
// CHECK-NEXT: return %[[Z]] : f32
// CHECK-LABEL: func.func @top
// CHECK: call @middle
// CHECK-NEXT: llvm.call @nxrt_run_failed
// CHECK: call @pure
// CHECK-NEXT: call @external
// CHECK-NEXT: llvm.call @nxrt_run_failed
// CHECK-LABEL: func.func @pure
// CHECK-NOT: nxrt_run_failed
// CHECK: return
func.func @leaf(%x: memref<2xf32>) -> f32 {
  nx.invoke io_callback @log(%x) outs() {has_side_effect} : (memref<2xf32>) -> ()
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<2xf32>
  return %v : f32
}
func.func @middle(%x: memref<2xf32>) -> f32 {
  %v = call @leaf(%x) : (memref<2xf32>) -> f32
  return %v : f32
}
func.func private @external()
func.func @top(%x: memref<2xf32>) -> f32 {
  %v = call @middle(%x) : (memref<2xf32>) -> f32
  %w = call @pure(%v) : (f32) -> f32
  call @external() : () -> ()
  return %w : f32
}
func.func @pure(%v: f32) -> f32 {
  %w = arith.addf %v, %v : f32
  return %w : f32
}

// -----

// Host calls with no tensors at all are not touched by bufferization; they
// become invokes here, and their callbacks are bound like any other.
// Kinds ELIXIR_CALL (0) and IO_CALLBACK (1).
// CHECK-DAG: llvm.mlir.global internal constant @__nx_site_table(dense<[0, 0, 8, {{[0-9]+}}, 0, 1, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, 0]> : tensor<10xi64>)
// CHECK-DAG: llvm.mlir.global internal constant @__nx_site_strings("tick\00{{.*}}tock\00
// CHECK-LABEL: func.func @no_tensors
// CHECK:         llvm.call @nxrt_invoke
// CHECK:         llvm.call @nxrt_invoke
// CHECK-NOT:     nx.
// CHECK-LABEL: llvm.func @__nx_init
// CHECK:         llvm.call @nxrt_program_add_site
nx.callback @tick : () -> ()
nx.callback @tock : () -> ()
func.func @no_tensors() {
  nx.elixir_call @tick() : () -> ()
  nx.io_callback @tock()
  return
}
