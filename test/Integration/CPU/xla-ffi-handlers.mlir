// XLA FFI handlers, written in C against the XLA FFI C ABI and registered
// as their library loads, run as the targets of nx.custom_call with
// api_version = 4: operands and results are the program's buffers, the
// dictionary backend_config is their attributes. Results are checked against
// NumPy.
//
// RUN: nx-runner %s --entry=rms_norm --ffi-library=%nx_test_ffi_handlers \
// RUN:   --input='2x4xf32=1 2 3 4 -1 0 1 2' --output=%t.rms.npy --output=%t.scale.npy \
// RUN:   | FileCheck %s --check-prefix=RMS
// RMS: result #0: tensor<2x4xf32>
// RMS: result #1: tensor<2xf32>
// RUN: %numpy_python -c "import numpy as np; x = np.array([[1,2,3,4],[-1,0,1,2]], np.float32); \
// RUN:   s = 1 / np.sqrt((x * x).mean(-1) + np.float32(1e-5)); \
// RUN:   assert np.allclose(np.load('%t.rms.npy'), x * s[:, None], rtol=1e-6), np.load('%t.rms.npy'); \
// RUN:   assert np.allclose(np.load('%t.scale.npy'), s, rtol=1e-6); print('rms ok')" | FileCheck %s --check-prefix=NUMPY
// NUMPY: rms ok
//
// The same handlers from an object compiled ahead of time, under nxrt-run.
// RUN: nx-compile %s -o %t.so
// RUN: nxrt-run %t.so --entry=rms_norm --ffi-library=%nx_test_ffi_handlers \
// RUN:   --input='2x4xf32=1 2 3 4 -1 0 1 2' --output=%t.rms.npy --output=%t.scale.npy \
// RUN:   | FileCheck %s --check-prefix=RMS
// RUN: %numpy_python -c "import numpy as np; x = np.array([[1,2,3,4],[-1,0,1,2]], np.float32); \
// RUN:   s = 1 / np.sqrt((x * x).mean(-1) + np.float32(1e-5)); \
// RUN:   assert np.allclose(np.load('%t.rms.npy'), x * s[:, None], rtol=1e-6), np.load('%t.rms.npy'); \
// RUN:   assert np.allclose(np.load('%t.scale.npy'), s, rtol=1e-6); print('rms ok')" | FileCheck %s --check-prefix=NUMPY
// RUN: nxrt-run %t.so --entry=counter --ffi-library=%nx_test_ffi_handlers --input='f32=0' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COUNTER
// RUN: nxrt-run %t.so --entry=async --ffi-library=%nx_test_ffi_handlers --input='3xf32=1 2 3' \
// RUN:   | FileCheck %s --check-prefix=ASYNC
// RUN: not nxrt-run %t.so --entry=fails --ffi-library=%nx_test_ffi_handlers --input='2xf32=1 2' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FAIL
//
// RUN: nx-runner %s --entry=affine --ffi-library=%nx_test_ffi_handlers --input='3xf32=1 2 3' \
// RUN:   | FileCheck %s --check-prefix=AFFINE
// AFFINE: result #0: tensor<3xf32> = [6.5, 8.5, 10.5]
//
// RUN: nx-runner %s --entry=counter --ffi-library=%nx_test_ffi_handlers --input='f32=0' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COUNTER
// COUNTER: result #0: tensor<i64> = 33
// COUNTER-NEXT: result #1: tensor<i64> = 100
// COUNTER-NEXT: counter state deleted
// COUNTER-NEXT: counter state deleted
//
// RUN: nx-runner %s --entry=pool --ffi-library=%nx_test_ffi_handlers --input='5xf32=1 2 3 4 5' \
// RUN:   | FileCheck %s --check-prefix=POOL
// POOL: result #0: tensor<5xf32> = [3, 6, 9, 12, 15]
//
// RUN: nx-runner %s --entry=async --ffi-library=%nx_test_ffi_handlers --input='3xf32=1 2 3' \
// RUN:   | FileCheck %s --check-prefix=ASYNC
// ASYNC: result #0: tensor<3xf32> = [3, 4, 5]
//
// RUN: nx-runner %s --entry=negate --ffi-library=%nx_test_ffi_handlers \
// RUN:   --ffi-target=test_ffi.negate=nx_test_ffi_negate --input='2xf32=1 -2' \
// RUN:   | FileCheck %s --check-prefix=SYMBOL
// SYMBOL: result #0: tensor<2xf32> = [-1, 2]
//
// RUN: not nx-runner %s --entry=fails --ffi-library=%nx_test_ffi_handlers --input='2xf32=1 2' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FAIL
// FAIL: error: custom call @test_ffi.fail at {{.*}}xla-ffi-handlers.mlir:{{[0-9]+}}:{{[0-9]+}} failed: the fail handler always fails
//
// output_operand_aliases make the result the operand's buffer; without
// them it is a buffer of its own. The handler checks which it got.
// RUN: nx-runner %s --entry=aliased --ffi-library=%nx_test_ffi_handlers --input='2xf32=1 2' \
// RUN:   | FileCheck %s --check-prefix=ALIASED
// ALIASED: result #0: tensor<2xf32> = [2, 4]
// ALIASED-NEXT: result #1: tensor<2xf32> = [2, 4]
//
// has_side_effect keeps a call whose result is unused: it runs, and fails.
// Without it, the unused call is removed and the run succeeds.
// RUN: not nx-runner %s --entry=unused_effect --ffi-library=%nx_test_ffi_handlers --input='2xf32=1 2' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EFFECT
// EFFECT: error: custom call @test_ffi.fail at {{.*}} failed: the fail handler always fails
// RUN: nx-runner %s --entry=unused_pure --ffi-library=%nx_test_ffi_handlers --input='2xf32=1 2' \
// RUN:   | FileCheck %s --check-prefix=PURE
// PURE: result #0: tensor<2xf32> = [1, 2]
//
// RUN: not nx-runner %s --entry=wrong_dtype --ffi-library=%nx_test_ffi_handlers --input='2xf64=1 2' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DTYPE
// DTYPE: error: custom call @test_ffi.rms_norm at {{.*}} failed: Failed to decode all FFI handler operands: argument 0 has dtype 12, expected f32 (11)
//
// RUN: not nx-runner %s --entry=missing_attr --ffi-library=%nx_test_ffi_handlers --input='2xf32=1 2' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ATTR
// ATTR: failed: Failed to decode all FFI handler attributes: no f32 attribute 'eps'
//
// RUN: not nx-runner %s --entry=negate --input='2xf32=1 -2' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown custom-call target @test_ffi.negate at {{.*}} (neither bound with nxrt_register_custom_call nor registered as an XLA FFI handler for 'Host')
// UNKNOWN: note: nothing binds custom-call target @test_ffi.negate: pass --ffi-library=LIB
//
// RUN: not nx-runner %s --entry=negate --ffi-library=%t.missing.so 2>&1 | FileCheck %s --check-prefix=NOLIB
// NOLIB: error: cannot load XLA FFI library '{{.*}}missing.so'
// RUN: not nx-runner %s --entry=negate --ffi-library=%nx_test_ffi_handlers --ffi-target=test_ffi.negate=no_such_symbol 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOSYM
// NOSYM: error: XLA FFI handler symbol 'no_such_symbol' not found in the process
// RUN: not nx-runner %s --entry=negate --ffi-library=%nx_test_ffi_handlers --ffi-target=test_ffi.negate 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTPAIR
// NOTPAIR: error: --ffi-target='test_ffi.negate' is not NAME=SYMBOL
// REQUIRES: numpy

