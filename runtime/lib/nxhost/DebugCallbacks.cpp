//===- DebugCallbacks.cpp - built-in nx.debug.* host callbacks ------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nxhost/DebugCallbacks.h"
#include "nxhost/HostRuntime.h"
#include "nxhost/HostTensor.h"

#include "Elements.h"

#include "llvm/ADT/APFloat.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

using namespace nxhost;

static nxrt_status_t *fail(nxrt_status_code_t code, const std::string &msg) {
  return nxrt_status_create(code, msg.c_str());
}

static bool sameType(const nxrt_tensor_t &a, const nxrt_tensor_t &b) {
  return nxrt_tensor_same_type(&a, &b);
}

static std::string typeList(const nxrt_tensor_t *ts, size_t n) {
  std::string s = "(";
  for (size_t i = 0; i < n; ++i)
    s += (i ? ", " : "") + formatType(ts[i]);
  return s + ")";
}

/// results = copies of args (elixir_call); nothing for io_callback.
static nxrt_status_t *copyArgsToResults(const nxrt_call_t *call) {
  if (call->nresults == 0)
    return nullptr;
  bool ok = call->nresults == call->nargs;
  for (size_t i = 0; ok && i < call->nargs; ++i)
    ok = sameType(call->args[i], call->results[i]);
  if (!ok)
    return fail(NXRT_INVALID_ARGUMENT,
                std::string(call->name) +
                    " returns its arguments, so its "
                    "results must have their types: got arguments " +
                    typeList(call->args, call->nargs) + " and results " +
                    typeList(call->results, call->nresults));
  for (size_t i = 0; i < call->nargs; ++i)
    if (call->results[i].data != call->args[i].data)
      std::memcpy(call->results[i].data, call->args[i].data,
                  nxrt_tensor_byte_size(&call->args[i]));
  return nullptr;
}

static std::string getLabel(const nxrt_call_t *call) {
  const char *label = nullptr;
  if (const nxrt_attr_t *attr = nxrt_attrs_find(call->attrs, "label"))
    if (nxrt_status_t *st = nxrt_attr_string(attr, &label, nullptr)) {
      nxrt_status_free(st);
      label = nullptr;
    }
  return label ? label : call->location;
}

static std::mutex printMutex;

static nxrt_status_t *debugPrint(void *, const nxrt_call_t *call) {
  std::string label = getLabel(call);
  std::string text;
  for (size_t i = 0; i < call->nargs; ++i) {
    text += label;
    if (call->nargs > 1)
      text += " #" + std::to_string(i);
    text += ": " + formatType(call->args[i]) + " = " +
            formatValues(call->args[i]) + "\n";
  }
  {
    std::lock_guard<std::mutex> lock(printMutex);
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
  }
  return copyArgsToResults(call);
}

static nxrt_status_t *debugIdentity(void *, const nxrt_call_t *call) {
  return copyArgsToResults(call);
}

static nxrt_status_t *debugSleep(void *, const nxrt_call_t *call) {
  int64_t ms = 0;
  if (nxrt_status_t *st = nxrt_attrs_get_i64(call->attrs, "ms", &ms))
    return st;
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  return copyArgsToResults(call);
}

static nxrt_status_t *debugFail(void *, const nxrt_call_t *call) {
  const char *message = "nx.debug.fail called";
  if (nxrt_attrs_find(call->attrs, "message"))
    if (nxrt_status_t *st =
            nxrt_attrs_get_string(call->attrs, "message", &message, nullptr))
      return st;
  return fail(NXRT_ABORTED, message);
}

