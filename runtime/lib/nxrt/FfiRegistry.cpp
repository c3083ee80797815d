//===- FfiRegistry.cpp - XLA FFI handlers by name, process-wide -----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Like XLA's, the registry is one per process: a library registers its
// handlers from static initializers, before any runtime knows of it. A
// runtime binds a handler the first time one of its call sites names it.
//
//===----------------------------------------------------------------------===//

#include "Ffi.h"
#include "Status.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

#include <dlfcn.h>

namespace {

using nxrt::ffi::HandlerEntry;

struct HandlerTable {
  nxrt::Mutex mu;
  absl::flat_hash_map<std::string, std::unique_ptr<HandlerEntry>>
      host ABSL_GUARDED_BY(mu);
  // Handlers of other platforms (a library built for CPU and GPU registers
  // both at load), by "platform/name": kept, as XLA keeps them, never bound.
  absl::flat_hash_map<std::string, std::unique_ptr<HandlerEntry>>
      other ABSL_GUARDED_BY(mu);
  // Registrations so far, to count what loading a library added.
  size_t count ABSL_GUARDED_BY(mu) = 0;
};

HandlerTable &table() {
  static HandlerTable *instance = new HandlerTable;
  return *instance;
}

size_t registeredCount() {
  HandlerTable &t = table();
  nxrt::MutexLock lock(&t.mu);
  return t.count;
}

/// XLA:CPU's platform is "Host"; JAX spells it "cpu". Names are
/// case-insensitive, as XLA canonicalizes them.
bool isHostPlatform(absl::string_view platform) {
  std::string lower = absl::AsciiStrToLower(platform);
  return lower == "host" || lower == "cpu";
}

/// Asks the execute handler which API version it was built against, with
/// the metadata extension XLA's registration passes. A handler that does not
/// answer (one written against the bare C API) is taken to be 0.1.
absl::StatusOr<int> probeApiMinor(absl::string_view name,
                                  XLA_FFI_Handler *execute) {
  XLA_FFI_Metadata metadata{};
  metadata.struct_size = XLA_FFI_Metadata_STRUCT_SIZE;
  metadata.api_version.struct_size = XLA_FFI_Api_Version_STRUCT_SIZE;
  XLA_FFI_Metadata_Extension extension{};
  extension.extension_base.struct_size = XLA_FFI_Metadata_Extension_STRUCT_SIZE;
  extension.extension_base.type = XLA_FFI_Extension_Metadata;
  extension.metadata = &metadata;
  XLA_FFI_CallFrame frame{};
  frame.struct_size = XLA_FFI_CallFrame_STRUCT_SIZE;
  frame.extension_start = &extension.extension_base;
  frame.api = nxrt::ffi::api();
  frame.stage = XLA_FFI_ExecutionStage_EXECUTE;
  frame.args.struct_size = XLA_FFI_Args_STRUCT_SIZE;
  frame.rets.struct_size = XLA_FFI_Rets_STRUCT_SIZE;
  frame.attrs.struct_size = XLA_FFI_Attrs_STRUCT_SIZE;
  absl::Status answered = nxrt::ffi::takeError(execute(&frame));
  int major = metadata.api_version.major_version;
  int minor = metadata.api_version.minor_version;
  if (!answered.ok() || (major == 0 && minor == 0))
    return 1;
  if (major != XLA_FFI_API_MAJOR || minor < 1 || minor > XLA_FFI_API_MINOR)
    return absl::UnimplementedError(absl::StrFormat(
        "XLA FFI handler '%s' was built against API version %d.%d; nx "
        "implements %d.1 to %d.%d",
        name, major, minor, XLA_FFI_API_MAJOR, XLA_FFI_API_MAJOR,
        XLA_FFI_API_MINOR));
  return minor;
}

bool sameBundle(const XLA_FFI_Handler_Bundle &a,
                const XLA_FFI_Handler_Bundle &b) {
  return a.instantiate == b.instantiate && a.prepare == b.prepare &&
         a.initialize == b.initialize && a.execute == b.execute;
}

} // namespace

