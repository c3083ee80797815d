//===- Invoke.cpp - nxrt_invoke, the per-call entry point -----------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The inline path is what compiled code pays on every callback: a few loads,
// one indirect call, no allocation and no string compare. Everything else
// (errors, bridge, streams, late resolution) is kept off it.
//
//===----------------------------------------------------------------------===//

#include "Feeds.h"
#include "Program.h"
#include "Run.h"
#include "Runtime.h"
#include "Status.h"
#include "absl/base/optimization.h"
#include "absl/strings/str_format.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

// Slow path for sites whose name was unbound at load time.
ABSL_ATTRIBUTE_NOINLINE const nxrt::Handler *resolve(nxrt_site &site) {
  nxrt::Registry &registry = site.runtime->registry;
  const nxrt::Handler *h = site.kind == NXRT_SITE_CUSTOM_CALL
                               ? registry.findTarget(site.name)
                               : registry.findCallback(site.name);
  if (h)
    site.handler.store(h, std::memory_order_release);
  return h;
}

ABSL_ATTRIBUTE_NOINLINE nxrt_status_t *unknown(nxrt_run &run,
                                               const nxrt_site &site) {
  if (site.kind == NXRT_SITE_CUSTOM_CALL)
    return run.fail(absl::NotFoundError(absl::StrFormat(
        "unknown custom-call target @%s at %s (neither bound with "
        "nxrt_register_custom_call nor registered as an XLA FFI handler for "
        "'Host')",
        site.name, site.location)));
  return run.fail(absl::NotFoundError(
      absl::StrFormat("unknown callback @%s at %s", site.name, site.location)));
}

ABSL_ATTRIBUTE_NOINLINE nxrt_status_t *skipped(const nxrt_site &site) {
  return nxrt::toC(absl::AbortedError(
      absl::StrFormat("%s skipped: the run already failed", site.what)));
}

ABSL_ATTRIBUTE_NOINLINE nxrt_status_t *
handlerFailed(nxrt_run &run, const nxrt_site &site, nxrt_status_t *status) {
  absl::Status s = nxrt::fromC(status);
  return run.fail(site.failed(s));
}

// Io_callback results are the operands themselves (output_operand_aliases);
// anything else would need a copy, which this op promises not to make.
bool aliasesOperands(const nxrt_tensor_t *args, size_t nargs,
                     const nxrt_tensor_t *results, size_t nresults) {
  if (nresults == 0)
    return true;
  if (nresults != nargs || !results || !args)
    return false;
  for (size_t i = 0; i < nresults; ++i)
    if (results[i].data != args[i].data)
      return false;
  return true;
}

ABSL_ATTRIBUTE_NOINLINE nxrt_status_t *
invokeSlow(nxrt_run &run, nxrt_site &site, const nxrt::Handler *h,
           const nxrt_tensor_t *args, size_t nargs, nxrt_tensor_t *results,
           size_t nresults) {
  nxrt_runtime &rt = *site.runtime;
  absl::Status status;
  switch (site.kind) {
  case NXRT_SITE_OUTFEED:
    status = nxrt::runOutfeed(rt.streams, site, args, nargs, results, nresults);
    break;
  case NXRT_SITE_INFEED:
    status = nxrt::runInfeed(rt.streams, site, run.deadline, run.timeout, args,
                             nargs, results, nresults);
    break;
  default:
    // A callback bound BRIDGE, or one bound INLINE that the run routes
    // through the bridge (nxrt_runtime_set_callback_dispatch).
    status = rt.bridge.call(
        site, *h,
        h->mode == NXRT_DISPATCH_BRIDGE ? h->timeout : run.routedTimeout,
        run.deadline, run.timeout, args, nargs, results, nresults);
    break;
  }
  if (ABSL_PREDICT_TRUE(status.ok()))
    return nullptr;
  return run.fail(status);
}

// Whether a call of `site`, bound to `h`, goes through the bridge: its
// callback is bound BRIDGE, or the run routes inline callbacks there
// (targets always run inline).
inline bool goesThroughBridge(const nxrt_run &run, const nxrt_site &site,
                              const nxrt::Handler &h) {
  return h.mode != NXRT_DISPATCH_INLINE ||
         (run.routesCallbacks && site.kind != NXRT_SITE_CUSTOM_CALL);
}

