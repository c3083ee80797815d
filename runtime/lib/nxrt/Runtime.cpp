//===- Runtime.cpp - Runtime lifetime, registration, bridge entry points --===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "Status.h"
#include "absl/strings/str_format.h"

namespace {
absl::Duration fromMs(int64_t ms) {
  return ms > 0 ? absl::Milliseconds(ms) : absl::InfiniteDuration();
}
} // namespace

extern "C" {

/// Makes libomp's idle worker threads sleep 1 ms after a parallel region,
/// unless the user chose otherwise (KMP_BLOCKTIME in the environment). By
/// default they spin for 200 ms, while a contraction right after a
/// parallel loop nest runs on the BLAS's own threads: on a 2-core machine
/// the spinning workers cost a 2048 matmul 10-30% of its throughput.
/// Sleeping at once (0) would make every region of a program wake them
/// (softmax over 1024 rows: 0.65 ms became 2.4 ms on two threads); 1 ms
/// keeps them awake between the regions of one program. libomp reads the
/// variable when its first parallel region starts, which is after a
/// runtime exists; a host that started OpenMP earlier keeps its setting.
static void limitOpenMPSpinning() {
  static std::once_flag once;
  std::call_once(once, [] { setenv("KMP_BLOCKTIME", "1", /*overwrite=*/0); });
}

/// Keeps the buffers compiled code frees in malloc's heap, unless the user
/// tuned malloc (MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ or
/// GLIBC_TUNABLES). A model allocates and frees its intermediate tensors on
/// every call. Past glibc's mmap threshold (128 KiB, raised only as far as
/// the sizes freed so far), each of those is a fresh mmap whose pages fault
/// in and are cleared, and the free unmaps them: a transformer block spent
/// a third of its time in the kernel (15.7 ms a call; 10.2 ms with these
/// settings). Blocks up to 32 MiB come from the heap, and up to 128 MiB of
/// free memory at its top stays mapped.
static void keepBuffersInHeap() {
#ifdef __GLIBC__
  static std::once_flag once;
  std::call_once(once, [] {
    const char *tunables = getenv("GLIBC_TUNABLES");
    auto tuned = [&](const char *variable, const char *tunable) {
      return getenv(variable) || (tunables && std::strstr(tunables, tunable));
    };
    if (!tuned("MALLOC_MMAP_THRESHOLD_", "mmap_threshold"))
      mallopt(M_MMAP_THRESHOLD, 32 << 20);
    if (!tuned("MALLOC_TRIM_THRESHOLD_", "trim_threshold"))
      mallopt(M_TRIM_THRESHOLD, 128 << 20);
  });
#endif
}

nxrt_runtime_t *nxrt_runtime_create(void) {
  limitOpenMPSpinning();
  keepBuffersInHeap();
  auto *runtime = new nxrt_runtime;
  // Only fails on a name clash, impossible on a fresh registry.
  (void)nxrt::registerLinAlgTargets(runtime->registry);
  return runtime;
}

void nxrt_runtime_destroy(nxrt_runtime_t *runtime) { delete runtime; }

nxrt_status_t *nxrt_register_callback(nxrt_runtime_t *runtime, const char *name,
                                      const nxrt_callback_desc_t *desc) {
  if (!runtime)
    return nxrt::toC(absl::InvalidArgumentError("runtime is null"));
  return nxrt::toC(runtime->registry.addCallback(name, desc));
}

nxrt_status_t *nxrt_register_custom_call(nxrt_runtime_t *runtime,
                                         const char *target, nxrt_handler_fn fn,
                                         void *userData) {
  if (!runtime)
    return nxrt::toC(absl::InvalidArgumentError("runtime is null"));
  return nxrt::toC(runtime->registry.addTarget(target, fn, userData));
}

nxrt_status_t *nxrt_runtime_set_callback_dispatch(nxrt_runtime_t *runtime,
                                                  nxrt_dispatch_mode_t mode,
                                                  int64_t timeoutMs) {
  if (!runtime)
    return nxrt::toC(absl::InvalidArgumentError("runtime is null"));
  if (mode != NXRT_DISPATCH_INLINE && mode != NXRT_DISPATCH_BRIDGE)
    return nxrt::toC(absl::InvalidArgumentError(
        absl::StrFormat("unknown dispatch mode %d", static_cast<int>(mode))));
  // The timeout first: a run that sees the new mode sees its timeout.
  runtime->routedTimeoutMs.store(timeoutMs, std::memory_order_release);
  runtime->routeCallbacks.store(mode == NXRT_DISPATCH_BRIDGE,
                                std::memory_order_release);
  return nullptr;
}

void nxrt_bridge_set_hook(nxrt_runtime_t *runtime, nxrt_bridge_hook_fn fn,
                          void *userData) {
  if (runtime)
    runtime->bridge.setHook(fn, userData);
}

nxrt_status_t *nxrt_bridge_pull(nxrt_runtime_t *runtime, int64_t timeoutMs,
                                nxrt_request_t **out) {
  if (!runtime || !out)
    return nxrt::toC(absl::InvalidArgumentError("null runtime or out"));
  *out = nullptr;
  return nxrt::toC(runtime->bridge.pull(fromMs(timeoutMs), out));
}

nxrt_status_t *nxrt_bridge_reply(nxrt_runtime_t *runtime, uint64_t tag,
                                 nxrt_status_t *status,
                                 const nxrt_tensor_t *results,
                                 size_t nresults) {
  absl::Status reply = nxrt::fromC(status);
  if (!runtime)
    return nxrt::toC(absl::InvalidArgumentError("runtime is null"));
  return nxrt::toC(
      runtime->bridge.reply(tag, std::move(reply), results, nresults));
}

void nxrt_bridge_close(nxrt_runtime_t *runtime) {
  if (runtime)
    runtime->bridge.close();
}

} // extern "C"
