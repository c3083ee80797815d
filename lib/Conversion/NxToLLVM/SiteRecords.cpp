//===- SiteRecords.cpp - the call sites __nx_init registers ---------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SiteRecords.h"

#include "FirstRunPreparation.h"
#include "RuntimeFunctions.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::nx;
namespace symbols = mlir::nx::runtime_symbols;

/// The return of the initializer of `@__nx_sites`, when it has the shape
/// this file writes.
static LLVM::ReturnOp getListReturn(LLVM::GlobalOp list) {
  Block *initializer = list.getInitializerBlock();
  if (!initializer || initializer->empty())
    return {};
  auto listReturn = dyn_cast<LLVM::ReturnOp>(initializer->back());
  if (!listReturn || listReturn->getNumOperands() != 1)
    return {};
  return listReturn;
}

/// The index of `@__nx_site_<k>`, if `name` has that form.
static std::optional<int64_t> parseSiteIndex(StringRef name) {
  int64_t index = 0;
  if (!name.consume_front(symbols::kSiteRecordPrefix) ||
      name.getAsInteger(10, index) || index < 0)
    return std::nullopt;
  return index;
}

/// The index of the first record of `module`: past every symbol of the
/// module that already has a record's name, so that the records never clash
/// with the user's symbols. One scan, made when the list is empty.
static int64_t getFirstSiteIndex(ModuleOp module) {
  int64_t first = 0;
  for (Operation &op : *module.getBody())
    if (auto name =
            op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      if (std::optional<int64_t> index = parseSiteIndex(name.getValue());
          index && *index < std::numeric_limits<int64_t>::max())
        first = std::max(first, *index + 1);
  return first;
}

/// A unique index for a new record: one more than that of the record
/// `@__nx_sites` points to (the newest, `@__nx_site_<k>`), or the first
/// free index when it is null; fails on anything else, such as a list
/// written by hand.
static FailureOr<int64_t> getNewSiteIndex(LLVM::GlobalOp list) {
  LLVM::ReturnOp listReturn = getListReturn(list);
  Operation *first =
      listReturn ? listReturn->getOperand(0).getDefiningOp() : nullptr;
  if (isa_and_present<LLVM::ZeroOp>(first))
    return getFirstSiteIndex(list->getParentOfType<ModuleOp>());
  auto address = dyn_cast_if_present<LLVM::AddressOfOp>(first);
  std::optional<int64_t> index =
      parseSiteIndex(address ? address.getGlobalName() : StringRef());
  if (!index || *index == std::numeric_limits<int64_t>::max())
    return list.emitOpError()
           << "must point to a call-site record '" << symbols::kSiteRecordPrefix
           << "<k>'; was it written by hand?";
  return *index + 1;
}

FailureOr<LLVM::GlobalOp> nx::getOrCreateSiteList(RewriterBase &rewriter,
                                                  ModuleOp module) {
  // Created at the module's start, so that finding it (a scan of the
  // module's ops) stays cheap for every site.
  Operation *existing = SymbolTable::lookupSymbolIn(module, symbols::kSiteList);
  if (auto list = dyn_cast_if_present<LLVM::GlobalOp>(existing)) {
    if (failed(getNewSiteIndex(list)))
      return failure();
    return list;
  }
  // __nx_init comes with the list: a symbol of that name without the list
  // is not ours.
  for (StringRef name : {symbols::kSiteList, symbols::kInitFunction})
    if (Operation *user = SymbolTable::lookupSymbolIn(module, name))
      return user->emitOpError()
             << "uses the name '" << name << "', which compiled code defines";
  FailureOr<LLVM::LLVMFuncOp> addSites = lookupOrCreateRuntimeFunction(
      rewriter, module, symbols::kProgramAddSites);
  if (failed(addSites))
    return failure();
  FailureOr<FirstRunPreparation> preparation =
      declareFirstRunPreparation(rewriter, module);
  if (failed(preparation))
    return failure();

  OpBuilder::InsertionGuard guard(rewriter);
  MLIRContext *context = module.getContext();
  Location loc = module.getLoc();
  Type ptr = LLVM::LLVMPointerType::get(context);
  rewriter.setInsertionPointToStart(module.getBody());
  auto list = LLVM::GlobalOp::create(rewriter, loc, ptr, /*isConstant=*/true,
                                     LLVM::Linkage::Internal,
                                     symbols::kSiteList, /*value=*/Attribute(),
                                     /*alignment=*/alignof(void *));
  rewriter.createBlock(&list.getInitializerRegion());
  LLVM::ReturnOp::create(rewriter, loc,
                         LLVM::ZeroOp::create(rewriter, loc, ptr).getResult());

  rewriter.setInsertionPointToEnd(module.getBody());
  auto init = LLVM::LLVMFuncOp::create(rewriter, loc, symbols::kInitFunction,
                                       LLVM::LLVMFunctionType::get(ptr, {ptr}));
  Block *entry = rewriter.createBlock(&init.getBody(), {}, {ptr}, {loc});
  callFirstRunPreparation(rewriter, loc, *preparation);
  Value firstRecord = LLVM::LoadOp::create(
      rewriter, loc, ptr, LLVM::AddressOfOp::create(rewriter, loc, list));
  Value status =
      LLVM::CallOp::create(rewriter, loc, *addSites,
                           ValueRange{entry->getArgument(0), firstRecord})
          .getResult();
  LLVM::ReturnOp::create(rewriter, loc, status);
  return list;
}

namespace {

/// The bytes of a record after its links: the rest of nxrt_site_record_t
/// (kind and offsets, as little-endian words), then the site's constant
/// bytes, 8-byte aligned where the runtime reads words in place (dims,
/// attributes).
struct SiteBytes {
  std::string bytes;

  void setWord(int64_t offset, int64_t word) {
    llvm::support::endian::write<int64_t, llvm::endianness::little>(
        bytes.data() + offset, word);
  }

  int64_t append(StringRef data, bool aligned) {
    if (aligned)
      bytes.resize(llvm::alignTo(bytes.size(), alignof(int64_t)));
    auto offset = static_cast<int64_t>(bytes.size());
    bytes.append(data.data(), data.size());
    return offset;
  }

  int64_t appendWords(ArrayRef<int64_t> words) {
    int64_t offset = append(std::string(words.size() * sizeof(int64_t), '\0'),
                            /*aligned=*/true);
    for (auto [index, word] : llvm::enumerate(words))
      setWord(offset + index * sizeof(int64_t), word);
    return offset;
  }

  int64_t appendCString(StringRef string) {
    int64_t offset = append(string, /*aligned=*/false);
    bytes.push_back('\0');
    return offset;
  }
};

} // namespace

FailureOr<SiteRecord> nx::prependSiteRecord(RewriterBase &rewriter,
                                            ModuleOp module,
                                            const SiteDescription &site) {
  FailureOr<LLVM::GlobalOp> list = getOrCreateSiteList(rewriter, module);
  if (failed(list))
    return failure();
  // getOrCreateSiteList checked the list's shape.
  LLVM::ReturnOp listReturn = getListReturn(*list);
  Operation *next = listReturn->getOperand(0).getDefiningOp();
  FailureOr<int64_t> index = getNewSiteIndex(*list);
  if (failed(index))
    return failure();
  auto nextAddress = dyn_cast<LLVM::AddressOfOp>(next);
  std::string name = (symbols::kSiteRecordPrefix + Twine(*index)).str();

  // The record after its links: kind, then the offsets of the name, the
  // location and the attributes from the end of the record, and the
  // attributes' length; then the bytes.
  constexpr int64_t kHeaderWords = 5;
  constexpr int64_t kHeaderSize = kHeaderWords * sizeof(int64_t);
  SiteRecord result;
  SiteBytes bytes;
  bytes.bytes.assign(kHeaderSize, '\0');
  for (ArrayRef<int64_t> dims : site.viewDims)
    result.dimsOffsets.push_back(bytes.appendWords(dims));
  if (site.streamHandle)
    result.streamHandleOffset = bytes.append(
        StringRef(reinterpret_cast<const char *>(site.streamHandle->data()),
                  site.streamHandle->size()),
        /*aligned=*/true);
  int64_t nameOffset = bytes.appendCString(site.name);
  int64_t locationOffset = bytes.appendCString(site.location);
  int64_t attrsOffset = bytes.append(site.attrs, /*aligned=*/true);
  bytes.setWord(0, static_cast<int64_t>(site.kind));
  bytes.setWord(8, nameOffset - kHeaderSize);
  bytes.setWord(16, locationOffset - kHeaderSize);
  bytes.setWord(24, attrsOffset - kHeaderSize);
  bytes.setWord(32, static_cast<int64_t>(site.attrs.size()));

  OpBuilder::InsertionGuard guard(rewriter);
  MLIRContext *context = module.getContext();
  Location loc = module.getLoc();
  Type ptr = LLVM::LLVMPointerType::get(context);
  auto bytesType = LLVM::LLVMArrayType::get(IntegerType::get(context, 8),
                                            bytes.bytes.size());
  auto recordType =
      LLVM::LLVMStructType::getLiteral(context, {ptr, ptr, bytesType});
  // New globals go at the module's end, out of the way of the lookups.
  rewriter.setInsertionPointToEnd(module.getBody());
  result.global = LLVM::GlobalOp::create(
      rewriter, loc, recordType, /*isConstant=*/false, LLVM::Linkage::Internal,
      name, /*value=*/Attribute(), /*alignment=*/alignof(int64_t));
  rewriter.createBlock(&result.global.getInitializerRegion());
  // Zero but for the next record and the bytes: the site is written at
  // load.
  Value record = LLVM::ZeroOp::create(rewriter, loc, recordType);
  if (nextAddress)
    record = LLVM::InsertValueOp::create(
        rewriter, loc, record,
        LLVM::AddressOfOp::create(rewriter, loc, ptr,
                                  nextAddress.getGlobalName())
            .getResult(),
        ArrayRef<int64_t>{0});
  Value data = LLVM::ConstantOp::create(rewriter, loc, bytesType,
                                        StringAttr::get(context, bytes.bytes));
  record = LLVM::InsertValueOp::create(
      rewriter, loc, record, data, ArrayRef<int64_t>{kSiteRecordBytesField});
  LLVM::ReturnOp::create(rewriter, loc, record);

  // The list now starts with the new record.
  rewriter.setInsertionPoint(listReturn);
  Value address = LLVM::AddressOfOp::create(rewriter, loc, result.global);
  rewriter.modifyOpInPlace(listReturn,
                           [&] { listReturn->setOperand(0, address); });
  if (next->use_empty())
    rewriter.eraseOp(next);
  return result;
}
