//===- Registry.cpp - Callbacks and custom-call targets by name -----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Registry.h"

#include "Ffi.h"

#include "absl/strings/str_format.h"

namespace nxrt {

absl::Status Registry::addCallback(const char *name,
                                   const nxrt_callback_desc_t *desc) {
  if (!name || !*name)
    return absl::InvalidArgumentError("callback name is empty");
  if (!desc)
    return absl::InvalidArgumentError(
        absl::StrFormat("callback @%s has no descriptor", name));
  auto h = std::make_unique<Handler>();
  h->name = name;
  h->mode = desc->mode;
  h->fn = desc->fn;
  h->userData = desc->user_data;
  if (desc->timeout_ms > 0)
    h->timeout = absl::Milliseconds(desc->timeout_ms);
  switch (desc->mode) {
  case NXRT_DISPATCH_INLINE:
    if (!desc->fn)
      return absl::InvalidArgumentError(
          absl::StrFormat("inline callback @%s has no handler", name));
    break;
  case NXRT_DISPATCH_BRIDGE:
    if (desc->fn)
      return absl::InvalidArgumentError(absl::StrFormat(
          "bridge callback @%s must not have a handler: the host serves it "
          "through nxrt_bridge_pull or the bridge hook",
          name));
    break;
  default:
    return absl::InvalidArgumentError(absl::StrFormat(
        "callback @%s has invalid dispatch mode %d", name, desc->mode));
  }
  return add(callbacks, "callback", std::move(h));
}

absl::Status Registry::addTarget(const char *target, nxrt_handler_fn fn,
                                 void *userData) {
  if (!target || !*target)
    return absl::InvalidArgumentError("custom-call target name is empty");
  if (!fn)
    return absl::InvalidArgumentError(
        absl::StrFormat("custom-call target @%s has no handler", target));
  auto h = std::make_unique<Handler>();
  h->name = target;
  h->fn = fn;
  h->userData = userData;
  return add(targets, "custom-call target", std::move(h));
}

absl::Status Registry::add(Map &map, const char *what,
                           std::unique_ptr<Handler> h) {
  MutexLock lock(&mu);
  auto [it, inserted] = map.try_emplace(h->name, nullptr);
  if (!inserted)
    return absl::AlreadyExistsError(
        absl::StrFormat("%s @%s is already registered", what, h->name));
  it->second = std::move(h);
  return absl::OkStatus();
}

const Handler *Registry::findCallback(absl::string_view name) const {
  return find(callbacks, name);
}

const Handler *Registry::findTarget(absl::string_view name) {
  if (const Handler *h = find(targets, name))
    return h;
  const ffi::HandlerEntry *entry = ffi::findHostHandler(name);
  if (!entry)
    return nullptr;
  // Two threads may bind the same handler at once: the loser finds the
  // winner's.
  (void)add(targets, "custom-call target", ffi::makeTargetHandler(*entry));
  return find(targets, name);
}

const Handler *Registry::find(const Map &map, absl::string_view name) const {
  MutexLock lock(&mu);
  auto it = map.find(name);
  return it == map.end() ? nullptr : it->second.get();
}

} // namespace nxrt
