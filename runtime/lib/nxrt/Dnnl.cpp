//===- Dnnl.cpp - what libnxrt's oneDNN primitives share ------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Dnnl.h"

#include <cstring>

namespace nxrt {

dnnl::engine &dnnlCpuEngine() {
  static dnnl::engine *engine = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *engine;
}

dnnl::primitive_attr withUserScratchpad(dnnl::primitive_attr attributes) {
  attributes.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attributes;
}

void *ScratchBuffer::get(size_t bytes) {
  if (bytes > capacity) {
    size_t rounded = (bytes + 63) / 64 * 64;
    data.reset(std::aligned_alloc(64, rounded));
    capacity = data ? rounded : 0;
    if (!data)
      throw dnnl::error(dnnl_out_of_memory, "no memory for a buffer");
  }
  return data.get();
}

void ScratchBuffer::reserve(size_t bytes) {
  if (bytes <= capacity)
    return;
  try {
    std::memset(get(bytes), 0, bytes);
  } catch (const dnnl::error &) {
  }
}

} // namespace nxrt
