// RUN: nx-opt %s -split-input-file -convert-nx-to-llvm | FileCheck %s --enable-var-scope

// Callback declarations and ids are resolved into sites and removed.
// CHECK: module {
// CHECK-NOT: nx.callback
// @__nx_sites starts the list of site records __nx_init hands the runtime.
// CHECK: llvm.mlir.global internal constant @__nx_sites()
// CHECK-NEXT: %[[FIRST:.+]] = llvm.mlir.addressof @[[$SITE:__nx_site_0]] : !llvm.ptr
// CHECK-NEXT: llvm.return %[[FIRST]]

// CHECK-LABEL: func.func @elixir_call
// CHECK-SAME: (%[[IN:.+]]: memref<4xf32>, %[[OUT:.+]]: memref<4xf32>) -> memref<4xf32>
// The run (read once: a function runs within one run), the status slot and
// the view arrays (one pair, shared by the function's calls) live in the
// entry block, so calls in loops do not grow the stack.
// CHECK: %[[RUNCTX:.+]] = llvm.call @nxrt_run_current() : () -> !llvm.ptr
// CHECK: %[[STATUS_SLOT:.+]] = llvm.alloca %{{.+}} x !llvm.ptr
// CHECK: %[[ARGS:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(i32, i32, ptr, ptr)>
// CHECK: %[[RESULTS:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(i32, i32, ptr, ptr)>
// CHECK: ^[[LOOP:bb[0-9]+]](
// CHECK: %[[RECORD:.+]] = llvm.mlir.addressof @[[$SITE]] : !llvm.ptr
// The argument view, field by field: {dtype = NXRT_F32 (12), rank 1, dims
// (in the site's record), data}.
// CHECK: %[[VIEW:.+]] = llvm.getelementptr %[[ARGS]][0]
// CHECK: llvm.mlir.constant(12 : i32) : i32
// CHECK: llvm.getelementptr %[[VIEW]][0, 0]
// CHECK: llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.getelementptr %[[VIEW]][0, 1]
// CHECK: %[[DIMS:.+]] = llvm.getelementptr %[[RECORD]][0, 2, 40] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr, array<{{[0-9]+}} x i8>)>
// CHECK: %[[DIMS_FIELD:.+]] = llvm.getelementptr %[[VIEW]][0, 2]
// CHECK: llvm.store %[[DIMS]], %[[DIMS_FIELD]]
// CHECK: llvm.getelementptr %[[VIEW]][0, 3]
// CHECK: llvm.getelementptr %[[RESULTS]][0]
// The site the runtime stored in the record, the call.
// CHECK: %[[SITE_FIELD:.+]] = llvm.getelementptr %[[RECORD]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr, array<{{[0-9]+}} x i8>)>
// CHECK: %[[SITE_PTR:.+]] = llvm.load %[[SITE_FIELD]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[STATUS:.+]] = llvm.call @nxrt_invoke(%[[RUNCTX]], %[[SITE_PTR]], %[[ARGS]], %{{.+}}, %[[RESULTS]], %{{.+}})
// A failed call stops the function: no further iteration, no further call.
// CHECK: %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[FAILED:.+]] = llvm.icmp "ne" %[[STATUS]], %[[NULL]]
// CHECK: llvm.store %[[STATUS]], %[[STATUS_SLOT]]
// CHECK: llvm.cond_br %[[FAILED]], ^[[EXIT:bb[0-9]+]], ^[[REST:bb[0-9]+]]
// CHECK: ^[[REST]]:
// CHECK: cf.br ^[[LOOP]]
// The exit, the function's last block, hands the status to the runtime
// and returns zeros.
// CHECK: ^[[EXIT]]:
// CHECK-NEXT: %[[S:.+]] = llvm.load %[[STATUS_SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: llvm.call @nxrt_invoke_failed(%[[RUNCTX]], %[[S]])
// CHECK-NEXT: %[[ZERO:.+]] = llvm.mlir.zero : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT: %[[MEMREF:.+]] = builtin.unrealized_conversion_cast %[[ZERO]] : {{.*}} to memref<4xf32>
// CHECK-NEXT: return %[[MEMREF]] : memref<4xf32>
// CHECK-NOT: nx.invoke

