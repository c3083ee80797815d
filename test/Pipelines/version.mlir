// --version of every tool names the nx-mlir release and the nxrt API
// version; the runners also the API of the libnxrt they loaded, the AOT
// tools the version of the objects' ABI (nxrt/nxrt_aot.h).
// RUN: nx-opt --version | FileCheck %s --check-prefix=OPT
// RUN: nx-runner --version | FileCheck %s --check-prefix=JIT
// RUN: nx-compile --version | FileCheck %s --check-prefix=COMPILE
// RUN: nxrt-run --version | FileCheck %s --check-prefix=STANDALONE

// OPT: nx-opt (nx-mlir [[VERSION:[0-9]+\.[0-9]+\.[0-9]+]])
// OPT-NEXT: {{^}}  nxrt API version [[API:[0-9]+]]{{$}}
// JIT: nx-runner (nx-mlir {{[0-9]+\.[0-9]+\.[0-9]+}})
// JIT-NEXT: {{^}}  nxrt API version [[API:[0-9]+]] (libnxrt loaded: [[API]]){{$}}
// COMPILE: nx-compile (nx-mlir {{[0-9]+\.[0-9]+\.[0-9]+}})
// COMPILE-NEXT: {{^}}  nxrt API version {{[0-9]+}}, AOT ABI version {{[0-9]+}}{{$}}
// STANDALONE: nxrt-run (nx-mlir {{[0-9]+\.[0-9]+\.[0-9]+}})
// STANDALONE-NEXT: {{^}}  nxrt API version [[API:[0-9]+]] (libnxrt loaded: [[API]]), AOT ABI version {{[0-9]+}}{{$}}
