//===- Trace.cpp - Tracing host calls -------------------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "Runtime.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace nxrt {
namespace {

bool logRequestedByEnvironment() {
  const char *value = std::getenv("NXRT_TRACE");
  return value && *value && std::strcmp(value, "0") != 0;
}

// "12.5 us", "1.02 ms", "3.40 s": three significant digits are what a
// reader compares.
std::string formatDuration(int64_t ns) {
  double value = static_cast<double>(ns);
  const char *unit = "ns";
  if (ns >= 1000000000) {
    value /= 1e9;
    unit = "s";
  } else if (ns >= 1000000) {
    value /= 1e6;
    unit = "ms";
  } else if (ns >= 1000) {
    value /= 1e3;
    unit = "us";
  } else {
    return absl::StrFormat("%d ns", ns);
  }
  int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return absl::StrFormat("%.*f %s", decimals, value, unit);
}

void writeLogLine(const nxrt_trace_event_t &event) {
  bool stream =
      event.kind == NXRT_SITE_OUTFEED || event.kind == NXRT_SITE_INFEED;
  std::string line =
      stream ? absl::StrFormat("nxrt: trace: %s at %s",
                               nxrt_site_kind_name(event.kind), event.location)
             : absl::StrFormat("nxrt: trace: %s @%s at %s",
                               nxrt_site_kind_name(event.kind), event.name,
                               event.location);
  absl::StrAppend(&line, ": ", event.dispatch, ", ",
                  formatDuration(event.duration_ns));
  if (event.code != NXRT_OK)
    absl::StrAppend(
        &line, ", failed: ",
        absl::StatusCodeToString(static_cast<absl::StatusCode>(event.code)));
  line += '\n';
  // One write, so that lines from concurrent compute threads do not mix.
  std::fwrite(line.data(), 1, line.size(), stderr);
}

} // namespace

TraceSettings::TraceSettings() { config.log = logRequestedByEnvironment(); }

void TraceSettings::setTracer(nxrt_trace_fn fn, void *userData) {
  MutexLock lock(&mu);
  config.fn = fn;
  config.userData = userData;
}

void TraceSettings::setLog(bool enabled) {
  MutexLock lock(&mu);
  config.log = enabled;
}

TraceConfig TraceSettings::snapshot() const {
  MutexLock lock(&mu);
  return config;
}

void emitTrace(const TraceConfig &config, const nxrt_trace_event_t &event) {
  if (config.log)
    writeLogLine(event);
  if (config.fn)
    config.fn(config.userData, &event);
}

} // namespace nxrt

extern "C" {

void nxrt_runtime_set_tracer(nxrt_runtime_t *runtime, nxrt_trace_fn fn,
                             void *userData) {
  if (runtime)
    runtime->tracing.setTracer(fn, userData);
}

void nxrt_runtime_set_trace_log(nxrt_runtime_t *runtime, int32_t enabled) {
  if (runtime)
    runtime->tracing.setLog(enabled != 0);
}

const char *nxrt_site_kind_name(nxrt_site_kind_t kind) {
  switch (kind) {
  case NXRT_SITE_ELIXIR_CALL:
    return "elixir_call";
  case NXRT_SITE_IO_CALLBACK:
  case NXRT_SITE_OPTIONAL_IO_CALLBACK:
    return "io_callback";
  case NXRT_SITE_CUSTOM_CALL:
    return "custom_call";
  case NXRT_SITE_OUTFEED:
    return "outfeed";
  case NXRT_SITE_INFEED:
    return "infeed";
  default:
    return "unknown";
  }
}

} // extern "C"
