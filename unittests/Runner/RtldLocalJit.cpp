//===- RtldLocalJit.cpp - the JIT inside a library loaded RTLD_LOCAL ------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A loadable module around NxRunner for RtldLocalTest.cpp, with a C
// interface: the test's host links neither MLIR nor libnxrt and loads this
// module, as language bindings load theirs (a Python extension, an Erlang
// NIF), with RTLD_LOCAL. libnxrt and libomp are then in no global scope, and
// the JIT finds only what it binds itself.
//
//===----------------------------------------------------------------------===//

#include "nx/Runner/Runner.h"

#include "nxhost/HostTensor.h"
#include "nxrt/nxrt.h"

#include "llvm/Support/Error.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace mlir::nx::runner;

#define NX_TEST_EXPORT extern "C" __attribute__((visibility("default")))

/// A copy of `text` the host frees with free(): the host and this module
/// share only the C library.
static char *copyForHost(const std::string &text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (copy)
    std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

/// Results of `entry` must be one tensor of the type of `output`.
static std::string copyResult(const std::vector<nxhost::HostTensor> &results,
                              const nxrt_tensor_t &output) {
  if (results.size() != 1)
    return "expected one result, got " + std::to_string(results.size());
  const nxhost::HostTensor &result = results.front();
  nxrt_tensor_t view = result.view();
  if (!nxrt_tensor_same_type(&view, &output))
    return "the result is a " + result.typeString();
  std::memcpy(output.data, result.data(), result.byteSize());
  return "";
}

/// Compiles `source` with the JIT, runs `entry` once on `inputs` and writes
/// its only result into `output`'s buffer. Returns NULL, or the error for
/// the host to free. `*lowered` receives the program as nx-lower-to-cpu left
/// it (the LLVM dialect, as text; the host frees it), so that the host
/// knows which libnxrt functions the run called.
NX_TEST_EXPORT char *nxTestRun(const char *source, const char *entry,
                               const nxrt_tensor_t *inputs, size_t numInputs,
                               const nxrt_tensor_t *output, char **lowered) {
  std::unique_ptr<nxrt_runtime_t, void (*)(nxrt_runtime_t *)> runtime(
      nxrt_runtime_create(), nxrt_runtime_destroy);
  std::string loweredText;
  CompileOptions options;
  options.loweredIR = &loweredText;
  auto executable = Executable::compileSource(source, "rtld-local.mlir",
                                              runtime.get(), options);
  *lowered = copyForHost(loweredText);
  if (!executable)
    return copyForHost(llvm::toString(executable.takeError()));
  std::vector<nxhost::HostTensor> hostInputs;
  for (const nxrt_tensor_t &input : llvm::ArrayRef(inputs, numInputs)) {
    nxhost::HostTensor tensor(input.dtype,
                              llvm::ArrayRef(input.dims, input.rank));
    std::memcpy(tensor.data(), input.data, tensor.byteSize());
    hostInputs.push_back(std::move(tensor));
  }
  auto results = (*executable)->run(entry, hostInputs);
  if (!results)
    return copyForHost(llvm::toString(results.takeError()));
  std::string error = copyResult(*results, *output);
  return error.empty() ? nullptr : copyForHost(error);
}
