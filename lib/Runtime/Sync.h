//===- Sync.h - Locking primitives for libnxrt ------------------*- C++ -*-===//
//
// absl::Mutex, made visible to ThreadSanitizer, plus the spin-then-park wait
// the bridge uses on its latency-critical path.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_LIB_RUNTIME_SYNC_H
#define NXRT_LIB_RUNTIME_SYNC_H

#include <algorithm>
#include <atomic>
#include <cstdint>

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

// How long a waiter on the bridge's hot path spins before parking. A
// futex park/unpark pair costs ~5-10 us of wake-up latency on Linux, while a
// bridge round trip served by a spinning dispatcher takes about 1 us, so a
// few microseconds of spinning catch a prompt reply. The budget is kept
// short because when more threads are runnable than there are cores, the
// thread that would answer may be queued behind the spinner on the same core
// (sched_yield does not reliably hand it the core under CFS); parking early
// then costs little more than a plain condition variable.
inline constexpr absl::Duration kSpinBudget = absl::Microseconds(5);

// Spins (checking `done` with acquire ordering) for at most kSpinBudget or
// until `deadline`, and returns whether `done` became true. Callers park
// on a CondVar afterwards if it did not.
template <typename Done> bool SpinUntil(Done &&done, absl::Time deadline) {
  if (done())
    return true;
  absl::Time stop = std::min(absl::Now() + kSpinBudget, deadline);
  // Reading the clock costs ~20 ns; check it only every 64 pauses.
  for (unsigned i = 1;; ++i) {
    for (int k = 0; k < 4; ++k) {
      CpuRelax();
      if (done())
        return true;
    }
    if ((i & 15) == 0 && absl::Now() >= stop)
      return done();
  }
}

} // namespace nxrt

#endif // NXRT_LIB_RUNTIME_SYNC_H
