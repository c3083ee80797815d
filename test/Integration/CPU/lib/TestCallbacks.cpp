//===- TestCallbacks.cpp - host callbacks for the integration tests -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A callback library in the form nx-runner loads with --callbacks: it exports
// nx_register_callbacks and binds everything through libnxrt's C ABI.
//
//   test.scale        elixir_call (f32|f64 x) -> same type: x * factor + offset
//                     with static_args factor (f64, required), offset (i64,
//                     optional). Also bound as test.scale64, for a second
//                     signature.
//   test.add_sub      elixir_call (a, b: f32) -> (a + b, a - b).
//   test.stats        elixir_call (x: f32[N]) -> (sum: f32, max: f32,
//                     argmax: i64).
//   test.describe     io_callback or elixir_call with no results: prints its
//                     static_args / attrs, one line per entry, in order.
//   test.check_positive  io_callback: fails naming the first value <= 0.
//   test.every_other  elixir_call (x) -> (x, calls: i64): the number of
//                     earlier calls in the process; every second call fails,
//                     so consecutive runs alternate between failing and not.
//   test.fail_at      elixir_call (x: i64[...]) -> x, failing instead once an
//                     element equals static_args `at` (i64), to fail a loop
//                     in its n-th iteration.
//   test.loopback     io_callback: pushes its operands, as one value, to the
//                     infeed of stream "test.loopback", which the library
//                     opens on the runtime it is loaded into (and closes in
//                     nx_release_callbacks), so the program can read them
//                     back with an nx.infeed.
//   test.process_report  io_callback: prints the OpenMP runtimes mapped into
//                     the process (/proc/self/maps), and fails, naming every
//                     thread, when the process runs more threads than
//                     static_args `max_threads` (i64).
//   test.unanswered   elixir_call bound for bridge dispatch, with no handler,
//                     while the library installs no bridge hook: a library
//                     that forgot its dispatcher. Only the host's bridge
//                     puller ever sees the requests.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "nxrt/nxrt.h"

