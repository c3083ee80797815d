// RUN: nx-opt %s -convert-nx-to-custom-call=platform=gpu -verify-diagnostics
// RUN: not nx-opt %s -convert-nx-to-custom-call=callback-id-encoding=words 2>&1 | FileCheck %s --check-prefix=ENCODING

// ENCODING: for the --callback-id-encoding option: Cannot find option named 'words'!

// expected-error @+1 {{unknown target platform 'gpu'; expected one of host, cuda, rocm, tpu}}
module {
  func.func @f() {
    return
  }
}
