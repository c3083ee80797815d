//===- NxOps.h - nx dialect operations --------------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_IR_NXOPS_H
#define NX_DIALECT_NX_IR_NXOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "nx/Dialect/Nx/IR/NxAttrs.h"
#include "nx/Dialect/Nx/IR/NxDialect.h"
#include "nx/Dialect/Nx/IR/NxEnums.h.inc"
#include "nx/Dialect/Nx/IR/NxTypes.h"

namespace mlir::nx {

/// The custom-call api_version of XLA's typed FFI: the highest nx.custom_call
/// accepts, the one whose backend_config is a dictionary, and the one every
/// custom call convert-nx-to-custom-call makes uses. The api_version
/// constraint in NxOps.td reads it; its summary spells the bound out.
inline constexpr int32_t kTypedFfiApiVersion = 4;

/// Host state touched by callbacks; effects on it keep callbacks alive and
/// ordered.
struct HostResource : public SideEffects::Resource::Base<HostResource> {
  StringRef getName() final { return "nx.host"; }
};

/// Host stream queues consumed by infeed and produced by outfeed.
struct StreamResource : public SideEffects::Resource::Base<StreamResource> {
  StringRef getName() final { return "nx.stream"; }
};

} // namespace mlir::nx

#define GET_OP_CLASSES
#include "nx/Dialect/Nx/IR/NxOps.h.inc"

#endif // NX_DIALECT_NX_IR_NXOPS_H
