# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# nx-bench-segment: nx-segment-callbacks against canonicalize on generated
# 10k/100k/200k-op modules (needs MLIR). Included from bench/CMakeLists.txt
# after nx_add_benchmark() and the `benchmarks` target are defined.
if(NX_ENABLE_COMPILER)
  nx_add_benchmark(nx-bench-segment
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/SegmentCallbacksBench.cpp
    LINK NxDialectTransforms NxDialect MLIR)
  add_dependencies(benchmarks nx-bench-segment)
endif()