#include <dirent.h>

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace {

using nx_test::error;
using nx_test::numElements;

nxrt_status_t *scale(void *, const nxrt_call_t *call) {
  if (call->nargs != 1 || call->nresults != 1)
    return error(NXRT_INVALID_ARGUMENT, "test.scale takes one tensor");
  double factor = 0;
  if (nxrt_status_t *st = nxrt_attrs_get_f64(call->attrs, "factor", &factor))
    return st;
  int64_t offset = 0;
  if (nxrt_attrs_find(call->attrs, "offset"))
    if (nxrt_status_t *st = nxrt_attrs_get_i64(call->attrs, "offset", &offset))
      return st;
  const nxrt_tensor_t &x = call->args[0];
  nxrt_tensor_t &y = call->results[0];
  size_t n = numElements(x);
  if (x.dtype == NXRT_F32) {
    auto *in = static_cast<const float *>(x.data);
    auto *out = static_cast<float *>(y.data);
    for (size_t i = 0; i < n; ++i)
      out[i] = static_cast<float>(in[i] * factor + offset);
  } else if (x.dtype == NXRT_F64) {
    auto *in = static_cast<const double *>(x.data);
    auto *out = static_cast<double *>(y.data);
    for (size_t i = 0; i < n; ++i)
      out[i] = in[i] * factor + offset;
  } else {
    return error(NXRT_INVALID_ARGUMENT,
                 std::string("test.scale: unsupported dtype ") +
                     nxrt_dtype_name(x.dtype));
  }
  return nullptr;
}

nxrt_status_t *everyOther(void *, const nxrt_call_t *call) {
  static std::atomic<int64_t> calls{0};
  if (call->nargs != 1 || call->nresults != 2 ||
      call->results[1].dtype != NXRT_I64 ||
      nxrt_tensor_byte_size(&call->args[0]) !=
          nxrt_tensor_byte_size(&call->results[0]))
    return error(NXRT_INVALID_ARGUMENT, "test.every_other: (x) -> (x, i64)");
  int64_t n = calls.fetch_add(1);
  if (n % 2 == 1)
    return error(NXRT_UNAVAILABLE, "call " + std::to_string(n) + " fails");
  std::memcpy(call->results[0].data, call->args[0].data,
              nxrt_tensor_byte_size(&call->args[0]));
  std::memcpy(call->results[1].data, &n, sizeof(n));
  return nullptr;
}

nxrt_status_t *failAt(void *, const nxrt_call_t *call) {
  if (call->nargs != 1 || call->nresults != 1 ||
      call->args[0].dtype != NXRT_I64 || call->results[0].dtype != NXRT_I64)
    return error(NXRT_INVALID_ARGUMENT, "test.fail_at: (i64[...]) -> i64[...]");
  int64_t at = 0;
  if (nxrt_status_t *st = nxrt_attrs_get_i64(call->attrs, "at", &at))
    return st;
  size_t n = numElements(call->args[0]);
  auto *in = static_cast<const int64_t *>(call->args[0].data);
  for (size_t i = 0; i < n; ++i)
    if (in[i] == at)
      return error(NXRT_ABORTED, "value " + std::to_string(at) + " reached");
  std::memcpy(call->results[0].data, in, n * sizeof(int64_t));
  return nullptr;
}

nxrt_status_t *addSub(void *, const nxrt_call_t *call) {
  if (call->nargs != 2 || call->nresults != 2)
    return error(NXRT_INVALID_ARGUMENT, "test.add_sub: (a, b) -> (a+b, a-b)");
  size_t n = numElements(call->args[0]);
  auto *a = static_cast<const float *>(call->args[0].data);
  auto *b = static_cast<const float *>(call->args[1].data);
  auto *sum = static_cast<float *>(call->results[0].data);
  auto *diff = static_cast<float *>(call->results[1].data);
  for (size_t i = 0; i < n; ++i) {
    sum[i] = a[i] + b[i];
    diff[i] = a[i] - b[i];
  }
  return nullptr;
}

nxrt_status_t *stats(void *, const nxrt_call_t *call) {
  if (call->nargs != 1 || call->nresults != 3 ||
      call->args[0].dtype != NXRT_F32)
    return error(NXRT_INVALID_ARGUMENT,
                 "test.stats: (f32[N]) -> (f32, f32, i64)");
  size_t n = numElements(call->args[0]);
  auto *x = static_cast<const float *>(call->args[0].data);
  float sum = 0, max = n ? x[0] : 0;
  int64_t argmax = 0;
  for (size_t i = 0; i < n; ++i) {
    sum += x[i];
    if (x[i] > max) {
      max = x[i];
      argmax = static_cast<int64_t>(i);
    }
  }
  *static_cast<float *>(call->results[0].data) = sum;
  *static_cast<float *>(call->results[1].data) = max;
  *static_cast<int64_t *>(call->results[2].data) = argmax;
  return nullptr;
}

std::mutex printMutex;

void describeValue(std::string &out, const nxrt_attr_t *attr) {
  char buffer[64];
  switch (nxrt_attr_kind(attr)) {
  case NXRT_ATTR_I64: {
    int64_t v;
    nxrt_status_free(nxrt_attr_i64(attr, &v));
    std::snprintf(buffer, sizeof(buffer), "%" PRId64 " : i64", v);
    out += buffer;
    return;
  }
  case NXRT_ATTR_F64: {
    double v;
    nxrt_status_free(nxrt_attr_f64(attr, &v));
    std::snprintf(buffer, sizeof(buffer), "%g : f64", v);
    out += buffer;
    return;
  }
  case NXRT_ATTR_BOOL: {
    int v;
    nxrt_status_free(nxrt_attr_bool(attr, &v));
    out += v ? "true" : "false";
    return;
  }
  case NXRT_ATTR_INT: {
    uint32_t width;
    nxrt_signedness_t signedness;
    nxrt_status_free(nxrt_attr_int_type(attr, &width, &signedness));
    if (signedness == NXRT_UNSIGNED) {
      uint64_t v;
      nxrt_status_free(nxrt_attr_u64(attr, &v));
      std::snprintf(buffer, sizeof(buffer), "%" PRIu64 " : ui%u", v, width);
    } else {
      int64_t v;
      nxrt_status_free(nxrt_attr_i64(attr, &v));
      std::snprintf(buffer, sizeof(buffer), "%" PRId64 " : %si%u", v,
                    signedness == NXRT_SIGNED ? "s" : "", width);
    }
    out += buffer;
    return;
  }
  case NXRT_ATTR_FLOAT: {
    nxrt_dtype_t dtype;
    nxrt_status_free(nxrt_attr_float_dtype(attr, &dtype));
    double v;
    nxrt_status_free(nxrt_attr_f64(attr, &v));
    std::snprintf(buffer, sizeof(buffer), "%.9g : %s", v,
                  nxrt_dtype_name(dtype));
    out += buffer;
    return;
  }
  case NXRT_ATTR_STRING: {
    const char *s;
    nxrt_status_free(nxrt_attr_string(attr, &s, nullptr));
    out += "\"" + std::string(s) + "\"";
    return;
  }
  case NXRT_ATTR_ARRAY: {
    size_t n = 0;
    nxrt_status_free(nxrt_attr_array_size(attr, &n));
    out += "[";
    for (size_t i = 0; i < n; ++i) {
      if (i)
        out += ", ";
      describeValue(out, nxrt_attr_array_at(attr, i));
    }
    out += "]";
    return;
  }
  case NXRT_ATTR_DICT: {
    const nxrt_attrs_t *dict;
    nxrt_status_free(nxrt_attr_dict(attr, &dict));
    out += "{";
    for (size_t i = 0; i < nxrt_attrs_size(dict); ++i) {
      if (i)
        out += ", ";
      out += nxrt_attrs_name_at(dict, i);
      out += " = ";
      describeValue(out, nxrt_attrs_value_at(dict, i));
    }
    out += "}";
    return;
  }
  default:
    out += "?";
    return;
  }
}

nxrt_status_t *describe(void *, const nxrt_call_t *call) {
  std::string out = std::string("describe @") + call->name + " (" +
                    std::to_string(nxrt_attrs_size(call->attrs)) +
                    " static args)\n";
  for (size_t i = 0; i < nxrt_attrs_size(call->attrs); ++i) {
    out += "  ";
    out += nxrt_attrs_name_at(call->attrs, i);
    out += " = ";
    describeValue(out, nxrt_attrs_value_at(call->attrs, i));
    out += "\n";
  }
  std::lock_guard<std::mutex> lock(printMutex);
  std::fputs(out.c_str(), stdout);
  std::fflush(stdout);
  return nullptr;
}

nxrt_status_t *checkPositive(void *, const nxrt_call_t *call) {
  for (size_t a = 0; a < call->nargs; ++a) {
    if (call->args[a].dtype != NXRT_F32)
      return error(NXRT_INVALID_ARGUMENT, "test.check_positive wants f32");
    auto *x = static_cast<const float *>(call->args[a].data);
    for (size_t i = 0, n = numElements(call->args[a]); i < n; ++i)
      if (!(x[i] > 0)) {
        char buffer[128];
        std::snprintf(buffer, sizeof(buffer),
                      "value %g at index %zu of argument %zu is not positive",
                      x[i], i, a);
        return error(NXRT_OUT_OF_RANGE, buffer);
      }
  }
  return nullptr;
}

/// The file names of the OpenMP runtimes mapped into this process.
std::set<std::string> mappedOpenMPRuntimes() {
  std::set<std::string> runtimes;
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    size_t slash = line.rfind('/');
    if (slash == std::string::npos)
      continue;
    std::string file = line.substr(slash + 1);
    for (const char *prefix : {"libomp.", "libgomp.", "libiomp5."})
      if (file.rfind(prefix, 0) == 0)
        runtimes.insert(file);
  }
  return runtimes;
}

