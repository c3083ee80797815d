//===- AllocationBench.cpp - heap buffers of compiled code ----------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiled code allocates through libnxrt's generic allocation functions,
// which record each buffer in the current run so that a failed run can free
// what its code still held. This measures what that record costs against
// plain malloc/free, in the pattern of a loop that carries a buffer (each
// iteration allocates the next one and frees the previous one), with a few
// or many other buffers live.
//
//   BM_Malloc/<live>          baseline: malloc + free
//   BM_TrackedInRun/<live>    _mlir_memref_to_llvm_alloc/free inside a run
//   BM_TrackedOutsideRun/0    the same outside any run (plain pass-through)
//
//===----------------------------------------------------------------------===//

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <vector>

#include "nxrt/nxrt.h"

namespace {

template <typename Alloc, typename Free>
void carryBuffer(benchmark::State &state, Alloc alloc, Free free) {
  std::vector<void *> live(state.range(0));
  for (void *&buffer : live)
    buffer = alloc(64);
  void *carried = alloc(4);
  for (auto _ : state) {
    void *next = alloc(4);
    benchmark::DoNotOptimize(next);
    free(carried);
    carried = next;
  }
  free(carried);
  for (void *buffer : live)
    free(buffer);
  state.SetItemsProcessed(state.iterations());
}

void BM_Malloc(benchmark::State &state) {
  carryBuffer(
      state, [](size_t n) { return std::malloc(n); },
      [](void *p) { std::free(p); });
}
BENCHMARK(BM_Malloc)->Arg(0)->Arg(16)->Arg(1024);

void BM_TrackedInRun(benchmark::State &state) {
  nxrt_runtime_t *runtime = nxrt_runtime_create();
  nxrt_run_t *run = nxrt_run_begin(runtime, nullptr);
  carryBuffer(state, _mlir_memref_to_llvm_alloc, _mlir_memref_to_llvm_free);
  nxrt_status_free(nxrt_run_end(run));
  nxrt_runtime_destroy(runtime);
}
BENCHMARK(BM_TrackedInRun)->Arg(0)->Arg(16)->Arg(1024);

void BM_TrackedOutsideRun(benchmark::State &state) {
  carryBuffer(state, _mlir_memref_to_llvm_alloc, _mlir_memref_to_llvm_free);
}
BENCHMARK(BM_TrackedOutsideRun)->Arg(0);

} // namespace

BENCHMARK_MAIN();
