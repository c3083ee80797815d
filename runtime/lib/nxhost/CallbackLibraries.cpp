//===- CallbackLibraries.cpp - a runtime and the libraries bound to it ----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nxhost/HostRuntime.h"

#include "llvm/ADT/STLExtras.h"

#include <dlfcn.h>

using namespace nxhost;

llvm::Error nxhost::statusToError(nxrt_status_t *status) {
  if (!status)
    return llvm::Error::success();
  std::string message = nxrt_status_message(status);
  nxrt_status_free(status);
  return llvm::createStringError(message);
}

std::unique_ptr<HostRuntime> HostRuntime::create() {
  std::unique_ptr<HostRuntime> runtime(new HostRuntime());
  runtime->runtime = nxrt_runtime_create();
  return runtime;
}

void HostRuntime::shutdown() {
  nxrt_bridge_close(runtime);
  // Last loaded, first released: a library may use what an earlier one set
  // up.
  for (ReleaseCallbacksFn release : llvm::reverse(releases))
    release(runtime);
  releases.clear();
}

HostRuntime::~HostRuntime() {
  shutdown();
  nxrt_runtime_destroy(runtime);
  // Handlers of the libraries are gone with the runtime; the libraries stay
  // loaded (unloading code that may still be referenced by static
  // destructors or threads is not worth the risk).
}

llvm::Error HostRuntime::loadCallbackLibrary(llvm::StringRef path) {
  std::string pathStr = path.str();
  void *handle = dlopen(pathStr.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return llvm::createStringError("cannot load callback library '" + path +
                                   "': " + (why ? why : "unknown error"));
  }
  libraries.push_back(handle);
  dlerror();
  void *symbol = dlsym(handle, kRegisterCallbacksSymbol.data());
  if (!symbol)
    return llvm::createStringError("callback library '" + path +
                                   "' does not export " +
                                   kRegisterCallbacksSymbol);
  auto fn = reinterpret_cast<RegisterCallbacksFn>(symbol);
  // Recorded before registering: a registration that fails half way may
  // already hold resources.
  if (void *release = dlsym(handle, kReleaseCallbacksSymbol.data()))
    releases.push_back(reinterpret_cast<ReleaseCallbacksFn>(release));
  if (nxrt_status_t *status = fn(runtime)) {
    std::string message = nxrt_status_message(status);
    nxrt_status_free(status);
    return llvm::createStringError("callback library '" + path +
                                   "': " + kRegisterCallbacksSymbol +
                                   " failed: " + message);
  }
  return llvm::Error::success();
}