/// The names (comm) of this process's threads.
std::vector<std::string> threadNames() {
  std::vector<std::string> names;
  DIR *tasks = opendir("/proc/self/task");
  if (!tasks)
    return names;
  while (dirent *entry = readdir(tasks)) {
    if (entry->d_name[0] == '.')
      continue;
    std::ifstream comm(std::string("/proc/self/task/") + entry->d_name +
                       "/comm");
    std::string name;
    std::getline(comm, name);
    names.push_back(name);
  }
  closedir(tasks);
  return names;
}

nxrt_status_t *processReport(void *, const nxrt_call_t *call) {
  int64_t maxThreads = 0;
  if (nxrt_status_t *st =
          nxrt_attrs_get_i64(call->attrs, "max_threads", &maxThreads))
    return st;
  std::string out = "openmp runtimes:";
  for (const std::string &runtime : mappedOpenMPRuntimes())
    out += " " + runtime;
  out += "\n";
  {
    std::lock_guard<std::mutex> lock(printMutex);
    std::fputs(out.c_str(), stdout);
    std::fflush(stdout);
  }
  std::vector<std::string> names = threadNames();
  if (static_cast<int64_t>(names.size()) <= maxThreads)
    return nullptr;
  std::string message = std::to_string(names.size()) +
                        " threads, more than max_threads " +
                        std::to_string(maxThreads) + ":";
  for (const std::string &name : names)
    message += " " + name;
  return error(NXRT_FAILED_PRECONDITION, message.c_str());
}

