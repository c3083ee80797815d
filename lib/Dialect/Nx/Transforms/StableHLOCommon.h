//===- StableHLOCommon.h - names shared by StableHLO export/import -*- C++ -*-//

#ifndef NX_LIB_DIALECT_NX_TRANSFORMS_STABLEHLOCOMMON_H
#define NX_LIB_DIALECT_NX_TRANSFORMS_STABLEHLOCOMMON_H

#include "llvm/ADT/StringRef.h"

namespace mlir::nx {

inline constexpr llvm::StringLiteral kStableHLODialect = "stablehlo";
inline constexpr llvm::StringLiteral kStableHLOCustomCall =
    "stablehlo.custom_call";
inline constexpr llvm::StringLiteral kStableHLOAliasMnemonic =
    "output_operand_alias";

} // namespace mlir::nx

#endif // NX_LIB_DIALECT_NX_TRANSFORMS_STABLEHLOCOMMON_H
