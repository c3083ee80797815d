//===- EntryCall.cpp - call a compiled entry point on host tensors --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nxhost/EntryCall.h"
#include "nxhost/HostRuntime.h"

#include "nxrt/nxrt_aot.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Twine.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

#include <sys/resource.h>

using namespace nxhost;
using llvm::Expected;
using llvm::StringRef;

namespace {
/// A memref descriptor as MLIR lays it out for a given rank:
/// {T *allocated, T *aligned, i64 offset, i64 sizes[rank], i64 strides[rank]}
/// All fields are 8 bytes, so a struct of descriptors is their concatenation.
constexpr size_t descriptorWords(size_t rank) { return 3 + 2 * rank; }
} // namespace

static bool matchesSpec(const HostTensor &t, const TensorSpec &spec) {
  if (t.dtype() != spec.dtype || t.rank() != (int64_t)spec.shape.size())
    return false;
  for (auto [have, want] : llvm::zip(t.shape(), spec.shape))
    if (want >= 0 && have != want)
      return false;
  return true;
}

/// Copies a strided memref into a fresh dense tensor.
static void copyStrided(HostTensor &dst, const uint8_t *base,
                        const int64_t *strides, size_t elementSize) {
  int64_t rank = dst.rank();
  llvm::ArrayRef<int64_t> shape = dst.shape();
  int64_t n = dst.numElements();
  if (n == 0)
    return;
  // Dense row-major fast path.
  bool dense = true;
  int64_t expected = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (shape[d] != 1 && strides[d] != expected)
      dense = false;
    expected *= shape[d];
  }
  if (dense) {
    std::memcpy(dst.data(), base, dst.byteSize());
    return;
  }
  llvm::SmallVector<int64_t, 4> index(rank, 0);
  uint8_t *out = static_cast<uint8_t *>(dst.data());
  for (int64_t i = 0; i < n; ++i) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    std::memcpy(out, base + offset * (int64_t)elementSize, elementSize);
    out += elementSize;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

/// The page faults the process has taken so far (minor and major).
static int64_t pageFaults() {
  rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0)
    return 0;
  return usage.ru_minflt + usage.ru_majflt;
}

/// A dense row-major descriptor of `tensor`.
static std::vector<int64_t> describe(const HostTensor &tensor) {
  size_t rank = tensor.rank();
  std::vector<int64_t> d(descriptorWords(rank), 0);
  void *data = const_cast<void *>(tensor.data());
  std::memcpy(&d[0], &data, sizeof(void *));
  std::memcpy(&d[1], &data, sizeof(void *));
  int64_t stride = 1;
  for (size_t k = rank; k-- > 0;) {
    d[3 + k] = tensor.shape()[k];
    d[3 + rank + k] = stride;
    stride *= tensor.shape()[k];
  }
  return d;
}

llvm::Error nxhost::noSuchEntryError(StringRef name,
                                     llvm::ArrayRef<EntrySignature> entries) {
  std::string available;
  for (const EntrySignature &e : entries)
    available += (available.empty() ? "@" : ", @") + e.name;
  return llvm::createStringError(
      "no public function @" + name + " in the program (available: " +
      (available.empty() ? "none" : available) + ")");
}

llvm::Error nxhost::checkEntryInputs(const EntrySignature &sig,
                                     llvm::ArrayRef<HostTensor> inputs) {
  const std::string &entryName = sig.name;
  if (!sig.unsupported.empty())
    return llvm::createStringError("@" + entryName +
                                   " cannot be run: " + sig.unsupported);
  if (inputs.size() != sig.args.size())
    return llvm::createStringError(
        "@" + entryName + " takes " + llvm::Twine(sig.args.size()) +
        " argument(s), got " + llvm::Twine(inputs.size()));
  for (auto [i, input] : llvm::enumerate(inputs))
    if (!matchesSpec(input, sig.args[i]))
      return llvm::createStringError(
          "argument #" + llvm::Twine(i) + " of @" + entryName + " has type " +
          sig.args[i].type + ", got " + input.typeString());
  return llvm::Error::success();
}

/// Copies of `inputs` for one run of `sig`: nx-compile's entry points only
/// read their arguments (nx-prepare-entry-points), but an object with the
/// same ABI from elsewhere may write them, so unless the caller vouches for
/// the program every run works on its own copies, and the caller's tensors
/// stay untouched and may be shared by concurrent runs.
static Expected<std::vector<HostTensor>>
copyInputs(const EntrySignature &sig, llvm::ArrayRef<HostTensor> inputs) {
  std::vector<HostTensor> copies;
  copies.reserve(inputs.size());
  for (auto [i, input] : llvm::enumerate(inputs)) {
    Expected<HostTensor> copy = input.copy();
    if (!copy)
      return llvm::createStringError("copy of argument #" + llvm::Twine(i) +
                                     " of @" + sig.name + ": " +
                                     llvm::toString(copy.takeError()));
    copies.push_back(std::move(*copy));
  }
  return copies;
}