static bool loadDouble(const nxrt_tensor_t &t, size_t i, double &re,
                       double &im) {
  const uint8_t *p =
      static_cast<const uint8_t *>(t.data) + i * nxrt_dtype_size(t.dtype);
  return visitElement(
      t.dtype, p, [&](ElementKind kind, int width, const auto &parts) {
        bool half = width == 16 &&
                    (kind == ElementKind::Float || kind == ElementKind::BFloat);
        re = half ? halfToFloat(kind, static_cast<uint16_t>(parts[0]))
                  : static_cast<double>(parts.front());
        im = kind == ElementKind::Complex ? static_cast<double>(parts.back())
                                          : 0;
      });
}

static nxrt_status_t *debugAssertClose(void *, const nxrt_call_t *call) {
  if (call->nargs != 2 || !sameType(call->args[0], call->args[1]))
    return fail(NXRT_INVALID_ARGUMENT,
                "nx.debug.assert_close expects two arguments of the same "
                "type, got " +
                    typeList(call->args, call->nargs));
  double atol = 0, rtol = 0;
  if (nxrt_attrs_find(call->attrs, "atol"))
    if (nxrt_status_t *st = nxrt_attrs_get_f64(call->attrs, "atol", &atol))
      return st;
  if (nxrt_attrs_find(call->attrs, "rtol"))
    if (nxrt_status_t *st = nxrt_attrs_get_f64(call->attrs, "rtol", &rtol))
      return st;
  const nxrt_tensor_t &a = call->args[0], &b = call->args[1];
  size_t n = nxrt_tensor_byte_size(&a) / nxrt_dtype_size(a.dtype);
  for (size_t i = 0; i < n; ++i) {
    double ar, ai, br, bi;
    loadDouble(a, i, ar, ai);
    loadDouble(b, i, br, bi);
    double diff = std::hypot(ar - br, ai - bi);
    bool close =
        diff <= atol + rtol * std::hypot(br, bi) || (ar == br && ai == bi);
    if (!close) {
      // Index as a multi-index for readability.
      std::string index;
      size_t rest = i;
      for (int32_t d = a.rank - 1; d >= 0; --d) {
        index = std::to_string(rest % a.dims[d]) + (index.empty() ? "" : ", ") +
                index;
        rest /= a.dims[d];
      }
      nxrt_tensor_t ea = a, eb = b;
      ea.rank = eb.rank = 0;
      ea.data = static_cast<uint8_t *>(a.data) + i * nxrt_dtype_size(a.dtype);
      eb.data = static_cast<uint8_t *>(b.data) + i * nxrt_dtype_size(b.dtype);
      return fail(NXRT_FAILED_PRECONDITION,
                  getLabel(call) + ": tensors differ at [" + index +
                      "]: " + formatValues(ea) + " vs " + formatValues(eb));
    }
  }
  return copyArgsToResults(call);
}

llvm::Error nxhost::registerDebugCallbacks(nxrt_runtime_t *runtime,
                                           llvm::ArrayRef<std::string> names) {
  struct Entry {
    const char *name;
    nxrt_handler_fn fn;
  };
  static const Entry entries[] = {
      {"nx.debug.print", debugPrint},
      {"nx.debug.identity", debugIdentity},
      {"nx.debug.sleep", debugSleep},
      {"nx.debug.fail", debugFail},
      {"nx.debug.assert_close", debugAssertClose},
  };
  auto bind = [&](const char *name, nxrt_handler_fn fn) {
    nxrt_callback_desc_t desc{};
    desc.mode = NXRT_DISPATCH_INLINE;
    desc.fn = fn;
    desc.user_data = nullptr;
    desc.timeout_ms = 0;
    return statusToError(nxrt_register_callback(runtime, name, &desc));
  };
  for (const Entry &e : entries) {
    if (auto err = bind(e.name, e.fn))
      return err;
    // Aliases "<builtin>.<suffix>": one callback symbol per signature.
    std::string prefix = std::string(e.name) + ".";
    for (const std::string &name : names)
      if (llvm::StringRef(name).starts_with(prefix) &&
          name.size() > prefix.size())
        if (auto err = bind(name.c_str(), e.fn))
          return err;
  }
  return llvm::Error::success();
}
