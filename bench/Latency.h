//===- Latency.h - round-trip latency helpers for the benchmarks -*- C++ -*-===//
//
// Shared by NxrtDispatchBench and nx-bench-compiled, so that the bridge is
// always read against the floor of the same run and binary:
//  - ReportLatency: p50/p99/max of per-call samples as counters (us);
//  - BusyLoad: as many busy-spinning threads as there are cores, for the
//    benchmarks' loaded variants (a machine shared with other work);
//  - SpinPingPong: the machine's floor, one cache line bounced between two
//    spinning threads.
//
//===----------------------------------------------------------------------===//

#ifndef NX_BENCH_LATENCY_H
#define NX_BENCH_LATENCY_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>

namespace nx_bench {

using LatencyClock = std::chrono::steady_clock;

inline double MicrosSince(LatencyClock::time_point t0) {
  return std::chrono::duration<double, std::micro>(LatencyClock::now() - t0)
      .count();
}

inline void ReportLatency(benchmark::State &state, std::vector<double> &us) {
  if (us.empty())
    return;
  std::sort(us.begin(), us.end());
  auto at = [&](double q) {
    return us[std::min(us.size() - 1, size_t(q * us.size()))];
  };
  state.counters["p50_us"] = at(0.50);
  state.counters["p99_us"] = at(0.99);
  state.counters["max_us"] = us.back();
}

// One busy-spinning thread per core while alive (none if `threads` is 0):
// the measured threads then compete for cores with work that never blocks,
// as on a machine running other jobs.
class BusyLoad {
public:
  explicit BusyLoad(unsigned threads) {
    for (unsigned i = 0; i < threads; ++i)
      threads_.emplace_back([this] {
        for (uint64_t spins = 0; !stop_.load(std::memory_order_relaxed);)
          benchmark::DoNotOptimize(spins += 1);
      });
  }
  ~BusyLoad() {
    stop_.store(true);
    for (std::thread &t : threads_)
      t.join();
  }
  // The loaded variants' argument: 0 (idle) or 1 (one spinner per core).
  static unsigned ThreadsFor(int64_t load) {
    return load ? std::max(1u, std::thread::hardware_concurrency()) : 0;
  }

private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

// The floor: one atomic bounced between this thread and a spinning peer,
// one sample per benchmark iteration.
inline void SpinPingPong(benchmark::State &state) {
  BusyLoad load(BusyLoad::ThreadsFor(state.range(0)));
  std::atomic<int64_t> ping{0}, pong{0};
  std::atomic<bool> stop{false};
  std::thread peer([&] {
    for (int64_t seen = 0;;) {
      int64_t v;
      while ((v = ping.load(std::memory_order_acquire)) == seen)
        if (stop.load(std::memory_order_relaxed))
          return;
      seen = v;
      pong.store(v, std::memory_order_release);
    }
  });
  std::vector<double> us;
  us.reserve(1 << 20);
  int64_t x = 0;
  for (auto _ : state) {
    auto t0 = LatencyClock::now();
    ping.store(++x, std::memory_order_release);
    while (pong.load(std::memory_order_acquire) != x)
      ;
    us.push_back(MicrosSince(t0));
  }
  stop.store(true);
  peer.join();
  ReportLatency(state, us);
}

} // namespace nx_bench

#endif // NX_BENCH_LATENCY_H
