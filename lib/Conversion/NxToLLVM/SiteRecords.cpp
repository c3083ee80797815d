//===- SiteRecords.cpp - the call sites __nx_init registers ---------------===//

#include "SiteRecords.h"

#include "RuntimeFunctions.h"

#include "nx/Conversion/NxToLLVM/RuntimeSymbols.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::nx;
namespace symbols = mlir::nx::runtime_symbols;

LLVM::LLVMStructType nx::getSiteRecordType(MLIRContext *context) {
  Type ptr = LLVM::LLVMPointerType::get(context);
  Type i64 = IntegerType::get(context, 64);
  return LLVM::LLVMStructType::getLiteral(context,
                                          {ptr, ptr, i64, ptr, ptr, ptr, i64});
}

FailureOr<LLVM::GlobalOp> nx::getOrCreateSiteList(RewriterBase &rewriter,
                                                  ModuleOp module) {
  // Created at the module's start, so that finding it (a scan of the
  // module's ops) stays cheap for every site.
  Operation *existing =
      SymbolTable::lookupSymbolIn(module, symbols::kSiteList);
  if (auto list = dyn_cast_if_present<LLVM::GlobalOp>(existing))
    return list;
  if (existing)
    return existing->emitOpError()
           << "uses the name '" << symbols::kSiteList
           << "', which compiled code defines";
  FailureOr<LLVM::LLVMFuncOp> addSites = lookupOrCreateRuntimeFunction(
      rewriter, module, symbols::kProgramAddSites);
  if (failed(addSites))
    return failure();

  OpBuilder::InsertionGuard guard(rewriter);
  MLIRContext *context = module.getContext();
  Location loc = module.getLoc();
  Type ptr = LLVM::LLVMPointerType::get(context);
  rewriter.setInsertionPointToStart(module.getBody());
  auto list = LLVM::GlobalOp::create(
      rewriter, loc, ptr, /*isConstant=*/true, LLVM::Linkage::Internal,
      symbols::kSiteList, /*value=*/Attribute(),
      /*alignment=*/alignof(void *));
  rewriter.createBlock(&list.getInitializerRegion());
  LLVM::ReturnOp::create(rewriter, loc,
                         LLVM::ZeroOp::create(rewriter, loc, ptr).getResult());

  rewriter.setInsertionPointToEnd(module.getBody());
  auto init = LLVM::LLVMFuncOp::create(
      rewriter, loc, symbols::kInitFunction,
      LLVM::LLVMFunctionType::get(ptr, {ptr}));
  Block *entry = rewriter.createBlock(&init.getBody(), {}, {ptr}, {loc});
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

/// The constant bytes of a site, 8-byte aligned where the runtime reads
/// words in place (dims, attributes).
struct SiteBytes {
  std::string bytes;

  int64_t append(StringRef data, bool aligned) {
    if (aligned)
      bytes.resize(llvm::alignTo(bytes.size(), alignof(int64_t)));
    auto offset = static_cast<int64_t>(bytes.size());
    bytes.append(data.data(), data.size());
    return offset;
  }

  int64_t appendWords(ArrayRef<int64_t> words) {
    std::string data(words.size() * sizeof(int64_t), '\0');
    for (auto [index, word] : llvm::enumerate(words))
      llvm::support::endian::write<int64_t, llvm::endianness::little>(
          data.data() + index * sizeof(int64_t), word);
    return append(data, /*aligned=*/true);
  }

  int64_t appendCString(StringRef string) {
    int64_t offset = append(string, /*aligned=*/false);
    bytes.push_back('\0');
    return offset;
  }
};

} // namespace

/// A unique index for a new record: one more than that of the record
/// `@__nx_sites` points to (the newest, `@__nx_site_<k>`), or 0; fails on
/// anything else.
static FailureOr<int64_t> getNewSiteIndex(LLVM::GlobalOp list,
                                          Operation *firstRecord) {
  if (isa<LLVM::ZeroOp>(firstRecord))
    return 0;
  auto address = dyn_cast<LLVM::AddressOfOp>(firstRecord);
  StringRef name = address ? address.getGlobalName() : StringRef();
  int64_t index = 0;
  if (!name.consume_front(symbols::kSiteRecordPrefix) ||
      name.getAsInteger(10, index))
    return list.emitOpError()
           << "must point to a call-site record '"
           << symbols::kSiteRecordPrefix << "<k>'; was it written by hand?";
  return index + 1;
}