// Everything after the checks: the handler's own path, the bridge or a
// stream. Inlined into nxrt_invoke, whose fast path it is.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline nxrt_status_t *
dispatch(nxrt_run &run, nxrt_site &site, const nxrt_tensor_t *args,
         size_t nargs, nxrt_tensor_t *results, size_t nresults) {
  if (site.kind > NXRT_SITE_CUSTOM_CALL)
    return invokeSlow(run, site, nullptr, args, nargs, results, nresults);

  const nxrt::Handler *h = site.handler.load(std::memory_order_acquire);
  if (ABSL_PREDICT_FALSE(!h)) {
    h = resolve(site);
    if (!h)
      return site.optional ? nullptr : unknown(run, site);
  }
  if (site.kind == NXRT_SITE_IO_CALLBACK) {
    if (ABSL_PREDICT_FALSE(!aliasesOperands(args, nargs, results, nresults)))
      return run.fail(site.failed(absl::InvalidArgumentError(
          "io_callback results must alias its operands one to one")));
    results = nullptr;
    nresults = 0;
  }
  if (ABSL_PREDICT_FALSE(goesThroughBridge(run, site, *h)))
    return invokeSlow(run, site, h, args, nargs, results, nresults);

  nxrt_call_t call{args,
                   nargs,
                   results,
                   nresults,
                   site.attrs.get(),
                   h->name.c_str(),
                   site.location.c_str(),
                   &run};
  nxrt_status_t *status = ABSL_PREDICT_TRUE(h->fn != nullptr)
                              ? h->fn(h->userData, &call)
                              : h->siteFn(*h, site, call);
  if (ABSL_PREDICT_FALSE(status != nullptr))
    return handlerFailed(run, site, status);
  return nullptr;
}

// How a call of `site` ran, for a trace (after Dispatch resolved it).
const char *dispatchName(const nxrt_run &run, const nxrt_site &site) {
  if (site.kind > NXRT_SITE_CUSTOM_CALL)
    return "stream";
  const nxrt::Handler *h = site.handler.load(std::memory_order_acquire);
  if (!h)
    return "unbound";
  return goesThroughBridge(run, site, *h) ? "bridge" : "inline";
}

// Dispatch, measured and reported to the run's tracer and log.
ABSL_ATTRIBUTE_NOINLINE nxrt_status_t *
invokeTraced(nxrt_run &run, nxrt_site &site, const nxrt_tensor_t *args,
             size_t nargs, nxrt_tensor_t *results, size_t nresults) {
  auto start = std::chrono::steady_clock::now();
  nxrt_status_t *status = dispatch(run, site, args, nargs, results, nresults);
  auto elapsed = std::chrono::steady_clock::now() - start;
  nxrt_trace_event_t event{
      site.name.c_str(),
      site.location.c_str(),
      site.what.c_str(),
      site.optional ? NXRT_SITE_OPTIONAL_IO_CALLBACK : site.kind,
      dispatchName(run, site),
      std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count(),
      nxrt_status_code(status),
      &run};
  nxrt::emitTrace(run.trace, event);
  return status;
}

} // namespace

extern "C" nxrt_status_t *nxrt_invoke(nxrt_run_t *run, nxrt_site_t *site,
                                      const nxrt_tensor_t *args, size_t nargs,
                                      nxrt_tensor_t *results, size_t nresults) {
  if (ABSL_PREDICT_FALSE(!run))
    return nxrt::toC(absl::FailedPreconditionError(
        absl::StrFormat("%s invoked outside a run (call nxrt_run_begin first)",
                        site ? site->what : std::string("a call site"))));
  if (ABSL_PREDICT_FALSE(!site))
    return run->fail(absl::NotFoundError("unknown call site (null site)"));
  if (ABSL_PREDICT_FALSE(run->failed.load(std::memory_order_acquire)))
    return skipped(*site);
  if (ABSL_PREDICT_FALSE(site->runtime != run->runtime))
    return run->fail(absl::InvalidArgumentError(absl::StrFormat(
        "%s failed: the site belongs to a different runtime than the run",
        site->what)));
  if (run->hasDeadline && ABSL_PREDICT_FALSE(absl::Now() >= run->deadline))
    return run->fail(absl::DeadlineExceededError(
        absl::StrFormat("%s timed out after %d ms (run deadline)", site->what,
                        absl::ToInt64Milliseconds(run->timeout))));

  if (ABSL_PREDICT_FALSE(run->traced))
    return invokeTraced(*run, *site, args, nargs, results, nresults);
  return dispatch(*run, *site, args, nargs, results, nresults);
}

extern "C" void nxrt_invoke_failed(nxrt_run_t *run, nxrt_status_t *status) {
  if (ABSL_PREDICT_TRUE(run != nullptr)) {
    nxrt_status_free(status);
    return;
  }
  // Compiled code ran outside any run (say, under a generic JIT runner with
  // libnxrt loaded): nothing will read the failure and the results are not
  // there, so stop rather than hand back garbage.
  std::fprintf(stderr, "nxrt: fatal: %s\n",
               status ? nxrt_status_message(status)
                      : "compiled code invoked the host outside a run");
  std::fflush(stderr);
  std::abort();
}