// __nx_init hands the list to the runtime and returns the first error or
// null.
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-SAME: (%[[PROGRAM:.+]]: !llvm.ptr) -> !llvm.ptr
// CHECK-NEXT: %[[LIST:.+]] = llvm.mlir.addressof @__nx_sites
// CHECK-NEXT: %[[HEAD:.+]] = llvm.load %[[LIST]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[ERROR:.+]] = llvm.call @nxrt_program_add_sites(%[[PROGRAM]], %[[HEAD]])
// CHECK-NEXT: llvm.return %[[ERROR]] : !llvm.ptr

// The site's record: an nxrt_site_record_t {next (none), site (null until
// __nx_init), kind ELIXIR_CALL (0), the offsets of the name (16), location
// (26) and attributes in the bytes after it, the attributes' length (20)},
// then those bytes: the dims of its views (int64 words, 8-byte
// aligned, as the runtime reads them in place), the name and location
// (NUL-terminated), and at the next 8-byte boundary the typed attributes:
// DICT of 1 entry "norm" = STRING "l2".
// CHECK: llvm.mlir.global internal @[[$SITE]]() {{{.*}}alignment = 8 : i64} : !llvm.struct<(ptr, ptr, array<{{[0-9]+}} x i8>)>
// CHECK-NEXT: %[[ZERO:.+]] = llvm.mlir.zero : !llvm.struct<(ptr, ptr, array<{{[0-9]+}} x i8>)>
// CHECK-NEXT: %[[BYTES:.+]] = llvm.mlir.constant("\00\00\00\00\00\00\00\00\10\00\00\00\00\00\00\00\1A\00\00\00\00\00\00\00{{.*}}\14\00\00\00\00\00\00\00\04\00\00\00\00\00\00\00\04\00\00\00\00\00\00\00normalize\00{{[^"]*}}nx-to-llvm.mlir:{{[0-9]+}}:3\00{{(\\00)*}}\06\01\00\00\00\04\00\00\00norm\04\02\00\00\00l2") : !llvm.array<{{[0-9]+}} x i8>
// CHECK-NEXT: %[[RECORD_VALUE:.+]] = llvm.insertvalue %[[BYTES]], %[[ZERO]][2]
// CHECK-NEXT: llvm.return %[[RECORD_VALUE]]
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

// Streams: the handle (magic "NXSH", version 1, length, name) is in the
// site's data and passed as the first argument; an infeed also passes a tag
// (zero at entry) as argument and next-tag result. The invokes are lowered
// from the last to the first, each put at the front of the list, so the
// list is in program order: the outfeed, then the infeed.
// CHECK-LABEL: func.func @streams
// CHECK: %[[TAG:.+]] = llvm.alloca %{{.+}} x i64
// CHECK: llvm.store %{{.+}}, %[[TAG]] : i64, !llvm.ptr
// CHECK: llvm.mlir.addressof @[[$OUTFEED:__nx_site_1]] :
// CHECK: llvm.call @nxrt_invoke
// CHECK: llvm.mlir.addressof @[[$INFEED:__nx_site_0]] :
// CHECK: llvm.call @nxrt_invoke
// CHECK-LABEL: llvm.func @__nx_init
// Kind INFEED (4), the end of the list; the dims of the handle (15 bytes),
// the tag (8 bytes) and the i1 scalar (none) and the tag, then the handle.
// CHECK: llvm.mlir.global internal @[[$INFEED]]()
// CHECK-NEXT: llvm.mlir.zero
// CHECK-NEXT: llvm.mlir.constant("\04\00\00\00\00\00\00\00{{.*}}\0F\00\00\00\00\00\00\00\08\00\00\00\00\00\00\00\08\00\00\00\00\00\00\00NXSH\01\00\00\00\03\00\00\00abcabc\00
// Kind OUTFEED (3), followed by the infeed; the dims of the handle and of
// the 2xi8 buffer.
// CHECK: llvm.mlir.global internal @[[$OUTFEED]]()
// CHECK-NEXT: llvm.mlir.zero
// CHECK-NEXT: llvm.mlir.addressof @[[$INFEED]] :
// CHECK-NEXT: llvm.insertvalue
// CHECK-NEXT: llvm.mlir.constant("\03\00\00\00\00\00\00\00{{.*}}\0F\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00NXSH\01\00\00\00\03\00\00\00abcabc\00
func.func @streams(%x: memref<2xi8>, %y: memref<i1>) {
  nx.invoke outfeed @abc(%x) outs() {has_side_effect} : (memref<2xi8>) -> ()
  nx.invoke infeed @abc() outs(%y) {has_side_effect} : () -> (memref<i1>)
  return
}

