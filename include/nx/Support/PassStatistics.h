//===- PassStatistics.h - pass statistics on any LLVM build -----*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `mlir::Pass::Statistic` derives from `llvm::Statistic`, which is
// `llvm::NoopStatistic` in LLVM builds without statistics (NDEBUG without
// LLVM_FORCE_ENABLE_STATS, e.g. Debian's): there it stores no value, name or
// description, and `--mlir-pass-statistics` prints an empty report.
// Compiling our code with statistics on instead would break the one
// definition rule against libMLIR, so passes count through addStatistic(),
// which records into a side table, and enablePassStatistics() prints the
// counts in upstream's format (list display) from that table.
//
// With LLVM_ENABLE_STATS, both just defer to upstream's statistics.
//
// Nothing here is specific to nx; the descriptions of a project's statistics
// come from its Passes.td (cmake/gen-pass-statistics.py).
//
//===----------------------------------------------------------------------===//

#ifndef NX_SUPPORT_PASSSTATISTICS_H
#define NX_SUPPORT_PASSSTATISTICS_H

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
class PassManager;
namespace nx {

/// Adds `n` to `stat`, a statistic of a pass that is running. Without
/// LLVM_ENABLE_STATS the count is only kept while the pass runs under a
/// PassManager that enablePassStatistics() instrumented; otherwise it is
/// dropped, as upstream's would be. Thread-safe.
void addStatistic(Pass::Statistic &stat, uint64_t n = 1);

/// One statistic of a pass, as its TableGen `Statistic` declares it.
struct PassStatisticDescription {
  llvm::StringRef passArgument;
  llvm::StringRef name;
  llvm::StringRef description;
};

/// Makes the names and descriptions of the statistics of passes known to the
/// report: entries of one pass come in the order of its `statistics` list
/// (that of Pass::getStatistics()). The strings must outlive the process's
/// use of the report (string literals). A pass registered again replaces its
/// earlier entries. Thread-safe.
void registerPassStatisticDescriptions(
    llvm::ArrayRef<PassStatisticDescription> descriptions);

/// Makes `pm` report the statistics of its passes when it is destroyed, to
/// LLVM's info output (stderr, or -info-output-file), in the format of
/// upstream's `--mlir-pass-statistics-display=list`: passes sorted by name,
/// each with its statistics' totals over every run of every instance. Only
/// passes with registered descriptions are listed.
void enablePassStatistics(PassManager &pm);

/// For mlir-opt-like tools: when upstream's `--mlir-pass-statistics` option
/// is registered and set, and this LLVM keeps no statistics, turns it off
/// (so upstream does not print its empty report) and returns true: the tool
/// then calls enablePassStatistics() on its PassManager instead. Call after
/// parsing the command line.
bool takeOverPassStatisticsOption();

} // namespace nx
} // namespace mlir

#endif // NX_SUPPORT_PASSSTATISTICS_H
