//===- PassOptions.cpp - finding an option in a pass's options ------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "nx/Support/PassOptions.h"

using namespace mlir;

/// Splits off the first `key[=value]` of `options`: a value may be quoted
/// ('...' or "...") or a braced list ({...}, nested), and holds spaces
/// then.
static std::pair<StringRef, StringRef> splitFirstOption(StringRef options) {
  options = options.ltrim();
  size_t i = 0;
  int braces = 0;
  char quote = 0;
  for (; i < options.size(); ++i) {
    char c = options[i];
    if (quote) {
      if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '{') {
      ++braces;
    } else if (c == '}') {
      --braces;
    } else if (c == ' ' && braces <= 0) {
      break;
    }
  }
  return {options.take_front(i), options.drop_front(i)};
}

SmallVector<StringRef> nx::findPassOptionValues(StringRef options,
                                                StringRef key) {
  SmallVector<StringRef> values;
  while (!options.trim().empty()) {
    auto [option, rest] = splitFirstOption(options);
    options = rest;
    auto [name, value] = option.split('=');
    if (name.trim() != key)
      continue;
    value = value.trim();
    if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') &&
        value.back() == value.front())
      value = value.drop_front().drop_back();
    values.push_back(value);
  }
  return values;
}