absl::Status nxrt::ffi::registerHandler(absl::string_view name,
                                        absl::string_view platform,
                                        const XLA_FFI_Handler_Bundle &bundle,
                                        XLA_FFI_Handler_Traits traits) {
  if (name.empty())
    return absl::InvalidArgumentError("XLA FFI handler name is empty");
  if (!bundle.execute)
    return absl::InvalidArgumentError(
        absl::StrFormat("XLA FFI handler '%s' has no execute function", name));
  if (platform.empty())
    return absl::InvalidArgumentError(
        absl::StrFormat("XLA FFI handler '%s' names no platform", name));
  bool host = isHostPlatform(platform);
  // Only a handler nx may call is asked for its version: another platform's
  // may expect a device context even for that.
  absl::StatusOr<int> minor = host ? probeApiMinor(name, bundle.execute) : 1;
  if (!minor.ok())
    return minor.status();
  HandlerTable &t = table();
  MutexLock lock(&t.mu);
  std::string key =
      host ? std::string(name)
           : absl::StrCat(absl::AsciiStrToLower(platform), "/", name);
  auto &map = host ? t.host : t.other;
  auto [it, inserted] = map.try_emplace(key, nullptr);
  if (!inserted) {
    if (sameBundle(it->second->bundle, bundle))
      return absl::OkStatus();
    return absl::AlreadyExistsError(
        absl::StrFormat("XLA FFI handler '%s' is already registered for '%s'",
                        name, host ? "Host" : platform));
  }
  it->second = std::make_unique<HandlerEntry>(
      HandlerEntry{std::string(name), bundle, traits, *minor});
  ++t.count;
  return absl::OkStatus();
}

const HandlerEntry *nxrt::ffi::findHostHandler(absl::string_view name) {
  HandlerTable &t = table();
  MutexLock lock(&t.mu);
  auto it = t.host.find(name);
  return it == t.host.end() ? nullptr : it->second.get();
}

extern "C" nxrt_status_t *
nxrt_ffi_register(const char *name, const char *platform,
                  const XLA_FFI_Handler_Bundle *bundle,
                  XLA_FFI_Handler_Traits traits) {
  if (!name || !bundle)
    return nxrt::toC(absl::InvalidArgumentError(
        "nxrt_ffi_register: the name and bundle must not be null"));
  return nxrt::toC(nxrt::ffi::registerHandler(
      name, platform ? platform : "Host", *bundle, traits));
}

extern "C" int nxrt_ffi_has_handler(const char *name) {
  return name && nxrt::ffi::findHostHandler(name) != nullptr;
}

static absl::StatusOr<void *> openLibrary(const char *path) {
  // RTLD_GLOBAL: a handler library may be split in several objects that
  // resolve each other's symbols, as under Python's loader.
  void *handle = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char *why = dlerror();
    return absl::NotFoundError(
        absl::StrFormat("cannot load XLA FFI library '%s': %s", path,
                        why ? why : "unknown error"));
  }
  return handle;
}

extern "C" nxrt_status_t *nxrt_ffi_load_library(const char *path,
                                                int require_handlers,
                                                size_t *registered) {
  if (!path)
    return nxrt::toC(
        absl::InvalidArgumentError("nxrt_ffi_load_library: no path"));
  size_t before = registeredCount();
  absl::StatusOr<void *> handle = openLibrary(path);
  if (!handle.ok())
    return nxrt::toC(handle.status());
  // Other threads may register at the same time; the count is what this
  // process gained while the library loaded, which is exact for the runners.
  size_t added = registeredCount() - before;
  if (registered)
    *registered = added;
  if (added == 0 && require_handlers)
    return nxrt::toC(absl::InvalidArgumentError(absl::StrFormat(
        "XLA FFI library '%s' registered no handler when loaded (name its "
        "handler symbols with --ffi-target=NAME=SYMBOL)",
        path)));
  return nullptr;
}

extern "C" nxrt_status_t *nxrt_ffi_register_symbol(const char *path,
                                                   const char *name,
                                                   const char *symbol) {
  if (!name || !symbol)
    return nxrt::toC(absl::InvalidArgumentError(
        "nxrt_ffi_register_symbol: the name and symbol must not be null"));
  void *handle = RTLD_DEFAULT;
  if (path) {
    absl::StatusOr<void *> opened = openLibrary(path);
    if (!opened.ok())
      return nxrt::toC(opened.status());
    handle = *opened;
  }
  dlerror();
  void *address = dlsym(handle, symbol);
  if (!address)
    return nxrt::toC(absl::NotFoundError(
        absl::StrFormat("XLA FFI handler symbol '%s' not found in %s", symbol,
                        path ? absl::StrFormat("'%s'", path) : "the process")));
  XLA_FFI_Handler_Bundle bundle{};
  bundle.execute = reinterpret_cast<XLA_FFI_Handler *>(address);
  return nxrt::toC(nxrt::ffi::registerHandler(name, "Host", bundle, 0));
}
