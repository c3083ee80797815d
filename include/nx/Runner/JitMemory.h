//===- JitMemory.h - Memory for JIT-compiled code within 2 GiB --*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// nx JIT-compiles with the small code model (see createHostTargetMachine),
// whose code reaches its own data and functions through 32-bit PC-relative
// offsets: every section of a module must lie within 2 GiB of every other.
// MLIR's ExecutionEngine links with RuntimeDyld and a SectionMemoryManager
// that maps each block wherever the system puts it. This mapper serves all
// of one engine's blocks from a single 2 GiB reservation of address space,
// which makes that guaranteed. Pass it as
// ExecutionEngineOptions::sectionMemoryMapper; it must outlive the engine.
//
//===----------------------------------------------------------------------===//

#ifndef NX_RUNNER_JITMEMORY_H
#define NX_RUNNER_JITMEMORY_H

#include "llvm/ExecutionEngine/SectionMemoryManager.h"

#include <cstddef>
#include <mutex>

namespace mlir::nx::runner {

class JitMemory final : public llvm::SectionMemoryManager::MemoryMapper {
public:
  /// Reserves the address space (nothing is committed until used).
  JitMemory();
  ~JitMemory() override;
  JitMemory(const JitMemory &) = delete;
  JitMemory &operator=(const JitMemory &) = delete;

  /// A page-aligned block carved from the reservation; ENOMEM once the
  /// module's code and data would exceed it.
  llvm::sys::MemoryBlock
  allocateMappedMemory(llvm::SectionMemoryManager::AllocationPurpose purpose,
                       size_t numBytes,
                       const llvm::sys::MemoryBlock *const nearBlock,
                       unsigned flags, std::error_code &ec) override;
  std::error_code protectMappedMemory(const llvm::sys::MemoryBlock &block,
                                      unsigned flags) override;
  /// Returns the block's pages to the system; its addresses are not reused.
  std::error_code releaseMappedMemory(llvm::sys::MemoryBlock &block) override;

private:
  char *base = nullptr;
  size_t size = 0;
  std::mutex mutex; // guards next
  size_t next = 0;
};

} // namespace mlir::nx::runner

#endif // NX_RUNNER_JITMEMORY_H
