//===- DebugCallbacks.h - built-in nx.debug.* host callbacks ----*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Built-in debug callbacks (registerDebugCallbacks), all usable from
// io_callback (no results) and, where noted, from elixir_call. Each is also
// bound under "<name>.<suffix>" aliases (e.g. @nx.debug.print.i64), since a
// callback symbol declares a single signature:
//   nx.debug.print         prints "<label>: <type> = <values>" for every
//                          argument to stdout; label = static_args/attrs
//                          "label" (string), else the op location. As an
//                          elixir_call, its results are copies of its args.
//   nx.debug.identity      elixir_call: results = copies of the arguments
//                          (same count, dtypes and shapes).
//   nx.debug.sleep         sleeps attrs "ms" (i64) milliseconds, then behaves
//                          as nx.debug.identity (for deadline tests).
//   nx.debug.fail          fails with attrs "message" (string, default
//                          "nx.debug.fail called").
//   nx.debug.assert_close  compares args 0 and 1 (same dtype and shape),
//                          elementwise |a - b| <= atol + rtol * |b| (attrs
//                          "atol", "rtol", f64, default 0); fails naming the
//                          first differing index and both values.
//
//===----------------------------------------------------------------------===//

#ifndef NXHOST_DEBUGCALLBACKS_H
#define NXHOST_DEBUGCALLBACKS_H

#include "nxrt/nxrt.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace nxhost {

/// Registers the built-in nx.debug.* callbacks (see the top of this file) on
/// `runtime` in inline mode. As a callback symbol has one signature, every
/// name in `names` of the form "<built-in>.<suffix>" (e.g.
/// "nx.debug.print.i64", typically the program's callback names) is bound to
/// that built-in too.
llvm::Error registerDebugCallbacks(nxrt_runtime_t *runtime,
                                   llvm::ArrayRef<std::string> names = {});

} // namespace nxhost

#endif // NXHOST_DEBUGCALLBACKS_H
