// The compiler's parts depend on each other only as docs/Design.md's
// "Parts and their dependencies" allows. Each check greps a part's sources
// and headers for an include of a part it may not use; a match fails it.
//
// Support, the generic passes and CPU code generation use MLIR and Support
// only: no nx dialect, no conversion, no pipeline, no host.
// RUN: not grep -rnE '#include "nx/(Dialect|Conversion|Pipelines|Runner|Aot|InitNx|Codegen|Transforms)' \
// RUN:   %nx_src_root/lib/Support %nx_src_root/include/nx/Support
// RUN: not grep -rnE '#include "nx/(Dialect|Conversion|Pipelines|Runner|Aot|InitNx|Codegen)' \
// RUN:   %nx_src_root/lib/Transforms %nx_src_root/include/nx/Transforms
// RUN: not grep -rnE '#include "nx/(Dialect|Conversion|Pipelines|Runner|Aot|InitNx|Transforms)' \
// RUN:   %nx_src_root/lib/Codegen %nx_src_root/include/nx/Codegen
//
// The dialect's IR uses Support and the runtime's C type table only.
// RUN: not grep -rnE '#include "(nx/(Conversion|Pipelines|Runner|Aot|InitNx|Codegen|Transforms)|nxhost/)' \
// RUN:   %nx_src_root/lib/Dialect/Nx/IR %nx_src_root/include/nx/Dialect/Nx/IR
//
// The dialect's passes add the generic passes and, from the conversions,
// only the header-only list of runtime symbols.
// RUN: not grep -rnE '#include "nx/(Pipelines|Runner|Aot|InitNx|Codegen)' \
// RUN:   %nx_src_root/lib/Dialect %nx_src_root/include/nx/Dialect
// RUN: not grep -rnP '#include "nx/Conversion/(?!NxToLLVM/RuntimeSymbols\.h")' \
// RUN:   %nx_src_root/lib/Dialect %nx_src_root/include/nx/Dialect
//
// Conversions use the dialect, Support and each other; code generation and
// the passes' order belong to the pipelines.
// RUN: not grep -rnE '#include "(nx/(Pipelines|Runner|Aot|InitNx|Codegen|Transforms)|nxhost/)' \
// RUN:   %nx_src_root/lib/Conversion %nx_src_root/include/nx/Conversion
//
// Pipelines assemble passes; they never reach a host.
// RUN: not grep -rnE '#include "(nx/(Runner|Aot)|nxhost/)' \
// RUN:   %nx_src_root/lib/Pipelines %nx_src_root/include/nx/Pipelines
//
// The runtime side links no MLIR and none of the compiler.
// RUN: not grep -rnE '#include "(mlir|nx)/' %nx_src_root/runtime
