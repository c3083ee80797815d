//===- BufferizableOpInterfaceImpl.h - bufferization of nx ops --*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef NX_DIALECT_NX_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define NX_DIALECT_NX_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace nx {

/// Attaches BufferizableOpInterface to nx.elixir_call, nx.io_callback,
/// nx.outfeed, nx.infeed and nx.custom_call: each becomes one nx.invoke on
/// buffers. io_callback results are their operands' buffers (no copy),
/// custom_call results named by output_operand_aliases are written in place,
/// every other result gets a fresh buffer the host writes into directly.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace nx
} // namespace mlir

#endif // NX_DIALECT_NX_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
