//===- NxAttrs.cpp - nx dialect attributes --------------------------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Dialect/Nx/IR/NxAttrs.h"

#include "nx/Dialect/Nx/IR/NxDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::nx;

#define GET_ATTRDEF_CLASSES
#include "nx/Dialect/Nx/IR/NxAttrs.cpp.inc"

void NxDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "nx/Dialect/Nx/IR/NxAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// OutputOperandAliasAttr
//===----------------------------------------------------------------------===//

// The syntax is StableHLO's: `<output_tuple_indices = [..], operand_index = N,
// operand_tuple_indices = [..]>`. Fields may come in any order; the tuple
// index lists may be omitted (empty), operand_index may not.

static ParseResult parseIndexList(AsmParser &parser,
                                  SmallVectorImpl<int64_t> &indices) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    return parser.parseInteger(indices.emplace_back());
  });
}

Attribute OutputOperandAliasAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> outputTupleIndices, operandTupleIndices;
  std::optional<int64_t> operandIndex;
  llvm::StringSet<> seen;
  auto parseField = [&]() -> ParseResult {
    StringRef key;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(loc) << "duplicate field '" << key << "'";
    if (key == "output_tuple_indices")
      return parseIndexList(parser, outputTupleIndices);
    if (key == "operand_tuple_indices")
      return parseIndexList(parser, operandTupleIndices);
    if (key == "operand_index")
      return parser.parseInteger(operandIndex.emplace());
    return parser.emitError(loc)
           << "unknown field '" << key
           << "'; expected output_tuple_indices, operand_index or "
              "operand_tuple_indices";
  };
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseField))
    return {};
  if (!operandIndex) {
    parser.emitError(loc) << "expected 'operand_index'";
    return {};
  }
  return get(parser.getContext(), outputTupleIndices, *operandIndex,
             operandTupleIndices);
}

void OutputOperandAliasAttr::print(AsmPrinter &printer) const {
  printer << "<output_tuple_indices = [";
  llvm::interleaveComma(getOutputTupleIndices(), printer);
  printer << "], operand_index = " << getOperandIndex()
          << ", operand_tuple_indices = [";
  llvm::interleaveComma(getOperandTupleIndices(), printer);
  printer << "]>";
}
