//===- Latency.h - round-trip latency helpers for the benchmarks -*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Shared by NxrtDispatchBench and nx-bench-compiled, so that the bridge is
// always read against the floor of the same run and binary:
//  - ReportLatency: p50/p99/max of per-call samples as counters (us);
//  - PullUntilClosed: a bridge dispatcher's pull loop;
//  - BusyLoad: as many busy-spinning threads as there are cores, for the
//    benchmarks' loaded variants (a machine shared with other work);
//  - SpinPingPong: the machine's floor, one cache line bounced between two
//    spinning threads;
//  - DescriptorHandoff: the least a zero-copy bridge's round trip costs
//    (a request record through a mailbox, data through views).
//
//===----------------------------------------------------------------------===//

#ifndef NX_BENCH_LATENCY_H
#define NX_BENCH_LATENCY_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <tuple>
#include <utility>

#include <pthread.h>
#include <sched.h>
#include <vector>

#include <benchmark/benchmark.h>

#include "nxrt/nxrt.h"

namespace nx_bench {

using LatencyClock = std::chrono::steady_clock;

inline double MicrosSince(LatencyClock::time_point t0) {
  return std::chrono::duration<double, std::micro>(LatencyClock::now() - t0)
      .count();
}

// A bridge dispatcher's loop: pulls requests from `rt` and hands each to
// `serve`, which must reply and release it, until the bridge is closed.
template <typename Serve> void PullUntilClosed(nxrt_runtime_t *rt, Serve serve) {
  for (;;) {
    nxrt_request_t *req = nullptr;
    nxrt_status_t *s = nxrt_bridge_pull(rt, 0, &req);
    if (s) {
      bool closed = nxrt_status_code(s) == NXRT_CANCELLED;
      nxrt_status_free(s);
      if (closed)
        return;
      continue;
    }
    serve(req);
  }
}

// The q-quantile of sorted, non-empty samples.
inline double Quantile(const std::vector<double> &sorted, double q) {
  return sorted[std::min(sorted.size() - 1, size_t(q * sorted.size()))];
}

inline void ReportLatency(benchmark::State &state, std::vector<double> &us) {
  if (us.empty())
    return;
  std::sort(us.begin(), us.end());
  state.counters["p50_us"] = Quantile(us, 0.50);
  state.counters["p99_us"] = Quantile(us, 0.99);
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

// Pins the calling thread to `cpu` (nothing if negative); returns whether
// it could.
inline bool PinToCpu(int cpu) {
  if (cpu < 0)
    return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

// The first two CPUs this process may run on, or {-1, -1} if it has fewer.
inline std::pair<int, int> TwoCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::pair<int, int> cpus{-1, -1};
  if (sched_getaffinity(0, sizeof(set), &set) != 0)
    return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE && cpus.second < 0; ++cpu)
    if (CPU_ISSET(cpu, &set))
      (cpus.first < 0 ? cpus.first : cpus.second) = cpu;
  return cpus.second < 0 ? std::pair<int, int>{-1, -1} : cpus;
}

// While alive, the calling thread runs on one CPU and `peer` (a thread
// that serves it, such as a bridge dispatcher) on another, as the floor's
// threads do; both threads' affinity is restored afterwards. Latency
// benchmarks need this on a small VM: left to itself, its scheduler takes
// milliseconds to spread a freshly started thread, and at times keeps two
// threads that hand work to each other on one CPU.
class PinnedPair {
public:
  explicit PinnedPair(std::thread &peer) : peer_(peer.native_handle()) {
    std::tie(caller_cpu_, peer_cpu_) = TwoCpus();
    if (caller_cpu_ < 0)
      return;
    pthread_getaffinity_np(pthread_self(), sizeof(caller_mask_), &caller_mask_);
    pthread_getaffinity_np(peer_, sizeof(peer_mask_), &peer_mask_);
    PinToCpu(caller_cpu_);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(peer_cpu_, &set);
    pthread_setaffinity_np(peer_, sizeof(set), &set);
  }
  ~PinnedPair() {
    if (caller_cpu_ < 0)
      return;
    pthread_setaffinity_np(pthread_self(), sizeof(caller_mask_), &caller_mask_);
    pthread_setaffinity_np(peer_, sizeof(peer_mask_), &peer_mask_);
  }
  PinnedPair(const PinnedPair &) = delete;
  PinnedPair &operator=(const PinnedPair &) = delete;
  // Whether there were two CPUs to pin to.
  bool ok() const { return caller_cpu_ >= 0; }
  // The peer's CPU: where a floor measurement's peer goes.
  int peer_cpu() const { return peer_cpu_; }

private:
  pthread_t peer_;
  int caller_cpu_ = -1, peer_cpu_ = -1;
  cpu_set_t caller_mask_, peer_mask_;
};

// The floor: one atomic bounced between the calling thread and a spinning
// peer thread (on `cpu` if not negative), which runs while this object
// lives.
class PingPeer {
public:
  explicit PingPeer(int cpu = -1) {
    peer_ = std::thread([this, cpu] {
      PinToCpu(cpu);
      for (int64_t seen = 0;;) {
        int64_t v;
        while ((v = ping_.load(std::memory_order_acquire)) == seen)
          if (stop_.load(std::memory_order_relaxed))
            return;
        seen = v;
        pong_.store(v, std::memory_order_release);
      }
    });
  }
  ~PingPeer() {
    stop_.store(true);
    peer_.join();
  }
  // One round trip; returns its latency in microseconds.
  double RoundTrip() {
    auto t0 = LatencyClock::now();
    ping_.store(++sent_, std::memory_order_release);
    while (pong_.load(std::memory_order_acquire) != sent_)
      ;
    return MicrosSince(t0);
  }

private:
  // In one line, as the two threads' flags would be in any handoff.
  alignas(64) std::atomic<int64_t> ping_{0};
  std::atomic<int64_t> pong_{0};
  alignas(64) std::atomic<bool> stop_{false};
  int64_t sent_ = 0;
  std::thread peer_;
};

// What any zero-copy bridge must pay at least, as a second reference next
// to the floor: the caller fills a request record (one argument view, one
// result view, a state word) and posts its address through a one-slot
// mailbox; a spinning peer takes it, reads the argument through its view,
// writes the result into the output buffer and marks the record answered,
// which the caller spins on. No tags, deadlines, validation, reference
// counts or parking: the cache lines a request and its data must cross, and
// nothing else.
class HandoffPeer {
public:
  explicit HandoffPeer(int cpu = -1) {
    peer_ = std::thread([this, cpu] {
      PinToCpu(cpu);
      for (;;) {
        Record *r;
        while (!(r = mailbox_.load(std::memory_order_acquire)))
          if (stop_.load(std::memory_order_relaxed))
            return;
        mailbox_.store(nullptr, std::memory_order_relaxed);
        *r->result.data = *r->arg.data + 1;
        r->answered.store(1, std::memory_order_release);
      }
    });
  }
  ~HandoffPeer() {
    stop_.store(true);
    peer_.join();
  }
  double RoundTrip() {
    auto t0 = LatencyClock::now();
    record_.answered.store(0, std::memory_order_relaxed);
    record_.id += 1;
    record_.arg = {&buffers_[0], {1, 1, 1, 1}};
    record_.result = {&buffers_[1], {1, 1, 1, 1}};
    mailbox_.store(&record_, std::memory_order_release);
    while (!record_.answered.load(std::memory_order_acquire))
      ;
    if (buffers_[1] != buffers_[0] + 1)
      std::abort();
    ++buffers_[0];
    return MicrosSince(t0);
  }

private:
  struct View {
    int64_t *data;
    int64_t dims[4];
  };
  struct alignas(128) Record {
    std::atomic<int> answered{0};
    uint64_t id = 0;
    View arg{}, result{};
  };
  alignas(64) std::atomic<Record *> mailbox_{nullptr};
  alignas(64) std::atomic<bool> stop_{false};
  Record record_;
  alignas(64) int64_t buffers_[2] = {0, 0};
  std::thread peer_;
};

// A benchmark of `Peer` (one of those above, or anything default-
// constructible with a RoundTrip() returning microseconds): one round trip
// per iteration, with argument `load` as in BusyLoad::ThreadsFor.
template <typename Peer> void PeerRoundTrips(benchmark::State &state) {
  BusyLoad load(BusyLoad::ThreadsFor(state.range(0)));
  std::vector<double> us;
  us.reserve(1 << 20);
  {
    Peer peer;
    for (auto _ : state)
      us.push_back(peer.RoundTrip());
  }
  ReportLatency(state, us);
}

inline void SpinPingPong(benchmark::State &state) {
  PeerRoundTrips<PingPeer>(state);
}
inline void DescriptorHandoff(benchmark::State &state) {
  PeerRoundTrips<HandoffPeer>(state);
}

// `count` round trips of a fresh Peer (on `cpu` if not negative), taken
// between blocks of another measurement so that both see the same
// placement of a VM's vCPUs on host cores (which changes over time, and
// with it the floor, here between about 0.2 and 0.5 us). The first 256 are
// discarded: the peer is starting and the other measurement's threads are
// still settling (a bridge dispatcher spins a few microseconds before it
// parks).
template <typename Peer>
void SampleBlock(std::vector<double> &us, int count, int cpu = -1) {
  Peer peer(cpu);
  for (int i = 0; i < 256; ++i)
    peer.RoundTrip();
  for (int i = 0; i < count; ++i)
    us.push_back(peer.RoundTrip());
}

// Reports `us` against floor samples of the same run: floor_p50_us, and
// x_floor_p50 / x_floor_p99, the measurement's p50 and p99 over the
// floor's p50.
inline void ReportAgainstFloor(benchmark::State &state, std::vector<double> &us,
                               std::vector<double> &floor) {
  ReportLatency(state, us);
  if (floor.empty() || us.empty())
    return;
  std::sort(floor.begin(), floor.end());
  double floor_p50 = Quantile(floor, 0.50);
  state.counters["floor_p50_us"] = floor_p50;
  state.counters["x_floor_p50"] = state.counters["p50_us"] / floor_p50;
  state.counters["x_floor_p99"] = state.counters["p99_us"] / floor_p50;
}

} // namespace nx_bench

#endif // NX_BENCH_LATENCY_H
