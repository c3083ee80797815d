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
