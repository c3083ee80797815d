//===- SymbolsTest.cpp - libnxrt exports what compiled code calls ---------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every entry of nxrt_symbols.def is a function that the built libnxrt
// itself exports under that name: ahead-of-time objects link against the
// names and JITs bind them. Only the names are taken from the list here, so
// an entry libnxrt hides (no NXRT_API) or lacks fails at run time rather
// than failing to link.
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>

#include <dlfcn.h>

namespace {

constexpr const char *kEntryPoints[] = {
#define NXRT_SYMBOL(fn) #fn,
#include "nxrt/nxrt_symbols.def"
};

TEST(Symbols, LibnxrtExportsEveryEntryPointOfCompiledCode) {
  // The library this test links: dlopen returns the loaded copy.
  void *library = dlopen(NX_TEST_NXRT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(library, nullptr) << dlerror();
  Dl_info own;
  void *version = dlsym(library, "nxrt_api_version");
  ASSERT_TRUE(version && dladdr(version, &own));
  for (const char *name : kEntryPoints) {
    // dlsym on a handle also searches the library's dependencies: the
    // definition found must be libnxrt's own.
    void *address = dlsym(library, name);
    Dl_info found;
    EXPECT_TRUE(address && dladdr(address, &found) &&
                found.dli_fbase == own.dli_fbase)
        << "libnxrt does not export " << name;
  }
  dlclose(library);
}

} // namespace
