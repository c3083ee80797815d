// A C host (test/Integration/AOT/ffi-host) loads the XLA FFI handler library
// with nxrt_ffi_load_library and calls a program compiled ahead of time that
// calls the handlers: libnxrt's C API, no runner in between. A handler's
// error fails its run, and the host goes on.
// RUN: nx-ffi-host %nx_test_ffi_handlers | FileCheck %s
// CHECK: handlers registered: 9
// CHECK-NEXT: rms_norm: 0.3651 0.7303 1.0954 1.4606 -0.8165 0.0000 0.8165 1.6330
// CHECK-NEXT: fails: custom call @test_ffi.fail at {{.*}}rms_norm.mlir:9:8 failed: the fail handler always fails
// RUN: not nx-ffi-host %t.missing.so 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: cannot load XLA FFI library '{{.*}}missing.so'