func.func @rms_norm(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2xf32>) {
  %y, %s = nx.custom_call @test_ffi.rms_norm_fwd(%x) {api_version = 4 : i32, backend_config = {eps = 1.0e-5 : f32}} : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2xf32>)
  return %y, %s : tensor<2x4xf32>, tensor<2xf32>
}

// x * 2 + 1 + (1.5 + 2.0)
func.func @affine(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = nx.custom_call @test_ffi.affine(%x) {api_version = 4 : i32, backend_config = {config = {scale = 2.0 : f32, offset = 1 : i64, tag = "affine", weights = array<f64: 1.5, 2.0>}}} : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// Two call sites, two states: the first site's is kept from one call to
// the next (10 + 11 + 12), and both are deleted with the program.
func.func @counter(%x: tensor<f32>) -> (tensor<i64>, tensor<i64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant dense<0> : tensor<i64>
  %sum = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> tensor<i64> {
    %a = nx.custom_call @test_ffi.counter(%x) {api_version = 4 : i32, has_side_effect = true, backend_config = {start = 10 : i64}} : (tensor<f32>) -> tensor<i64>
    %next = arith.addi %acc, %a : tensor<i64>
    scf.yield %next : tensor<i64>
  }
  %b = nx.custom_call @test_ffi.counter(%x) {api_version = 4 : i32, has_side_effect = true, backend_config = {start = 100 : i64}} : (tensor<f32>) -> tensor<i64>
  return %sum, %b : tensor<i64>, tensor<i64>
}

func.func @pool(%x: tensor<5xf32>) -> tensor<5xf32> {
  %y = nx.custom_call @test_ffi.parallel_scale(%x) {api_version = 4 : i32, backend_config = {factor = 3.0 : f32}} : (tensor<5xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

func.func @async(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = nx.custom_call @test_ffi.async_add_one(%x) {api_version = 4 : i32, backend_config = {}} : (tensor<3xf32>) -> tensor<3xf32>
  %z = nx.custom_call @test_ffi.async_add_one(%y) {api_version = 4 : i32, backend_config = {}} : (tensor<3xf32>) -> tensor<3xf32>
  return %z : tensor<3xf32>
}

func.func @negate(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.custom_call @test_ffi.negate(%x) {api_version = 4 : i32, backend_config = {}} : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func @wrong_dtype(%x: tensor<2xf64>) -> tensor<2xf64> {
  %y = nx.custom_call @test_ffi.rms_norm(%x) {api_version = 4 : i32, backend_config = {eps = 1.0e-5 : f32}} : (tensor<2xf64>) -> tensor<2xf64>
  return %y : tensor<2xf64>
}

func.func @missing_attr(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.custom_call @test_ffi.rms_norm(%x) {api_version = 4 : i32, backend_config = {epsilon = 1.0e-5 : f32}} : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func @fails(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.custom_call @test_ffi.fail(%x) {api_version = 4 : i32, has_side_effect = true, backend_config = {}} : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func @aliased(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %copy = bufferization.alloc_tensor() copy(%x) : tensor<2xf32>
  %a = nx.custom_call @test_ffi.double_in_place(%copy) {api_version = 4 : i32, backend_config = {aliased = true}, output_operand_aliases = [#nx.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2xf32>) -> tensor<2xf32>
  %b = nx.custom_call @test_ffi.double_in_place(%x) {api_version = 4 : i32, backend_config = {aliased = false}} : (tensor<2xf32>) -> tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}

func.func @unused_effect(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.custom_call @test_ffi.fail(%x) {api_version = 4 : i32, has_side_effect = true, backend_config = {}} : (tensor<2xf32>) -> tensor<2xf32>
  return %x : tensor<2xf32>
}

func.func @unused_pure(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = nx.custom_call @test_ffi.fail(%x) {api_version = 4 : i32, has_side_effect = false, backend_config = {}} : (tensor<2xf32>) -> tensor<2xf32>
  return %x : tensor<2xf32>
}
