//===- Sync.h - Locking primitives for libnxrt ------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// absl::Mutex, made visible to ThreadSanitizer, plus the spin lock and the
// spin-then-park wait the bridge uses on its latency-critical path.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_SYNC_H
#define NXRT_LIB_SYNC_H

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

#if defined(__SANITIZE_THREAD__)
#define NXRT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NXRT_TSAN 1
#endif
#endif

#ifdef NXRT_TSAN
extern "C" void __tsan_acquire(void *addr);
extern "C" void __tsan_release(void *addr);
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace nxrt {

// Distributions ship abseil built without -fsanitize=thread, so its mutex
// internals carry no TSan annotations and every lock looks like a data race
// to TSan. These wrappers add the happens-before edges abseil would have
// declared itself; in normal builds they compile down to absl::Mutex and
// absl::CondVar.
//
// Waiting goes through CondVar rather than Mutex::Await: absl evaluates an
// Await condition on whichever thread unlocks the mutex, and those reads
// cannot be ordered by annotations placed around Lock/Unlock.
class ABSL_LOCKABLE Mutex {
public:
  void lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() {
    mu.Lock();
    acquire();
  }
  void unlock() ABSL_UNLOCK_FUNCTION() {
    release();
    mu.Unlock();
  }

private:
  friend class CondVar;
  void acquire() {
#ifdef NXRT_TSAN
    __tsan_acquire(this);
#endif
  }
  void release() {
#ifdef NXRT_TSAN
    __tsan_release(this);
#endif
  }
  absl::Mutex mu;
};

class CondVar {
public:
  // Releases `mu` while waiting; returns true if the deadline passed.
  // Callers loop on their own predicate (wake-ups may be spurious).
  bool waitWithDeadline(Mutex *mu, absl::Time deadline)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    mu->release();
    bool timedOut = cv.WaitWithDeadline(&mu->mu, deadline);
    mu->acquire();
    return timedOut;
  }
  void signal() { cv.Signal(); }
  void signalAll() { cv.SignalAll(); }

private:
  absl::CondVar cv;
};

class ABSL_SCOPED_LOCKABLE MutexLock {
public:
  explicit MutexLock(Mutex *mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu(mu) {
    mu->lock();
  }
  ~MutexLock() ABSL_UNLOCK_FUNCTION() { mu->unlock(); }
  MutexLock(const MutexLock &) = delete;
  MutexLock &operator=(const MutexLock &) = delete;

private:
  Mutex *mu;
};

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// The CPU the calling thread runs on, or -1 where unknown (a vDSO read on
// Linux, ~20 ns).
inline int currentCpu() {
#if defined(__linux__)
  return sched_getcpu();
#else
  return -1;
#endif
}

// One step of a wait for another thread that is about to finish something
// short: pause while it likely runs on another core, yield once that seems
// unlikely (it may be descheduled, or queued behind us on our core).
inline void backoff(unsigned &spins) {
  if (++spins < 64)
    cpuRelax();
  else
    std::this_thread::yield();
}

// A lock for critical sections of a few dozen instructions that never call
// out (the bridge's queue and tag map). Unlike absl::Mutex it costs one
// atomic exchange to take, and nothing to construct or destroy. A holder
// descheduled on an oversubscribed core is waited out by yielding, not by
// spinning through the waiter's time slice.
class ABSL_LOCKABLE SpinLock {
public:
  void lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() {
    unsigned spins = 0;
    while (locked.exchange(true, std::memory_order_acquire))
      while (locked.load(std::memory_order_relaxed))
        backoff(spins);
  }
  void unlock() ABSL_UNLOCK_FUNCTION() {
    locked.store(false, std::memory_order_release);
  }

private:
  std::atomic<bool> locked{false};
};

class ABSL_SCOPED_LOCKABLE SpinLockHolder {
public:
  explicit SpinLockHolder(SpinLock *lock) ABSL_EXCLUSIVE_LOCK_FUNCTION(lock)
      : spinLock(lock) {
    spinLock->lock();
  }
  ~SpinLockHolder() ABSL_UNLOCK_FUNCTION() { spinLock->unlock(); }
  SpinLockHolder(const SpinLockHolder &) = delete;
  SpinLockHolder &operator=(const SpinLockHolder &) = delete;

private:
  SpinLock *spinLock;
};

// Parking on a 32-bit word (a futex on Linux): FutexWait sleeps while
// `word` still holds `expected`, until FutexWake on the same word, or until
// `deadline`; it may also return early, so callers recheck their condition.
// The bridge parks this way rather than on absl::CondVar: a wake-up is one
// syscall on each side with no mutex around it, which is what a handoff
// under load costs in any case; the CondVar added its mutex, its waiter
// lists and, in abseil as distributions build it, deadlock detection on
// every lock. Data is never protected by these calls, only by the atomics
// the callers check, so ThreadSanitizer needs no annotations for them.
void futexWait(const std::atomic<int> &word, int expected, absl::Time deadline);
void futexWake(const std::atomic<int> &word, int count);

// Whether the machine has more runnable threads than CPUs right now, from
// the kernel's count (/proc/loadavg), sampled at most once a millisecond.
// Spinning pays only while the thread being waited for has a core of its
// own. On an oversubscribed machine a spinning waiter is a CPU hog like any
// other: the scheduler runs it in turn with the busy threads, in slices of
// milliseconds, and a peer it waits for may be queued behind it. A parked
// waiter instead is woken with the priority the scheduler gives threads
// that slept, which is what keeps a mutex + condvar handoff at a few
// microseconds under load. False where the count cannot be read.
bool machineOverloaded(int64_t nowNs);

// Whether this process may run on one CPU only (taskset -c 0), per its
// affinity when first asked.
bool confinedToOneCpu();

// Spin-then-park for the bridge's latency-critical waits. A futex
// park/unpark pair costs ~5-10 us of wake-up latency on Linux, and on a VM
// whose idle vCPUs halt, 30-60 us, while a bridge round trip served by a
// spinning peer takes under a microsecond. A waiter therefore spins for
// about as long as its recent waits took (competitive spinning: parking
// would have cost as much), within [minNs, maxNs], then parks:
//  - the budget grows to cover the last parked wait if that was short, so
//    two threads that parked on every call (each wake-up slower than the
//    other's spin) fall back into spinning after one call instead of
//    staying parked for good;
//  - it halves after a wait longer than maxNs (a slow peer or an idle
//    one), so waiters for slow replies park quickly;
//  - on an oversubscribed machine (MachineOverloaded) nobody spins.
class AdaptiveSpin {
public:
  // Starts at maxNs: the first waits find out whether spinning pays.
  constexpr AdaptiveSpin(int64_t minNs, int64_t maxNs)
      : minNs(minNs), maxNs(maxNs), budgetNs(maxNs) {}

