//===- LoopCounters.h - counters of compiled loops --------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_BENCH_LOOPCOUNTERS_H
#define NX_BENCH_LOOPCOUNTERS_H

#include <benchmark/benchmark.h>

#include <cstdint>

namespace nx_bench {

/// Items are loop iterations; per_iter is seconds per iteration (shown as
/// e.g. "5.2n"). With the ms time unit and 10^6 iterations, the reported
/// time in ms is also ns per iteration.
inline void setLoopCounters(benchmark::State &state, int64_t iters) {
  state.SetItemsProcessed(state.iterations() * iters);
  state.counters["per_iter"] =
      benchmark::Counter(static_cast<double>(iters),
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
}

} // namespace nx_bench

#endif // NX_BENCH_LOOPCOUNTERS_H
