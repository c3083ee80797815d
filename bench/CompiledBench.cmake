# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Benchmarks of code compiled by nx-lower-to-cpu and JIT-compiled. Included
# from bench/CMakeLists.txt after nx_add_benchmark() and the `benchmarks`
# target are defined.
#
# nx-bench-compiled: costs of host interactions (elixir_call per-call
#   overhead in a loop against a C loop, io_callback on 1 KiB vs 256 MiB,
#   pipeline compile time on 10k/100k ops).
# nx-bench-kernels: compiled compute (elementwise, sum, matmul, softmax, a
#   dense layer) against memcpy, C loops and OpenBLAS in the same binary.
# nx-bench-models: whole models and single ops (bench/models/*.mlir), their
#   compile times, and each op's kernel library (oneDNN, OpenBLAS, C);
#   bench/models/compare.py times PyTorch eager next to them.
# nx-bench-conv: a 3x3 convolution + ReLU against im2col + OpenBLAS in C and,
#   when libdnnl (oneDNN) is found, oneDNN's convolution.
if(NX_ENABLE_COMPILER)
  # The C baselines, built for this machine as nx's JIT targets it.
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(NX_BENCH_OPENBLAS REQUIRED IMPORTED_TARGET openblas)
  add_library(nx-bench-c-kernels STATIC
    ${CMAKE_CURRENT_LIST_DIR}/baselines/CKernels.c
    ${CMAKE_CURRENT_LIST_DIR}/baselines/CKernelsFastMath.c)
  target_compile_options(nx-bench-c-kernels PRIVATE -O3 -march=native)
  set_source_files_properties(
    ${CMAKE_CURRENT_LIST_DIR}/baselines/CKernelsFastMath.c
    PROPERTIES COMPILE_OPTIONS -ffast-math)
  target_link_libraries(nx-bench-c-kernels
    PUBLIC PkgConfig::NX_BENCH_OPENBLAS m)

  nx_add_benchmark(nx-bench-compiled
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/CompiledBench.cpp
            ${CMAKE_CURRENT_LIST_DIR}/BenchJit.cpp
    LINK NxRunner nx-bench-c-kernels)
  nx_add_benchmark(nx-bench-ffi
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/FfiBench.cpp
            ${CMAKE_CURRENT_LIST_DIR}/BenchJit.cpp
    LINK NxRunner)
  nx_add_benchmark(nx-bench-kernels
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/KernelBench.cpp
            ${CMAKE_CURRENT_LIST_DIR}/BenchJit.cpp
    LINK NxRunner nx-bench-c-kernels)
  nx_add_benchmark(nx-bench-conv
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/ConvBench.cpp
            ${CMAKE_CURRENT_LIST_DIR}/BenchJit.cpp
    LINK NxRunner nx-bench-c-kernels)
  nx_add_benchmark(nx-bench-models
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/ModelBench.cpp
            ${CMAKE_CURRENT_LIST_DIR}/OpBaselines.cpp
            ${CMAKE_CURRENT_LIST_DIR}/BenchJit.cpp
    LINK NxRunner nx-bench-c-kernels)
  target_compile_definitions(nx-bench-models PRIVATE
    NX_BENCH_MODELS_DIR="${CMAKE_CURRENT_LIST_DIR}/models")
  # BM_ReadBound's threads are OpenMP's: compiled with -fopenmp, linked to
  # libomp through NxRunner (never to GCC's libgomp).
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/OpBaselines.cpp
    PROPERTIES COMPILE_OPTIONS -fopenmp)
  # oneDNN is optional: without it the oneDNN baseline is left out.
  find_path(NX_BENCH_DNNL_INCLUDE oneapi/dnnl/dnnl.hpp)
  find_library(NX_BENCH_DNNL_LIBRARY dnnl)
  if(NX_BENCH_DNNL_INCLUDE AND NX_BENCH_DNNL_LIBRARY)
    foreach(bench nx-bench-conv nx-bench-models)
      target_include_directories(${bench} PRIVATE ${NX_BENCH_DNNL_INCLUDE})
      target_link_libraries(${bench} PRIVATE ${NX_BENCH_DNNL_LIBRARY})
      target_compile_definitions(${bench} PRIVATE NX_BENCH_HAVE_DNNL)
    endforeach()
  else()
    message(STATUS "oneDNN (libdnnl) not found: nx-bench-conv and nx-bench-models run without their oneDNN baselines")
  endif()
  # Preloaded by test/Integration/Models/no-openblas-kernels.mlir: a model
  # or op benchmark that calls OpenBLAS's products stops.
  add_library(nx-bench-blas-trap SHARED ${CMAKE_CURRENT_LIST_DIR}/BlasTrap.c)
  add_dependencies(benchmarks nx-bench-compiled nx-bench-kernels nx-bench-conv
    nx-bench-models nx-bench-blas-trap)
endif()