// -----

// A module without host interactions still defines __nx_init, with an empty
// list, so every host can call it.
// CHECK: llvm.mlir.global internal constant @__nx_sites()
// CHECK-NEXT: %[[NONE:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: llvm.return %[[NONE]]
// CHECK-LABEL: llvm.func @__nx_init
// CHECK-NEXT: llvm.mlir.addressof @__nx_sites
// CHECK-NEXT: llvm.load
// CHECK-NEXT: llvm.call @nxrt_program_add_sites
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
// No views: @middle makes no host call itself.
// CHECK-NEXT: %[[NONE:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: llvm.alloca %[[NONE]] x !llvm.struct<(i32, i32, ptr, ptr)>
// CHECK-NEXT: %[[NONE2:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: llvm.alloca %[[NONE2]] x !llvm.struct<(i32, i32, ptr, ptr)>
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
// CHECK-NEXT: llvm.call @nxrt_run_current
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
// CHECK-LABEL: func.func @no_tensors
// CHECK:         llvm.call @nxrt_invoke
// CHECK:         llvm.call @nxrt_invoke
// CHECK-NOT:     nx.
// CHECK-LABEL: llvm.func @__nx_init
// Kinds IO_CALLBACK (1) and ELIXIR_CALL (0).
// CHECK: llvm.mlir.global internal @[[$TOCK:__nx_site_0]]()
// CHECK: llvm.mlir.constant("\01\00\00\00\00\00\00\00{{.*}}tock\00
// CHECK: llvm.mlir.global internal @[[$TICK:__nx_site_1]]()
// CHECK: llvm.mlir.addressof @[[$TOCK]] :
// CHECK: llvm.mlir.constant("\00\00\00\00\00\00\00\00{{.*}}tick\00
nx.callback @tick : () -> ()
nx.callback @tock : () -> ()
func.func @no_tensors() {
  nx.elixir_call @tick() : () -> ()
  nx.io_callback @tock()
  return
}

// -----

// A custom call's tokens take their places among its views: dtype
// NXRT_TOKEN (16), rank 0, no data. The target's operands are (token,
// memref<4xf32>).
// CHECK-LABEL: func.func @custom_call_tokens
// CHECK: %[[ARGS:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(i32, i32, ptr, ptr)>
// CHECK: %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[TOKEN:.+]] = llvm.getelementptr %[[ARGS]][0]
// CHECK: llvm.mlir.constant(16 : i32) : i32
// CHECK: llvm.getelementptr %[[TOKEN]][0, 0]
// CHECK: llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.getelementptr %[[TOKEN]][0, 1]
// CHECK: %[[DATA_FIELD:.+]] = llvm.getelementptr %[[TOKEN]][0, 3]
// CHECK: llvm.store %[[NULL]], %[[DATA_FIELD]]
// CHECK: %[[BUFFER:.+]] = llvm.getelementptr %[[ARGS]][1]
// CHECK: llvm.mlir.constant(12 : i32) : i32
// CHECK: llvm.call @nxrt_invoke(%{{.+}}, %{{.+}}, %[[ARGS]], %{{.+}}, %{{.+}}, %{{.+}})
func.func @custom_call_tokens(%x: memref<4xf32>, %s: memref<f32>) {
  nx.invoke custom_call @log(%x) outs(%s) {has_side_effect, token_inputs = array<i64: 0>, token_outputs = array<i64: 1>} : (memref<4xf32>) -> (memref<f32>)
  return
}

// -----

// A custom call on tokens only is not touched by bufferization either.
// CHECK-LABEL: func.func @tokens_only
// CHECK: llvm.call @nxrt_invoke
// CHECK-NOT: nx.custom_call
func.func @tokens_only() {
  %t = nx.create_token : !nx.token
  %0 = nx.custom_call @order(%t) {has_side_effect = true} : (!nx.token) -> !nx.token
  return
}