  // Spins (checking `done`, which must use acquire ordering) for at most the
  // current budget or until `deadline`; returns whether `done` became true.
  // `startNs` is when the wait began (absl clock). Callers park
  // (FutexWait) if it did not, and then report through Parked(). With
  // `peerCpu`, the CPU the thread that will make `done` true last ran on,
  // a waiter on that same CPU does not spin: the peer can only make
  // progress once the waiter gives up the core. In a process confined to
  // that one CPU it yields, which hands the core over in about a context
  // switch, where parking costs a futex wake-up.
  template <typename Done>
  bool spin(Done &&done, int64_t startNs, absl::Time deadline,
            int peerCpu = -1) {
    if (done())
      return true;
    if (machineOverloaded(startNs))
      return false;
    int64_t budget = budgetNs.load(std::memory_order_relaxed);
    absl::Time stop = std::min(
        absl::FromUnixNanos(startNs) + absl::Nanoseconds(budget), deadline);
    bool shareCore = peerCpu >= 0 && peerCpu == currentCpu();
    // Two threads sharing a core while another CPU idles stay together for
    // as long as they merely yield to each other (then a round trip costs
    // two context switches, ~1.2 us here, where spinning on two cores
    // costs 0.2 us); a parked thread is woken onto an idle CPU instead.
    // Only a process confined to one CPU has nowhere else to go.
    if (shareCore && !confinedToOneCpu())
      return false;
    bool ok = false;
    // Reading the clock costs ~20 ns; check it only every 32 pauses.
    for (unsigned i = 1; !ok; ++i) {
      for (int k = 0; k < 4 && !ok; ++k) {
        if (shareCore)
          std::this_thread::yield();
        else
          cpuRelax();
        ok = done();
      }
      if (!ok && (i & 7) == 0 && absl::Now() >= stop)
        break;
    }
    return ok || done();
  }

  // Reports a wait that parked after spinning: `waitedNs`, how long it
  // would have had to spin to see its answer (or, with none, how long it
  // waited in all).
  void parked(int64_t waitedNs) {
    int64_t budget = budgetNs.load(std::memory_order_relaxed);
    // Racy read-modify-write on purpose: concurrent waiters only need an
    // approximate shared estimate.
    budgetNs.store(waitedNs <= maxNs
                       ? std::clamp(waitedNs + waitedNs / 4, minNs, maxNs)
                       : std::max(minNs, budget / 2),
                   std::memory_order_relaxed);
  }

private:
  const int64_t minNs;
  const int64_t maxNs;
  std::atomic<int64_t> budgetNs;
};

} // namespace nxrt

#endif // NXRT_LIB_SYNC_H
