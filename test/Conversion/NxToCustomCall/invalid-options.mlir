// Options are validated before the pass runs: an unknown platform or id
// encoding is a pipeline error naming the option.
// RUN: not nx-opt %s -convert-nx-to-custom-call=platform=gpu 2>&1 | FileCheck %s --check-prefix=PLATFORM
// RUN: not nx-opt %s -convert-nx-to-custom-call=callback-id-encoding=words 2>&1 | FileCheck %s --check-prefix=ENCODING

// PLATFORM: for the --platform option: Cannot find option named 'gpu'!
// ENCODING: for the --callback-id-encoding option: Cannot find option named 'words'!

module {
  func.func @f() {
    return
  }
}

// An id operand is the older targets' encoding: exla_runtime_callback takes
// the id in backend_config only.
// RUN: not nx-opt %s -convert-nx-to-custom-call=callback-id-encoding=operand 2>&1 | FileCheck %s --check-prefix=ABI
// RUN: nx-opt %s "-convert-nx-to-custom-call=callback-abi=exla-legacy callback-id-encoding=operand"
// RUN: not nx-opt %s -convert-nx-to-custom-call=callback-abi=jax 2>&1 | FileCheck %s --check-prefix=UNKNOWN-ABI
// ABI: error: callback-id-encoding=operand needs callback-abi=exla-legacy: exla_runtime_callback takes the callback id in backend_config
// UNKNOWN-ABI: for the --callback-abi option: Cannot find option named 'jax'!
