//===- Latency.h - round-trip latency helpers -------------------*- C++ -*-===//
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

inline double microsSince(LatencyClock::time_point t0) {
  return std::chrono::duration<double, std::micro>(LatencyClock::now() - t0)
      .count();
}

// A bridge dispatcher's loop: pulls requests from `rt` and hands each to
// `serve`, which must reply and release it, until the bridge is closed.
template <typename Serve>
void pullUntilClosed(nxrt_runtime_t *rt, Serve serve) {
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
inline double quantile(const std::vector<double> &sorted, double q) {
  return sorted[std::min(sorted.size() - 1, size_t(q * sorted.size()))];
}

inline void reportLatency(benchmark::State &state, std::vector<double> &us) {
  if (us.empty())
    return;
  std::sort(us.begin(), us.end());
  state.counters["p50_us"] = quantile(us, 0.50);
  state.counters["p99_us"] = quantile(us, 0.99);
  state.counters["max_us"] = us.back();
}

// One busy-spinning thread per core while alive (none if `threads` is 0):
// the measured threads then compete for cores with work that never blocks,
// as on a machine running other jobs.
class BusyLoad {
public:
  explicit BusyLoad(unsigned threads) {
    for (unsigned i = 0; i < threads; ++i)
      spinners.emplace_back([this] {
        for (uint64_t spins = 0; !stop.load(std::memory_order_relaxed);)
          benchmark::DoNotOptimize(spins += 1);
      });
  }
  ~BusyLoad() {
    stop.store(true);
    for (std::thread &t : spinners)
      t.join();
  }
  // The loaded variants' argument: 0 (idle) or 1 (one spinner per core).
  static unsigned threadsFor(int64_t load) {
    return load ? std::max(1u, std::thread::hardware_concurrency()) : 0;
  }

private:
  std::atomic<bool> stop{false};
  std::vector<std::thread> spinners;
};

// Pins the calling thread to `cpu` (nothing if negative); returns whether
// it could.
inline bool pinToCpu(int cpu) {
  if (cpu < 0)
    return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

// The first two CPUs this process may run on, or {-1, -1} if it has fewer.
inline std::pair<int, int> twoCpus() {
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
  explicit PinnedPair(std::thread &peer) : peerHandle(peer.native_handle()) {
    std::tie(callerCpu, peerCpuId) = twoCpus();
    if (callerCpu < 0)
      return;
    pthread_getaffinity_np(pthread_self(), sizeof(callerMask), &callerMask);
    pthread_getaffinity_np(peerHandle, sizeof(peerMask), &peerMask);
    pinToCpu(callerCpu);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(peerCpuId, &set);
    pthread_setaffinity_np(peerHandle, sizeof(set), &set);
  }
  ~PinnedPair() {
    if (callerCpu < 0)
      return;
    pthread_setaffinity_np(pthread_self(), sizeof(callerMask), &callerMask);
    pthread_setaffinity_np(peerHandle, sizeof(peerMask), &peerMask);
  }
  PinnedPair(const PinnedPair &) = delete;
  PinnedPair &operator=(const PinnedPair &) = delete;
  // Whether there were two CPUs to pin to.
  bool ok() const { return callerCpu >= 0; }
  // The peer's CPU: where a floor measurement's peer goes.
  int peerCpu() const { return peerCpuId; }

private:
  pthread_t peerHandle;
  int callerCpu = -1, peerCpuId = -1;
  cpu_set_t callerMask, peerMask;
};

// The floor: one atomic bounced between the calling thread and a spinning
// peer thread (on `cpu` if not negative), which runs while this object
// lives.
class PingPeer {
public:
  explicit PingPeer(int cpu = -1) {
    peer = std::thread([this, cpu] {
      pinToCpu(cpu);
      for (int64_t seen = 0;;) {
        int64_t v;
        while ((v = ping.load(std::memory_order_acquire)) == seen)
          if (stop.load(std::memory_order_relaxed))
            return;
        seen = v;
        pong.store(v, std::memory_order_release);
      }
    });
  }
  ~PingPeer() {
    stop.store(true);
    peer.join();
  }
  // One round trip; returns its latency in microseconds.
  double roundTrip() {
    auto t0 = LatencyClock::now();
    ping.store(++sent, std::memory_order_release);
    while (pong.load(std::memory_order_acquire) != sent)
      ;
    return microsSince(t0);
  }

private:
  // In one line, as the two threads' flags would be in any handoff.
  alignas(64) std::atomic<int64_t> ping{0};
  std::atomic<int64_t> pong{0};
  alignas(64) std::atomic<bool> stop{false};
  int64_t sent = 0;
  std::thread peer;
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
    peer = std::thread([this, cpu] {
      pinToCpu(cpu);
      for (;;) {
        Record *r;
        while (!(r = mailbox.load(std::memory_order_acquire)))
          if (stop.load(std::memory_order_relaxed))
            return;
        mailbox.store(nullptr, std::memory_order_relaxed);
        *r->result.data = *r->arg.data + 1;
        r->answered.store(1, std::memory_order_release);
      }
    });
  }
  ~HandoffPeer() {
    stop.store(true);
    peer.join();
  }
  double roundTrip() {
    auto t0 = LatencyClock::now();
    record.answered.store(0, std::memory_order_relaxed);
    record.id += 1;
    record.arg = {&buffers[0], {1, 1, 1, 1}};
    record.result = {&buffers[1], {1, 1, 1, 1}};
    mailbox.store(&record, std::memory_order_release);
    while (!record.answered.load(std::memory_order_acquire))
      ;
    if (buffers[1] != buffers[0] + 1)
      std::abort();
    ++buffers[0];
    return microsSince(t0);
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
  alignas(64) std::atomic<Record *> mailbox{nullptr};
  alignas(64) std::atomic<bool> stop{false};
  Record record;
  alignas(64) int64_t buffers[2] = {0, 0};
  std::thread peer;
};

// A benchmark of `Peer` (one of those above, or anything default-
// constructible with a roundTrip() returning microseconds): one round trip
// per iteration, with argument `load` as in BusyLoad::ThreadsFor.
template <typename Peer> void peerRoundTrips(benchmark::State &state) {
  BusyLoad load(BusyLoad::threadsFor(state.range(0)));
  std::vector<double> us;
  us.reserve(1 << 20);
  {
    Peer peer;
    for (auto _ : state)
      us.push_back(peer.roundTrip());
  }
  reportLatency(state, us);
}

inline void spinPingPong(benchmark::State &state) {
  peerRoundTrips<PingPeer>(state);
}
inline void descriptorHandoff(benchmark::State &state) {
  peerRoundTrips<HandoffPeer>(state);
}

// `count` round trips of a fresh Peer (on `cpu` if not negative), taken
// between blocks of another measurement so that both see the same
// placement of a VM's vCPUs on host cores (which changes over time, and
// with it the floor, here between about 0.2 and 0.5 us). The first 256 are
// discarded: the peer is starting and the other measurement's threads are
// still settling (a bridge dispatcher spins a few microseconds before it
// parks).
template <typename Peer>
void sampleBlock(std::vector<double> &us, int count, int cpu = -1) {
  Peer peer(cpu);
  for (int i = 0; i < 256; ++i)
    peer.roundTrip();
  for (int i = 0; i < count; ++i)
    us.push_back(peer.roundTrip());
}

// Reports `us` against floor samples of the same run: floor_p50_us, and
// x_floor_p50 / x_floor_p99, the measurement's p50 and p99 over the
// floor's p50.
inline void reportAgainstFloor(benchmark::State &state, std::vector<double> &us,
                               std::vector<double> &floor) {
  reportLatency(state, us);
  if (floor.empty() || us.empty())
    return;
  std::sort(floor.begin(), floor.end());
  double floorP50 = quantile(floor, 0.50);
  state.counters["floor_p50_us"] = floorP50;
  state.counters["x_floor_p50"] = state.counters["p50_us"] / floorP50;
  state.counters["x_floor_p99"] = state.counters["p99_us"] / floorP50;
}

} // namespace nx_bench

#endif // NX_BENCH_LATENCY_H
