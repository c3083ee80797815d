//===- SiteRecords.h - the call sites __nx_init registers -------*- C++ -*-===//
//
// Each call site of a module is an nxrt_site_record_t global; the records
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

/// A site's globals, and where its constant bytes lie in `data`.
struct SiteRecord {
  LLVM::GlobalOp record;
  LLVM::GlobalOp data;
  SmallVector<int64_t> dimsOffsets;
  int64_t streamHandleOffset = -1;
};

/// `@__nx_sites`, and __nx_init with it, created on first use: a module with
/// them defines `__nx_init(program)`, which adds every site of the list to
/// the program.
FailureOr<LLVM::GlobalOp> getOrCreateSiteList(RewriterBase &rewriter,
                                              ModuleOp module);

/// Adds the record of `site` at the front of the list.
FailureOr<SiteRecord> prependSiteRecord(RewriterBase &rewriter, ModuleOp module,
                                       const SiteDescription &site);

/// The LLVM type of nxrt_site_record_t: {next, site, kind, name,
/// location, attrs, attrs_len}.
LLVM::LLVMStructType getSiteRecordType(MLIRContext *context);

/// Field of nxrt_site_record_t that holds the site (written by the runtime).
inline constexpr int32_t kSiteRecordSiteField = 1;

} // namespace mlir::nx

#endif // NX_LIB_CONVERSION_NXTOLLVM_SITERECORDS_H
