// --version names the nx-mlir release and the nxrt API version.
// RUN: nx-opt --version | FileCheck %s
// RUN: nx-runner --version | FileCheck %s --check-prefix=RUNNER
// CHECK: nx-mlir version {{[0-9]+\.[0-9]+\.[0-9]+}} (nxrt API version {{[0-9]+}})
// RUNNER: nx-runner (nx-mlir) {{[0-9]+\.[0-9]+\.[0-9]+}}
// RUNNER-NEXT: nxrt API version: {{[0-9]+}} (built with {{[0-9]+}})
