//===- Sync.h - Locking primitives for libnxrt ------------------*- C++ -*-===//
//
// absl::Mutex, made visible to ThreadSanitizer, plus the spin lock and the
// spin-then-park wait the bridge uses on its latency-critical path.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_RUNTIME_SYNC_H
#define NXRT_LIB_RUNTIME_SYNC_H

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
  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() {
    mu_.Lock();
    Acquire();
  }
  void Unlock() ABSL_UNLOCK_FUNCTION() {
    Release();
    mu_.Unlock();
  }

private:
  friend class CondVar;
  void Acquire() {
#ifdef NXRT_TSAN
    __tsan_acquire(this);
#endif
  }
  void Release() {
#ifdef NXRT_TSAN
    __tsan_release(this);
#endif
  }
  absl::Mutex mu_;
};

class CondVar {
public:
  // Releases `mu` while waiting; returns true if the deadline passed.
  // Callers loop on their own predicate (wake-ups may be spurious).
  bool WaitWithDeadline(Mutex *mu, absl::Time deadline)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    mu->Release();
    bool timed_out = cv_.WaitWithDeadline(&mu->mu_, deadline);
    mu->Acquire();
    return timed_out;
  }
  void Signal() { cv_.Signal(); }
  void SignalAll() { cv_.SignalAll(); }

private:
  absl::CondVar cv_;
};

class ABSL_SCOPED_LOCKABLE MutexLock {
public:
  explicit MutexLock(Mutex *mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->Lock();
  }
  ~MutexLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }
  MutexLock(const MutexLock &) = delete;
  MutexLock &operator=(const MutexLock &) = delete;

private:
  Mutex *mu_;
};

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// The CPU the calling thread runs on, or -1 where unknown (a vDSO read on
// Linux, ~20 ns).
inline int CurrentCpu() {
#if defined(__linux__)
  return sched_getcpu();
#else
  return -1;
#endif
}

// One step of a wait for another thread that is about to finish something
// short: pause while it likely runs on another core, yield once that seems
// unlikely (it may be descheduled, or queued behind us on our core).
inline void Backoff(unsigned &spins) {
  if (++spins < 64)
    CpuRelax();
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
  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() {
    unsigned spins = 0;
    while (locked_.exchange(true, std::memory_order_acquire))
      while (locked_.load(std::memory_order_relaxed))
        Backoff(spins);
  }
  void Unlock() ABSL_UNLOCK_FUNCTION() {
    locked_.store(false, std::memory_order_release);
  }

private:
  std::atomic<bool> locked_{false};
};

class ABSL_SCOPED_LOCKABLE SpinLockHolder {
public:
  explicit SpinLockHolder(SpinLock *lock) ABSL_EXCLUSIVE_LOCK_FUNCTION(lock)
      : lock_(lock) {
    lock_->Lock();
  }
  ~SpinLockHolder() ABSL_UNLOCK_FUNCTION() { lock_->Unlock(); }
  SpinLockHolder(const SpinLockHolder &) = delete;
  SpinLockHolder &operator=(const SpinLockHolder &) = delete;

private:
  SpinLock *lock_;
};

// Spin-then-park for the bridge's latency-critical waits. A futex
// park/unpark pair costs ~5-10 us of wake-up latency on Linux, while a
// bridge round trip served by a spinning peer takes under 1 us, so a few
// microseconds of spinning catch a prompt answer. Spinning only pays while
// the peer runs on another core, though: when more threads are runnable than
// there are cores, the peer may be queued behind the spinner on the same
// core, and every spin is pure delay. The budget therefore adapts: it grows
// while spins succeed and shrinks whenever a waiter had to park, down to a
// floor small enough to cost little yet large enough to notice (and regrow)
// once round trips are fast again.
class AdaptiveSpin {
public:
  static constexpr int64_t kMaxNs = 5000;
#ifndef NXRT_SPIN_MIN_NS
  static constexpr int64_t kMinNs = 1500;
#else
  static constexpr int64_t kMinNs = NXRT_SPIN_MIN_NS;
#endif

  // Spins (checking `done`, which must use acquire ordering) for at most the
  // current budget or until `deadline`; returns whether `done` became true.
  // Callers park on a CondVar afterwards if it did not. With `peer_cpu`,
  // the CPU the thread that will make `done` true last ran on, a waiter on
  // that same CPU yields instead of pausing: the peer can only make
  // progress once the waiter gives up the core, and a yield hands it over
  // in about a context switch, where parking costs a futex wake-up.
  template <typename Done>
  bool Spin(Done &&done, absl::Time deadline, int peer_cpu = -1) {
    if (done())
      return true;
    int64_t budget = budget_ns_.load(std::memory_order_relaxed);
    absl::Time stop =
        std::min(absl::Now() + absl::Nanoseconds(budget), deadline);
    bool share_core = peer_cpu >= 0 && peer_cpu == CurrentCpu();
    bool ok = false;
    // Reading the clock costs ~20 ns; check it only every 32 pauses.
    for (unsigned i = 1; !ok; ++i) {
      for (int k = 0; k < 4 && !ok; ++k) {
        if (share_core)
          std::this_thread::yield();
        else
          CpuRelax();
        ok = done();
      }
      if (!ok && (i & 7) == 0 && absl::Now() >= stop)
        break;
    }
    if (!ok)
      ok = done();
    // Racy read-modify-write on purpose: concurrent waiters only need an
    // approximate shared estimate.
    // Grow fast, shrink slowly: the budget settles where nearly all spins
    // succeed, yet reaches the floor within ~20 failed waits.
    budget_ns_.store(ok ? std::min(kMaxNs, budget + kMaxNs / 4)
                        : std::max(kMinNs, budget - kMaxNs / 16),
                     std::memory_order_relaxed);
    return ok;
  }

private:
  std::atomic<int64_t> budget_ns_{kMaxNs};
};

} // namespace nxrt

#endif // NXRT_LIB_RUNTIME_SYNC_H
