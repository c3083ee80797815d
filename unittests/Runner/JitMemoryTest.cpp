//===- JitMemoryTest.cpp - one engine's code and data within 2 GiB --------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Runner/JitMemory.h"

#include "llvm/Support/Memory.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace mlir::nx::runner;
using Purpose = llvm::SectionMemoryManager::AllocationPurpose;

namespace {

constexpr unsigned kReadWrite =
    llvm::sys::Memory::MF_READ | llvm::sys::Memory::MF_WRITE;

TEST(JitMemory, BlocksAreUsableAndWithinTwoGiB) {
  JitMemory memory;
  std::vector<llvm::sys::MemoryBlock> blocks;
  for (Purpose purpose : {Purpose::Code, Purpose::ROData, Purpose::RWData}) {
    for (size_t bytes : {1, 4096, 100000}) {
      std::error_code ec;
      llvm::sys::MemoryBlock block =
          memory.allocateMappedMemory(purpose, bytes, nullptr, kReadWrite, ec);
      ASSERT_FALSE(ec) << ec.message();
      ASSERT_NE(block.base(), nullptr);
      EXPECT_GE(block.allocatedSize(), bytes);
      std::memset(block.base(), 0xab, bytes); // writable
      blocks.push_back(block);
    }
  }
  auto address = [](const llvm::sys::MemoryBlock &b) {
    return reinterpret_cast<uintptr_t>(b.base());
  };
  uintptr_t low = address(blocks.front()), high = 0;
  for (const llvm::sys::MemoryBlock &b : blocks) {
    low = std::min(low, address(b));
    high = std::max(high, address(b) + b.allocatedSize());
  }
  EXPECT_LT(high - low, uintptr_t(1) << 31);
  // Code becomes executable and read-only.
  EXPECT_FALSE(memory.protectMappedMemory(
      blocks.front(), llvm::sys::Memory::MF_READ | llvm::sys::Memory::MF_EXEC));
  for (llvm::sys::MemoryBlock &b : blocks)
    EXPECT_FALSE(memory.releaseMappedMemory(b));
}

TEST(JitMemory, MoreThanTheReservationIsAnError) {
  JitMemory memory;
  std::error_code ec;
  llvm::sys::MemoryBlock block = memory.allocateMappedMemory(
      Purpose::RWData, size_t(1) << 31, nullptr, kReadWrite, ec);
  EXPECT_EQ(ec, std::errc::not_enough_memory);
  EXPECT_EQ(block.base(), nullptr);
  // What fits still does.
  block = memory.allocateMappedMemory(Purpose::RWData, 4096, nullptr,
                                      kReadWrite, ec);
  EXPECT_FALSE(ec);
  EXPECT_NE(block.base(), nullptr);
}

} // namespace