FailureOr<SiteRecord> nx::prependSiteRecord(RewriterBase &rewriter,
                                           ModuleOp module,
                                           const SiteDescription &site) {
  FailureOr<LLVM::GlobalOp> list = getOrCreateSiteList(rewriter, module);
  if (failed(list))
    return failure();
  auto listReturn =
      cast<LLVM::ReturnOp>(list->getInitializerBlock()->getTerminator());
  Operation *next = listReturn->getOperand(0).getDefiningOp();
  FailureOr<int64_t> index = getNewSiteIndex(*list, next);
  if (failed(index))
    return failure();
  auto nextAddress = dyn_cast<LLVM::AddressOfOp>(next);
  std::string name = (symbols::kSiteRecordPrefix + Twine(*index)).str();

  SiteRecord result;
  SiteBytes bytes;
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

  OpBuilder::InsertionGuard guard(rewriter);
  MLIRContext *context = module.getContext();
  Location loc = module.getLoc();
  Type ptr = LLVM::LLVMPointerType::get(context);
  Type i8 = IntegerType::get(context, 8);
  Type i64 = IntegerType::get(context, 64);
  // New globals go at the module's end, out of the way of the lookups.
  rewriter.setInsertionPointToEnd(module.getBody());
  result.data = LLVM::GlobalOp::create(
      rewriter, loc, LLVM::LLVMArrayType::get(i8, bytes.bytes.size()),
      /*isConstant=*/true, LLVM::Linkage::Internal,
      name + symbols::kSiteDataSuffix.str(),
      StringAttr::get(context, bytes.bytes), /*alignment=*/alignof(int64_t));

  LLVM::LLVMStructType recordType = getSiteRecordType(context);
  result.record = LLVM::GlobalOp::create(
      rewriter, loc, recordType, /*isConstant=*/false, LLVM::Linkage::Internal,
      name, /*value=*/Attribute(), /*alignment=*/alignof(int64_t));
  rewriter.createBlock(&result.record.getInitializerRegion());
  Value data = LLVM::AddressOfOp::create(rewriter, loc, result.data);
  auto at = [&](int64_t offset) -> Value {
    return LLVM::GEPOp::create(rewriter, loc, ptr, i8, data,
                               ArrayRef<LLVM::GEPArg>{
                                   static_cast<int32_t>(offset)});
  };
  auto word = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(rewriter, loc, i64,
                                    rewriter.getI64IntegerAttr(value));
  };
  Value nextRecord =
      nextAddress
          ? Value(LLVM::AddressOfOp::create(rewriter, loc, ptr,
                                            nextAddress.getGlobalName()))
          : Value(LLVM::ZeroOp::create(rewriter, loc, ptr));
  Value fields[] = {nextRecord,
                    LLVM::ZeroOp::create(rewriter, loc, ptr),
                    word(static_cast<int64_t>(site.kind)),
                    at(nameOffset),
                    at(locationOffset),
                    at(attrsOffset),
                    word(static_cast<int64_t>(site.attrs.size()))};
  Value record = LLVM::PoisonOp::create(rewriter, loc, recordType);
  for (auto [index, field] : llvm::enumerate(fields))
    record = LLVM::InsertValueOp::create(rewriter, loc, record, field,
                                         static_cast<int64_t>(index));
  LLVM::ReturnOp::create(rewriter, loc, record);

  // The list now starts with the new record.
  rewriter.setInsertionPoint(listReturn);
  Value address = LLVM::AddressOfOp::create(rewriter, loc, result.record);
  rewriter.modifyOpInPlace(listReturn,
                           [&] { listReturn->setOperand(0, address); });
  rewriter.eraseOp(next);
  return result;
}
