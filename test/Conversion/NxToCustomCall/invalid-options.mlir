// Options are validated before the pass runs: an unknown platform or id
// encoding is one pipeline error naming the pass, the option, the value and
// the values it takes.
// RUN: not nx-opt %s -convert-nx-to-custom-call=platform=gpu 2>&1 | FileCheck %s --check-prefix=PLATFORM --implicit-check-not=error --implicit-check-not=Cannot
// RUN: not nx-opt %s -convert-nx-to-custom-call=callback-id-encoding=words 2>&1 | FileCheck %s --check-prefix=ENCODING --implicit-check-not=error
// RUN: not nx-opt %s "-pass-pipeline=builtin.module(convert-nx-to-custom-call{callback-abi=exla platform='tpx'})" 2>&1 | FileCheck %s --check-prefix=QUOTED --implicit-check-not=error

// Every occurrence of an option is checked, as MLIR parses every one.
// RUN: not nx-opt %s "-convert-nx-to-custom-call=platform=gpu platform=cuda" 2>&1 | FileCheck %s --check-prefix=PLATFORM --implicit-check-not=error
// RUN: not nx-opt %s "-convert-nx-to-custom-call=platform=cuda platform=gpu" 2>&1 | FileCheck %s --check-prefix=PLATFORM --implicit-check-not=error

// A braced value is one value, spaces and '=' included: only the platform
// outside the braces is an option of its own, and only it is checked.
// RUN: nx-opt %s "-convert-nx-to-custom-call=callback-target={x platform=gpu} platform=cuda" | FileCheck %s --check-prefix=BRACED
// RUN: not nx-opt %s "-pass-pipeline=builtin.module(convert-nx-to-custom-call{callback-target={x platform=gpu} platform=tpx})" 2>&1 | FileCheck %s --check-prefix=QUOTED --implicit-check-not=error

// PLATFORM: error: convert-nx-to-custom-call: option 'platform' must be one of host, cuda, rocm, tpu, got 'gpu'
// ENCODING: error: convert-nx-to-custom-call: option 'callback-id-encoding' must be one of backend-config, operand, got 'words'
// QUOTED: error: convert-nx-to-custom-call: option 'platform' must be one of host, cuda, rocm, tpu, got 'tpx'

// BRACED-LABEL: func.func @f
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
// UNKNOWN-ABI: error: convert-nx-to-custom-call: option 'callback-abi' must be one of exla, exla-legacy, got 'jax'