nxrt_status_t *loopback(void *userData, const nxrt_call_t *call) {
  auto *stream = static_cast<nxrt_stream_t *>(userData);
  return nxrt_stream_push_infeed(stream, call->args, call->nargs);
}

/// The loopback streams this library opened, by runtime.
std::mutex streamsMutex;
std::vector<std::pair<nxrt_runtime_t *, nxrt_stream_t *>> loopbackStreams;

} // namespace

extern "C" __attribute__((visibility("default"))) nxrt_status_t *
nx_register_callbacks(nxrt_runtime_t *runtime) {
  struct Entry {
    const char *name;
    nxrt_handler_fn fn;
  };
  const Entry entries[] = {
      {"test.scale", scale},
      {"test.scale64", scale},
      {"test.add_sub", addSub},
      {"test.stats", stats},
      {"test.describe", describe},
      {"test.check_positive", checkPositive},
      {"test.fail_at", failAt},
      {"test.every_other", everyOther},
      {"test.process_report", processReport},
  };
  for (const Entry &e : entries) {
    nxrt_callback_desc_t desc{};
    desc.mode = NXRT_DISPATCH_INLINE;
    desc.fn = e.fn;
    if (nxrt_status_t *st = nxrt_register_callback(runtime, e.name, &desc))
      return st;
  }
  nxrt_callback_desc_t unanswered{};
  unanswered.mode = NXRT_DISPATCH_BRIDGE;
  if (nxrt_status_t *st =
          nxrt_register_callback(runtime, "test.unanswered", &unanswered))
    return st;
  nxrt_stream_t *stream = nullptr;
  if (nxrt_status_t *st = nxrt_stream_open(runtime, "test.loopback", &stream))
    return st;
  {
    std::lock_guard<std::mutex> lock(streamsMutex);
    loopbackStreams.emplace_back(runtime, stream);
  }
  nxrt_callback_desc_t desc{};
  desc.mode = NXRT_DISPATCH_INLINE;
  desc.fn = loopback;
  desc.user_data = stream;
  return nxrt_register_callback(runtime, "test.loopback", &desc);
}

extern "C" __attribute__((visibility("default"))) void
nx_release_callbacks(nxrt_runtime_t *runtime) {
  std::lock_guard<std::mutex> lock(streamsMutex);
  for (auto it = loopbackStreams.begin(); it != loopbackStreams.end();) {
    if (it->first != runtime) {
      ++it;
      continue;
    }
    nxrt_stream_destroy(it->second);
    it = loopbackStreams.erase(it);
  }
}
