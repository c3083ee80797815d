//===- JitMemory.cpp - Memory for JIT-compiled code within 2 GiB ----------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Runner/JitMemory.h"

#include "llvm/Support/Memory.h"
#include "llvm/Support/Process.h"

#include <sys/mman.h>

using namespace mlir::nx::runner;

// Just under 2 GiB: any two addresses in it differ by less than 2^31, the
// reach of a signed 32-bit offset.
static constexpr size_t kReservation = (size_t(1) << 31) - (size_t(1) << 20);

JitMemory::JitMemory() {
  void *p = ::mmap(nullptr, kReservation, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p != MAP_FAILED) {
    base = static_cast<char *>(p);
    size = kReservation;
  }
}

JitMemory::~JitMemory() {
  if (base)
    ::munmap(base, size);
}

llvm::sys::MemoryBlock JitMemory::allocateMappedMemory(
    llvm::SectionMemoryManager::AllocationPurpose, size_t numBytes,
    const llvm::sys::MemoryBlock *const, unsigned flags, std::error_code &ec) {
  size_t page = llvm::sys::Process::getPageSizeEstimate();
  size_t bytes = (numBytes + page - 1) / page * page;
  char *start = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!base || bytes == 0 || bytes > size - next) {
      ec = std::make_error_code(std::errc::not_enough_memory);
      return llvm::sys::MemoryBlock();
    }
    start = base + next;
    next += bytes;
  }
  llvm::sys::MemoryBlock block(start, bytes);
  ec = llvm::sys::Memory::protectMappedMemory(block, flags);
  if (ec)
    return llvm::sys::MemoryBlock();
  return block;
}

std::error_code
JitMemory::protectMappedMemory(const llvm::sys::MemoryBlock &block,
                               unsigned flags) {
  return llvm::sys::Memory::protectMappedMemory(block, flags);
}

std::error_code JitMemory::releaseMappedMemory(llvm::sys::MemoryBlock &block) {
  if (!block.base())
    return std::error_code();
  // Back to reserved address space: the pages go back to the system.
  if (::mmap(block.base(), block.allocatedSize(), PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1,
             0) == MAP_FAILED)
    return std::error_code(errno, std::generic_category());
  block = llvm::sys::MemoryBlock();
  return std::error_code();
}
