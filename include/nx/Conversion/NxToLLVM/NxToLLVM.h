//===- NxToLLVM.h - nx.invoke to libnxrt calls ------------------*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The patterns behind convert-nx-to-llvm, for pipelines that build their
// own conversion to LLVM, and the ConvertToLLVMPatternInterface that makes
// upstream's --convert-to-llvm lower nx.invoke. The pass description in
// include/nx/Conversion/Passes.td shows the IR before and after.
//
//===----------------------------------------------------------------------===//

#ifndef NX_CONVERSION_NXTOLLVM_NXTOLLVM_H
#define NX_CONVERSION_NXTOLLVM_NXTOLLVM_H

namespace mlir {
class DialectRegistry;
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace mlir::nx {

/// Patterns lowering each nx.invoke (in a function body, on buffers) to one
/// nxrt_invoke call that stops the function when the call fails, and
/// erasing nx.callback declarations. Each invoke gets a call-site record
/// that __nx_init, defined with the first record, hands to the runtime.
/// Each invoke splits its block after it: applied from a block's last
/// invoke to its first, every op moves once (convert-nx-to-llvm does so).
/// What the patterns leave to convert-nx-to-llvm: callers of functions that
/// may stop are not made to stop too, nx host ops that take and return no
/// tensor are not turned into invokes, and a module without invokes gets no
/// __nx_init.
void populateNxToLLVMConversionPatterns(const LLVMTypeConverter &converter,
                                        RewritePatternSet &patterns);

/// Attaches ConvertToLLVMPatternInterface to the nx dialect.
void registerConvertNxToLLVMInterface(DialectRegistry &registry);

} // namespace mlir::nx

#endif // NX_CONVERSION_NXTOLLVM_NXTOLLVM_H
