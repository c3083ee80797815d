//===- Sync.cpp - Locking primitives for libnxrt --------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Sync.h"

#include <cstring>

#include <algorithm>
#include <climits>

#if defined(__linux__)
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#endif

namespace nxrt {
namespace {

#if defined(__linux__)
// The kernel's count of runnable threads, all CPUs, the caller included: the
// numerator of /proc/loadavg's fourth field ("0.50 0.40 0.30 3/245 12345").
// -1 where it cannot be read (no procfs, a sandbox).
int runnableThreads() {
  int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  char buf[128];
  ssize_t n = read(fd, buf, sizeof(buf) - 1);
  close(fd);
  if (n <= 0)
    return -1;
  buf[n] = '\0';
  const char *p = buf;
  for (int field = 0; field < 3; ++field) {
    p = std::strchr(p, ' ');
    if (!p)
      return -1;
    ++p;
  }
  int runnable = 0;
  const char *digits = p;
  for (; *p >= '0' && *p <= '9'; ++p)
    runnable = runnable * 10 + (*p - '0');
  return p != digits && *p == '/' ? runnable : -1;
}
#endif

#if !defined(__linux__)
// Elsewhere, one process-wide parking lot: every wake-up wakes all sleepers,
// which recheck their words. Correct, if slower than a futex.
Mutex &lotMutex() {
  static Mutex *mu = new Mutex;
  return *mu;
}
CondVar &lotCondVar() {
  static CondVar *cv = new CondVar;
  return *cv;
}
#endif

} // namespace

static_assert(sizeof(std::atomic<int>) == sizeof(int),
              "futexes wait on the atomic's own storage");

void futexWait(const std::atomic<int> &word, int expected,
               absl::Time deadline) {
#if defined(__linux__)
  timespec ts{};
  timespec *timeout = nullptr;
  if (deadline != absl::InfiniteFuture()) {
    absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration())
      return;
    ts = absl::ToTimespec(left);
    timeout = &ts;
  }
  // FUTEX_WAIT's timeout is relative, on CLOCK_MONOTONIC. EAGAIN (the word
  // changed already), EINTR and ETIMEDOUT all mean: recheck.
  syscall(SYS_futex, reinterpret_cast<const int *>(&word), FUTEX_WAIT_PRIVATE,
          expected, timeout, nullptr, 0);
#else
  MutexLock lock(&lotMutex());
  while (word.load(std::memory_order_seq_cst) == expected)
    if (lotCondVar().WaitWithDeadline(&lotMutex(), deadline))
      return;
#endif
}

void futexWake(const std::atomic<int> &word, int count) {
#if defined(__linux__)
  syscall(SYS_futex, reinterpret_cast<const int *>(&word), FUTEX_WAKE_PRIVATE,
          count, nullptr, nullptr, 0);
#else
  (void)word;
  (void)count;
  MutexLock lock(&lotMutex());
  lotCondVar().SignalAll();
#endif
}

bool machineOverloaded(int64_t nowNs) {
#if defined(__linux__)
  // Three syscalls, ~5 us, paid by one waiter per millisecond: negligible
  // next to the round trips in between, and the count changes only as
  // fast as the scheduler's own view of the load does.
  static const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  // Read by every waiter, written once a millisecond: in a line of their
  // own, away from data that changes on every call.
  struct alignas(64) Sample {
    std::atomic<int64_t> nextNs{0};
    // Oversubscribed samples in a row; two count, so that a passing
    // thread (a kernel worker, a shell) does not stop the spinning of an
    // otherwise idle machine.
    std::atomic<int> overloaded{0};
  };
  static Sample sample;
  std::atomic<int64_t> &nextSampleNs = sample.nextNs;
  std::atomic<int> &overloadedSamples = sample.overloaded;
  int64_t next = nextSampleNs.load(std::memory_order_relaxed);
  if (nowNs >= next && nextSampleNs.compare_exchange_strong(
                           next, nowNs + 1000000, std::memory_order_relaxed)) {
    int runnable = runnableThreads();
    bool over = cpus > 0 && runnable > cpus;
    overloadedSamples.store(
        over
            ? std::min(overloadedSamples.load(std::memory_order_relaxed) + 1, 2)
            : 0,
        std::memory_order_relaxed);
  }
  return overloadedSamples.load(std::memory_order_relaxed) >= 2;
#else
  (void)nowNs;
  return false;
#endif
}

bool confinedToOneCpu() {
#if defined(__linux__)
  static const bool confined = [] {
    cpu_set_t set;
    CPU_ZERO(&set);
    return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) == 1;
  }();
  return confined;
#else
  return false;
#endif
}

} // namespace nxrt