/// The results of a run of `sig`, read from the descriptors the entry wrote
/// into `resultStorage`, then the buffers the compiled code allocated freed
/// (once, and never the arguments `operands` or constant globals, whose
/// allocated pointer is MLIR's sentinel). A failed run (`status`, which
/// this consumes) frees the same and returns its error.
static Expected<std::vector<HostTensor>>
collectResults(const EntrySignature &sig, const int64_t *resultStorage,
               llvm::ArrayRef<HostTensor> operands, nxrt_status_t *status) {
  std::vector<HostTensor> results;
  std::string copyFailure;
  llvm::SmallPtrSet<void *, 8> toFree;
  llvm::SmallPtrSet<const void *, 8> inputPtrs;
  for (const HostTensor &input : operands)
    inputPtrs.insert(input.data());
  const int64_t *word = resultStorage;
  for (const TensorSpec &spec : sig.results) {
    size_t rank = spec.shape.size();
    void *allocated, *aligned;
    std::memcpy(&allocated, &word[0], sizeof(void *));
    std::memcpy(&aligned, &word[1], sizeof(void *));
    int64_t offset = word[2];
    llvm::SmallVector<int64_t, 4> shape(word + 3, word + 3 + rank);
    const int64_t *strides = word + 3 + rank;
    word += descriptorWords(rank);
    if (allocated &&
        reinterpret_cast<uintptr_t>(allocated) != NXRT_AOT_CONSTANT_BUFFER &&
        !inputPtrs.contains(allocated))
      toFree.insert(allocated);
    if (status || !copyFailure.empty())
      continue;
    // copyStrided writes every element of a result it has a buffer for.
    Expected<HostTensor> created =
        HostTensor::create(spec.dtype, shape, /*zeroed=*/!aligned);
    if (!created) {
      copyFailure = "result #" + std::to_string(results.size()) + " of @" +
                    sig.name + ": " + llvm::toString(created.takeError());
      continue;
    }
    HostTensor tensor = std::move(*created);
    size_t elementSize = nxrt_dtype_size(spec.dtype);
    if (aligned)
      copyStrided(tensor,
                  static_cast<const uint8_t *>(aligned) +
                      offset * (int64_t)elementSize,
                  strides, elementSize);
    results.push_back(std::move(tensor));
  }
  for (void *p : toFree)
    std::free(p);
  if (status)
    return statusToError(status);
  if (!copyFailure.empty())
    return llvm::createStringError(copyFailure);
  return results;
}

Expected<std::vector<HostTensor>>
nxhost::callEntry(const EntrySignature &sig, PackedEntryFn fn,
                  llvm::ArrayRef<HostTensor> inputs, nxrt_runtime_t *runtime,
                  const RunOptions &options) {
  if (auto err = checkEntryInputs(sig, inputs))
    return err;
  std::vector<HostTensor> copies;
  if (!options.reuseInputs) {
    Expected<std::vector<HostTensor>> copied = copyInputs(sig, inputs);
    if (!copied)
      return copied.takeError();
    copies = std::move(*copied);
  }
  llvm::ArrayRef<HostTensor> operands =
      options.reuseInputs ? inputs : llvm::ArrayRef<HostTensor>(copies);

  std::vector<std::vector<int64_t>> argDescs;
  std::vector<void *> argDescPtrs;
  argDescs.reserve(operands.size());
  for (const HostTensor &input : operands) {
    argDescs.push_back(describe(input));
    argDescPtrs.push_back(argDescs.back().data());
  }
  // Result storage: one descriptor per result, concatenated.
  size_t resultWords = 0;
  for (const TensorSpec &r : sig.results)
    resultWords += descriptorWords(r.shape.size());
  std::vector<int64_t> resultStorage(resultWords, 0);
  void *resultPtr = resultStorage.data();

  llvm::SmallVector<void *, 8> packedArgs;
  if (!sig.results.empty())
    packedArgs.push_back(&resultPtr);
  for (void *&p : argDescPtrs)
    packedArgs.push_back(&p);

  nxrt_run_options_t runOptions;
  runOptions.timeout_ms = options.timeoutMs;
  int64_t faultsBefore = options.entryPageFaults ? pageFaults() : 0;
  auto start = std::chrono::steady_clock::now();
  nxrt_run_t *run = nxrt_run_begin(runtime, &runOptions);
  fn(packedArgs.data());
  nxrt_status_t *status = nxrt_run_end(run);
  if (options.entrySeconds)
    *options.entrySeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  if (options.entryPageFaults)
    *options.entryPageFaults = pageFaults() - faultsBefore;
  return collectResults(sig, resultStorage.data(), operands, status);
}
