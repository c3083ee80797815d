//===- AotProgram.cpp - load an ahead-of-time compiled object -------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nxhost/AotProgram.h"
#include "nxhost/HostRuntime.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

using namespace nxhost;
using llvm::Expected;
using llvm::StringRef;

std::string AotProgram::defaultPrefix(StringRef path) {
  // The stem (file name without its last extension), as nx-compile derives
  // the default prefix from its output's name.
  StringRef name = llvm::sys::path::stem(path);
  std::string prefix;
  for (char c : name)
    prefix += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (prefix.empty() || llvm::isDigit(prefix[0]))
    prefix = "_" + prefix;
  return prefix;
}

/// The TensorSpec of an argument or result the object describes.
static TensorSpec toSpec(const nxrt_aot_tensor_type_t &type) {
  TensorSpec spec;
  spec.dtype = type.dtype;
  spec.shape.assign(type.dims, type.dims + type.rank);
  spec.type = type.type ? type.type : "";
  return spec;
}

Expected<std::unique_ptr<AotProgram>>
AotProgram::load(StringRef path, StringRef prefix, nxrt_runtime_t *runtime) {
  if (!runtime)
    return llvm::createStringError("no runtime given");
  std::unique_ptr<AotProgram> program(new AotProgram());
  program->runtime = runtime;
  // RTLD_LOCAL: several objects may define the same internal symbols; only
  // their prefixed exports are looked up, here, by name.
  program->handle = dlopen(path.str().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!program->handle)
    return llvm::createStringError("cannot load '" + path + "': " + dlerror());
  std::string symbol = (prefix + "_program").str();
  auto *aot = static_cast<const nxrt_aot_program_t *>(
      dlsym(program->handle, symbol.c_str()));
  if (!aot)
    return llvm::createStringError(
        "'" + path + "' does not export " + symbol +
        ": not an nx-compile object, or compiled with another --prefix "
        "(pass it as --prefix)");
  if (aot->abi_version != NXRT_AOT_ABI_VERSION)
    return llvm::createStringError(
        "'" + path + "' has AOT ABI version " + llvm::Twine(aot->abi_version) +
        ", this host reads version " + llvm::Twine(NXRT_AOT_ABI_VERSION) +
        ": recompile it with nx-compile");
  if (aot->api_version != nxrt_api_version())
    return llvm::createStringError(
        "'" + path + "' was compiled against libnxrt API version " +
        llvm::Twine(aot->api_version) + ", the loaded libnxrt has version " +
        llvm::Twine(nxrt_api_version()) + ": recompile it with nx-compile");
  if (aot->num_entries < 0 || (aot->num_entries > 0 && !aot->entries) ||
      aot->num_callbacks < 0 || (aot->num_callbacks > 0 && !aot->callbacks))
    return llvm::createStringError("'" + path + "': " + symbol +
                                   " is malformed (entry or callback table)");

  for (int32_t i = 0; i < aot->num_entries; ++i) {
    const nxrt_aot_entry_t &entry = aot->entries[i];
    EntrySignature sig;
    sig.name = entry.name ? entry.name : "";
    for (int32_t a = 0; a < entry.num_args; ++a)
      sig.args.push_back(toSpec(entry.args[a]));
    for (int32_t r = 0; r < entry.num_results; ++r)
      sig.results.push_back(toSpec(entry.results[r]));
    if (!entry.packed)
      sig.unsupported = "the object has no packed interface for it";
    program->entrySignatures.push_back(std::move(sig));
    program->packed.push_back(entry.packed);
  }
  for (int32_t i = 0; i < aot->num_callbacks; ++i)
    program->callbacks.push_back(aot->callbacks[i]);

  std::string name = aot->name ? aot->name : path.str();
  program->programHandle = nxrt_program_create(runtime, name.c_str());
  program->init = aot->init;
  program->path = path.str();
  program->initSymbol = (prefix + "_nx_init").str();
  return program;
}

llvm::Error AotProgram::initialize() {
  if (initialized)
    return llvm::Error::success();
  if (init)
    if (auto err = statusToError(init(programHandle)))
      return llvm::createStringError("loading '" + path + "' failed (" +
                                     initSymbol +
                                     "): " + llvm::toString(std::move(err)));
  initialized = true;
  return llvm::Error::success();
}

AotProgram::~AotProgram() {
  // The object's code refers to the program's sites: destroy the program
  // while the code is still mapped, then unmap it.
  nxrt_program_destroy(programHandle);
  if (handle)
    dlclose(handle);
}

Expected<std::vector<HostTensor>>
AotProgram::run(StringRef entry, llvm::ArrayRef<HostTensor> inputs,
                const RunOptions &options) const {
  if (!initialized)
    return llvm::createStringError("'" + path +
                                   "' is not initialized (call initialize)");
  for (auto [i, sig] : llvm::enumerate(entrySignatures))
    if (sig.name == entry)
      return callEntry(sig, packed[i], inputs, runtime, options);
  return noSuchEntryError(entry, entrySignatures);
}
