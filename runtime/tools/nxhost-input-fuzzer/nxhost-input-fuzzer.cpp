//===- nxhost-input-fuzzer.cpp - libFuzzer harness of the runners' inputs -===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What nxrt-run and nx-runner read from their users, whoever wrote it: the
// tensor literals of --input (HostTensor::parseLiteral, both its MLIR form
// `[1, 2]:tensor<2xf32>` and IREE's `2xf32=1 2`) and .npy files
// (HostTensor::parseNpy). An input's first byte picks the reader: 'n' the
// .npy reader, anything else the literal parser; the rest is what it reads.
//
// Besides crashes, hangs and sanitizer reports, the harness checks the
// readers' promises on every tensor they accept:
//  - its byte size is what its dtype and shape make;
//  - printed back (valuesString:typeString) and parsed again, it is the
//    same tensor, bit for bit, NaN payloads aside;
//  - written to .npy (where NumPy has its dtype) and read back, the same.
// A broken promise aborts with both tensors printed.
//
// Allocation: a literal may ask for any shape. Allocations past 64 MiB fail
// (ASan returns null, as a refusing allocator would), so those inputs test
// the RESOURCE_EXHAUSTED path instead of the machine.
//
//===----------------------------------------------------------------------===//

#include "nxhost/HostTensor.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using nxhost::HostTensor;

/// Tensors with more elements are not printed and parsed again: a splat
/// over a large shape would spend the run's time formatting.
constexpr int64_t kMaxRoundTripElements = int64_t{1} << 16;

// Past 64 MiB an allocation fails instead of ending the run: libFuzzer
// calls one larger than its -malloc_limit_mb a crash.
extern "C" const char *__asan_default_options() {
  return "allocator_may_return_null=1:max_allocation_size_mb=64";
}

extern "C" const char *__ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1";
}

/// Aborts with `what` and the tensors involved (libFuzzer saves the input):
/// a reader broke one of its promises.
[[noreturn]] static void brokenPromise(const std::string &what,
                                       const HostTensor &first,
                                       const std::string &second) {
  std::fprintf(stderr, "nxhost-input-fuzzer: %s\n  first:  %s\n  second: %s\n",
               what.c_str(), first.toString().c_str(), second.c_str());
  std::abort();
}

/// Whether `a` and `b` hold the same elements, any NaN equal to any other
/// of its element's width: printing keeps no payload.
static bool sameUpToNaNs(const HostTensor &a, const HostTensor &b) {
  if (a == b)
    return true;
  if (a.dtype() != b.dtype() || a.shape() != b.shape())
    return false;
  // Compare what both print: a NaN prints "nan" whatever its payload, and
  // every other value prints exactly.
  return a.valuesString() == b.valuesString();
}

static void checkByteSize(const HostTensor &tensor) {
  std::optional<size_t> expected =
      HostTensor::byteSizeOf(tensor.dtype(), tensor.shape());
  if (!expected || *expected != tensor.byteSize())
    brokenPromise("byte size " + std::to_string(tensor.byteSize()) +
                      " is not what the dtype and shape make",
                  tensor, "");
}

static void checkLiteralRoundTrip(const HostTensor &tensor) {
  std::string printed = tensor.valuesString() + ":" + tensor.typeString();
  llvm::Expected<HostTensor> again = HostTensor::parseLiteral(printed);
  if (!again)
    brokenPromise("its printed form does not parse: " +
                      llvm::toString(again.takeError()),
                  tensor, printed);
  if (!sameUpToNaNs(tensor, *again))
    brokenPromise("its printed form parses to another tensor", tensor,
                  again->toString());
}

static void checkNpyRoundTrip(const HostTensor &tensor) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (llvm::Error err = tensor.writeNpy(os)) {
    // Only a dtype NumPy lacks (bf16) has no .npy form.
    llvm::consumeError(std::move(err));
    return;
  }
  llvm::Expected<HostTensor> again = HostTensor::parseNpy(bytes, "round trip");
  if (!again)
    brokenPromise("its .npy form does not read: " +
                      llvm::toString(again.takeError()),
                  tensor, "");
  if (*again != tensor)
    brokenPromise("its .npy form reads as another tensor", tensor,
                  again->toString());
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  llvm::StringRef rest(reinterpret_cast<const char *>(data) + 1, size - 1);
  llvm::Expected<HostTensor> tensor =
      data[0] == 'n' ? HostTensor::parseNpy(rest, "input.npy")
                     : HostTensor::parseLiteral(rest);
  if (!tensor) {
    // A message is the promise for bad input; it must say something.
    std::string message = llvm::toString(tensor.takeError());
    if (message.empty())
      std::abort();
    return 0;
  }
  checkByteSize(*tensor);
  if (tensor->numElements() > kMaxRoundTripElements)
    return 0;
  checkLiteralRoundTrip(*tensor);
  checkNpyRoundTrip(*tensor);
  return 0;
}
