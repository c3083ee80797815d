//===- PassStatistics.cpp - pass statistics on any LLVM build
//--------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Support/PassStatistics.h"

#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>

using namespace mlir;
using mlir::nx::PassStatisticDescription;

#if !LLVM_ENABLE_STATS
namespace {
/// What addStatistic() records into. A statistic is live (has an entry in
/// `values`) only while its pass runs under an instrumented PassManager, so
/// passes nobody reports on record nothing, and a later pass allocated at a
/// dead one's address starts from zero.
struct StatisticTable {
  std::mutex mutex;
  llvm::DenseMap<const Pass::Statistic *, uint64_t> values;
  /// Pass argument -> its statistics, in declaration order.
  llvm::StringMap<llvm::SmallVector<PassStatisticDescription, 4>> descriptions;
};
} // namespace

static StatisticTable &getTable() {
  static StatisticTable table;
  return table;
}
#endif

void nx::addStatistic(Pass::Statistic &stat, uint64_t n) {
#if LLVM_ENABLE_STATS
  stat += n;
#else
  StatisticTable &table = getTable();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto it = table.values.find(&stat);
  if (it != table.values.end())
    it->second += n;
#endif
}

void nx::registerPassStatisticDescriptions(
    llvm::ArrayRef<PassStatisticDescription> descriptions) {
#if !LLVM_ENABLE_STATS
  StatisticTable &table = getTable();
  std::lock_guard<std::mutex> lock(table.mutex);
  llvm::StringSet<> seen;
  for (const PassStatisticDescription &description : descriptions) {
    auto &entries = table.descriptions[description.passArgument];
    if (seen.insert(description.passArgument).second)
      entries.clear();
    entries.push_back(description);
  }
#endif
}

#if !LLVM_ENABLE_STATS
namespace {
/// Moves the recorded statistics of every pass instance into per-pass
/// totals after each run, and prints the totals when the PassManager that
/// owns it is destroyed.
class StatisticsRecorder : public PassInstrumentation {
public:
  ~StatisticsRecorder() override { print(); }

  void runBeforePass(Pass *pass, Operation *) override {
    if (pass->getStatistics().empty())
      return;
    StatisticTable &table = getTable();
    std::lock_guard<std::mutex> lock(table.mutex);
    for (Pass::Statistic *stat : pass->getStatistics())
      table.values[stat] = 0;
  }
  void runAfterPass(Pass *pass, Operation *) override { collect(pass); }
  void runAfterPassFailed(Pass *pass, Operation *) override { collect(pass); }

private:
  struct Total {
    llvm::StringRef name, description;
    uint64_t value;
  };

  void collect(Pass *pass) {
    auto stats = pass->getStatistics();
    if (stats.empty())
      return;
    llvm::SmallVector<uint64_t> values;
    llvm::SmallVector<PassStatisticDescription, 4> descriptions;
    {
      StatisticTable &table = getTable();
      std::lock_guard<std::mutex> lock(table.mutex);
      for (Pass::Statistic *stat : stats) {
        auto it = table.values.find(stat);
        values.push_back(it == table.values.end() ? 0 : it->second);
        if (it != table.values.end())
          table.values.erase(it);
      }
      auto it = table.descriptions.find(pass->getArgument());
      if (it != table.descriptions.end())
        descriptions = it->second;
    }
    // A pass whose statistics nobody described (an upstream pass, which
    // cannot count here anyway) is left out, as is one whose description
    // disagrees with its statistics.
    if (descriptions.size() != values.size())
      return;
    std::lock_guard<std::mutex> lock(mutex);
    auto &entry = totals[pass->getName()];
    if (entry.empty())
      for (const PassStatisticDescription &description : descriptions)
        entry.push_back({description.name, description.description, 0});
    for (auto [total, value] : llvm::zip_equal(entry, values))
      total.value += value;
  }

  /// Upstream's list display (mlir/lib/Pass/PassStatistics.cpp).
  void print() {
    std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<llvm::raw_ostream> os = llvm::CreateInfoOutputFile();
    constexpr llvm::StringLiteral title = "... Pass statistics report ...";
    *os << "===" << std::string(73, '-') << "===\n";
    os->indent((80 - title.size()) / 2) << title << '\n';
    *os << "===" << std::string(73, '-') << "===\n";
    llvm::SmallVector<llvm::StringRef> passes;
    for (auto &entry : totals)
      passes.push_back(entry.getKey());
    llvm::sort(passes);
    for (llvm::StringRef pass : passes) {
      auto stats = totals[pass];
      llvm::sort(stats, [](const Total &lhs, const Total &rhs) {
        return lhs.name < rhs.name;
      });
      size_t nameWidth = 0, valueWidth = 0;
      for (const Total &stat : stats) {
        nameWidth = std::max(nameWidth, stat.name.size());
        valueWidth = std::max(valueWidth, llvm::utostr(stat.value).size());
      }
      os->indent(2) << pass << '\n';
      for (const Total &stat : stats)
        os->indent(4) << llvm::format("(S) %*llu %-*s - %s\n", (int)valueWidth,
                                      (unsigned long long)stat.value,
                                      (int)nameWidth, stat.name.str().c_str(),
                                      stat.description.str().c_str());
    }
    *os << '\n';
    os->flush();
  }

  std::mutex mutex;
  llvm::StringMap<llvm::SmallVector<Total, 4>> totals;
};
} // namespace
#endif

void nx::enablePassStatistics(PassManager &pm) {
#if LLVM_ENABLE_STATS
  pm.enableStatistics(PassDisplayMode::List);
#else
  pm.addInstrumentation(std::make_unique<StatisticsRecorder>());
#endif
}

bool nx::takeOverPassStatisticsOption() {
#if LLVM_ENABLE_STATS
  return false;
#else
  auto options = llvm::cl::getRegisteredOptions();
  auto it = options.find("mlir-pass-statistics");
  if (it == options.end())
    return false;
  // Registered by mlir::registerPassManagerCLOptions() as a cl::opt<bool>.
  auto *option = static_cast<llvm::cl::opt<bool> *>(it->second);
  if (!option->getValue())
    return false;
  *option = false;
  return true;
#endif
}
