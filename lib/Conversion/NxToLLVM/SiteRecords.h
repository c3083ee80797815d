//===- SiteRecords.h - the call sites __nx_init registers -------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each call site of a module is one mutable global, `@__nx_site_<k>`: an
// nxrt_site_record_t followed by the site's constant bytes (the dims of its
// views, its stream handle, its name, location and attributes). The records
// form a list from `@__nx_sites`, which __nx_init hands to
// nxrt_program_add_sites. A site joins the list in constant time, at its
// front, by a pattern that knows nothing of the other sites: there is no
// table to size in advance. Sites lowered from the last to the first (as
// convert-nx-to-llvm does) get ids in program order.
//
//===----------------------------------------------------------------------===//

#ifndef NX_LIB_CONVERSION_NXTOLLVM_SITERECORDS_H
#define NX_LIB_CONVERSION_NXTOLLVM_SITERECORDS_H

#include "nx/Dialect/Nx/IR/NxOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir::nx {

/// What the runtime learns of a site when the module is loaded, and the
/// constant bytes its calls pass.
struct SiteDescription {
  InvokeKind kind;
  std::string name;
  /// `file:line:col`, for messages.
  std::string location;
  /// Typed attributes (AttributeEncoding.h).
  std::string attrs;
  /// The dims of every view the calls pass, in order.
  SmallVector<SmallVector<int64_t>> viewDims;
  /// The stream handle of stream ops.
  std::optional<SmallVector<uint8_t>> streamHandle;
};

/// A site's global, `!llvm.struct<(ptr, ptr, array<N x i8>)>`: next, site,
/// then the rest of the record and the bytes, as one array.
struct SiteRecord {
  LLVM::GlobalOp global;
  /// Where the dims of each view, and the stream handle, lie in the array.
  SmallVector<int64_t> dimsOffsets;
  int64_t streamHandleOffset = -1;
};

/// Field of a site's global that holds the site (written by the runtime),
/// and the field holding its bytes.
inline constexpr int32_t kSiteRecordSiteField = 1;
inline constexpr int32_t kSiteRecordBytesField = 2;

/// `@__nx_sites`, and __nx_init with it, created on first use: a module with
/// them defines `__nx_init(program)`, which adds every site of the list to
/// the program.
FailureOr<LLVM::GlobalOp> getOrCreateSiteList(RewriterBase &rewriter,
                                              ModuleOp module);

/// Adds the record of `site` at the front of the list.
FailureOr<SiteRecord> prependSiteRecord(RewriterBase &rewriter, ModuleOp module,
                                        const SiteDescription &site);

} // namespace mlir::nx

#endif // NX_LIB_CONVERSION_NXTOLLVM_SITERECORDS_H
