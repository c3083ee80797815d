# nx-bench-compiled: costs of host interactions in code compiled by
# nx-lower-to-cpu and JIT-compiled (elixir_call per-call overhead in a loop,
# io_callback on 1 KiB vs 256 MiB, pipeline compile time on 10k/100k ops).
# Included from bench/CMakeLists.txt after nx_add_benchmark() and the
# `benchmarks` target are defined.
if(NX_ENABLE_COMPILER)
  nx_add_benchmark(nx-bench-compiled
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/CompiledBench.cpp
    LINK NxRunner)
  add_dependencies(benchmarks nx-bench-compiled)
endif()
