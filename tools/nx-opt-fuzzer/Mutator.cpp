//===- Mutator.cpp - Structure-aware mutations of nx-opt-fuzzer inputs ---===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The text is not parsed as MLIR: a small scanner finds what the mutations
// need (integer literals, symbols, types, lines, brace depth), which is
// robust to the half-broken text earlier mutations leave behind.
//
//===----------------------------------------------------------------------===//

#include "Mutator.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <set>

namespace nx_fuzz {
namespace {

using Rng = std::mt19937;
// Wide enough for 2^64 and for INT64_MIN - 1.
__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

size_t pick(Rng &rng, size_t count) {
  return std::uniform_int_distribution<size_t>(0, count - 1)(rng);
}

bool chance(Rng &rng, unsigned numerator, unsigned denominator) {
  return pick(rng, denominator) < numerator;
}

template <typename T, size_t N>
const T &pickFrom(Rng &rng, const T (&items)[N]) {
  return items[pick(rng, N)];
}

template <typename T> const T &pickFrom(Rng &rng, const std::vector<T> &items) {
  return items[pick(rng, items.size())];
}

bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }
bool isAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)); }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
/// Characters of MLIR's bare identifiers after the first.
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.';
}

std::string_view trimmed(std::string_view line) {
  while (!line.empty() && isSpace(line.front()))
    line.remove_prefix(1);
  while (!line.empty() && isSpace(line.back()))
    line.remove_suffix(1);
  return line;
}

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string toString(Int128 value) {
  if (value == 0)
    return "0";
  bool negative = value < 0;
  UInt128 magnitude = negative ? static_cast<UInt128>(-(value + 1)) + 1
                               : static_cast<UInt128>(value);
  std::string digits;
  while (magnitude != 0) {
    digits.push_back(static_cast<char>('0' + magnitude % 10));
    magnitude /= 10;
  }
  if (negative)
    digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

/// Parses a decimal integer of at most 36 digits.
std::optional<Int128> parseInteger(std::string_view text) {
  bool negative = !text.empty() && text.front() == '-';
  if (negative)
    text.remove_prefix(1);
  if (text.empty() || text.size() > 36)
    return std::nullopt;
  Int128 value = 0;
  for (char c : text) {
    if (!isDigit(c))
      return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return negative ? -value : value;
}

// Values at the edges of the integer types nx and MLIR use: the DenseMap
// sentinels (INT64_MAX, INT64_MAX - 1), the values that overflow int64_t and
// uint64_t, sizes that overflow when multiplied, negative sizes.
const char *const kBoundaryIntegers[] = {
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "8",
    "16",
    "31",
    "32",
    "63",
    "64",
    "127",
    "128",
    "255",
    "256",
    "1024",
    "65535",
    "65536",
    "2147483647",
    "-2147483648",
    "2147483648",
    "4294967295",
    "4294967296",
    "4611686018427387904",
    "9223372036854775807",
    "9223372036854775806",
    "-9223372036854775808",
    "-9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
};

// The edges that break the most (DenseMap's empty and tombstone keys,
// overflow), picked half of the time.
const char *const kHotIntegers[] = {"9223372036854775807",
                                    "-9223372036854775808",
                                    "-1",
                                    "0",
                                    "9223372036854775806",
                                    "9223372036854775808",
                                    "18446744073709551615"};

const char *pickBoundary(Rng &rng) {
  return chance(rng, 1, 2) ? pickFrom(rng, kHotIntegers)
                           : pickFrom(rng, kBoundaryIntegers);
}

// Shape dimensions: mostly small ones (empty, odd, not a multiple of a
// vector width) and dynamic ones; huge ones rarely, as most of what they
// reach is upstream's overflow handling.
const char *const kSmallDimensions[] = {"0",  "1",  "2",  "3",   "4",    "5",
                                        "7",  "8",  "15", "16",  "17",   "31",
                                        "32", "33", "64", "128", "1024", "?"};
const char *const kHugeDimensions[] = {
    "2147483648", "4294967296", "4611686018427387904", "9223372036854775807"};

// Pass options: a value a pass may reject, and the edges of int64_t.
const char *const kOptionIntegers[] = {"0",
                                       "1",
                                       "2",
                                       "3",
                                       "4",
                                       "5",
                                       "8",
                                       "16",
                                       "17",
                                       "64",
                                       "128",
                                       "256",
                                       "512",
                                       "-1",
                                       "9223372036854775807",
                                       "-9223372036854775808"};

// Symbols the compiler generates or calls: a user symbol of the same name
// must be renamed, reported or left alone, never clobbered (see
// RuntimeSymbols.h, SplitFunctions.cpp, SegmentCallbacks.cpp,
// HooksToIoCallback.cpp, LinalgToOpenMP.cpp).
const char *const kReservedSymbols[] = {
    "__nx_init",
    "__nx_sites",
    "__nx_site_0",
    "__nx_site_1",
    "nxrt_run_current",
    "nxrt_invoke",
    "nxrt_run_failed",
    "nxrt_invoke_failed",
    "nxrt_program_add_sites",
    "nxrt_gemm_f32",
    "nxrt_gemm_f64",
    "nxrt_gemm_part_f32",
    "nxrt_gemm_part_f64",
    "nxrt_gemm_part_epilogue_f32",
    "nxrt_gemm_bf16_f32",
    "nxrt_gemm_part_bf16_f32",
    "nxrt_gemm_i8_i32",
    "nxrt_gemm_part_i8_i32",
    "nxrt_conv2d_f32",
    "nxrt_compute_threads",
    "_mlir_memref_to_llvm_alloc",
    "_mlir_memref_to_llvm_aligned_alloc",
    "_mlir_memref_to_llvm_free",
    "malloc",
    "free",
    "hook_0",
    "hook_1",
    "main",
};

// Suffixes of generated functions: <fn>_part<k> (nx-split-functions),
// <fn>_stage<k> (nx-segment-callbacks).
const char *const kGeneratedSuffixes[] = {"_part0", "_part1", "_stage0",
                                          "_stage1"};

// Names that print only quoted, or not at all.
const char *const kOddSymbols[] = {
    "", "a b", "x::y", "0", "-", "@", "a\"b", "__nx_site_9223372036854775807"};

const char *const kTerminators[] = {"return",
                                    "func.return",
                                    "nx.yield",
                                    "scf.yield",
                                    "scf.condition",
                                    "linalg.yield",
                                    "tensor.yield",
                                    "affine.yield",
                                    "llvm.return",
                                    "llvm.br",
                                    "llvm.cond_br",
                                    "cf.br",
                                    "cf.cond_br",
                                    "omp.yield",
                                    "omp.terminator",
                                    "stablehlo.return",
                                    "\"func.return\"",
                                    "\"nx.yield\"",
                                    "\"stablehlo.return\"",
                                    "\"fuzz.end\""};

const char *const kScalarTypes[] = {"f16", "bf16", "f32", "f64", "i1",
                                    "i8",  "i16",  "i32", "i64", "index"};

// Element types a shaped type may get instead of its own.
const char *const kElementTypes[] = {"f16", "bf16",  "f32",         "f64",
                                     "i1",  "i8",    "i32",         "i64",
                                     "ui8", "index", "complex<f32>"};

// Top-level ops for the snippet mutation; {F} is a function of the input,
// {C} a callback, {N} a boundary integer.
const char *const kSnippets[] = {
    "nx.callback @\"\" : () -> ()",
    "nx.callback @{C} : () -> ()",
    "nx.callback @{F} : (tensor<4xf32>) -> tensor<4xf32>",
    "nx.callback @cb_{F} : (tensor<4xf32>) -> () attributes {id = {N} : i64}",
    "nx.callback private @__nx_init : () -> ()",
    "func.func private @__nx_init() -> i32",
    "func.func @__nx_site_0() {\n  return\n}",
    "func.func private @__nx_sites(f32) -> f32",
    "func.func @{F}_part0(%arg0: f32) -> f32 {\n  return %arg0 : f32\n}",
    "func.func private @{F}_stage0(tensor<4xf32>) -> tensor<4xf32>",
    "func.func @_mlir_ciface_{F}() {\n  return\n}",
    "func.func private @nxrt_compute_threads() -> i64",
    "func.func private @hook_0(tensor<4xf32>)",
    "llvm.mlir.global internal constant @__nx_sites(0 : i64) : i64",
    "llvm.mlir.global internal @__nx_site_0(0 : i64) : i64",
    "llvm.func @nxrt_invoke(i64) -> i64",
    "llvm.func @nxrt_run_current() -> !llvm.ptr",
    "llvm.func @_mlir_memref_to_llvm_alloc(i32) -> i32",
    "llvm.func @__nx_init(%arg0: !llvm.ptr) -> !llvm.ptr {\n"
    "  %0 = llvm.mlir.zero : !llvm.ptr\n"
    "  llvm.return %0 : !llvm.ptr\n}",
    "llvm.func @{F}_lowered(%arg0: i64) -> i64 {\n"
    "  %0 = llvm.add %arg0, %arg0 : i64\n"
    "  llvm.return %0 : i64\n}",
    "\"fuzz.op\"() : () -> ()",
    "\"fuzz.op\"() ({\n  \"fuzz.end\"() : () -> ()\n}) : () -> ()",
    "func.func @{F}_unregistered(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = \"fuzz.op\"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  \"fuzz.end\"(%0) : (tensor<4xf32>) -> ()\n}",
    "func.func @{F}_unterminated(%arg0: f32, %arg1: f32) -> f32 {\n"
    "  %0 = arith.addf %arg0, %arg1 : f32\n"
    "  %1 = arith.mulf %0, %0 : f32\n"
    "  %2 = arith.subf %1, %arg0 : f32\n"
    "  \"fuzz.end\"(%2) : (f32) -> ()\n}",
    "nx.callback @{F}_cb : (tensor<4xf32>) -> tensor<4xf32>\n"
    "func.func @{F}_calls(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = nx.elixir_call @{F}_cb(%arg0) : (tensor<4xf32>) -> "
    "tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n}",
    "func.func @{F}_invokes(%arg0: memref<4xf32>, %arg1: memref<4xf32>) {\n"
    "  nx.invoke elixir_call @{C}(%arg0) outs(%arg1) {has_side_effect} : "
    "(memref<4xf32>) -> (memref<4xf32>)\n"
    "  return\n}",
    "func.func @{F}_math(%arg0: tensor<16x16xf32>) -> tensor<16x16xf32> {\n"
    "  %0 = math.exp %arg0 : tensor<16x16xf32>\n"
    "  return %0 : tensor<16x16xf32>\n}",
    "func.func @{F}_vmath(%arg0: vector<8xf32>) -> vector<8xf32> {\n"
    "  %0 = math.tanh %arg0 : vector<8xf32>\n"
    "  %1 = math.erf %0 : vector<8xf32>\n"
    "  return %1 : vector<8xf32>\n}",
};

const char *const kFunctionAttributes[] = {
    "nx.piece",
    "nx.host_orchestrator",
    "nx.device = \"cuda\"",
    "nx.device = \"host\"",
    "nx.device = {N} : i64",
    "llvm.emit_c_interface",
};

//===----------------------------------------------------------------------===//
// Scanning
//===----------------------------------------------------------------------===//

struct Span {
  size_t begin, end;
};

struct IntegerLiteral {
  Span span;
  bool dimension;
  /// The bit width of the integer type after ` : `, 0 if none.
  int width;
};

struct SymbolUse {
  Span span; // from '@'
  std::string name;
  /// On a line that defines a symbol (func.func, nx.callback, ...).
  bool definition;
};

struct TypeUse {
  Span span;
  /// tensor, memref or vector; empty for a scalar type.
  std::string shape;
  std::string dims;    // "4x8x" (with the last 'x'), "" for rank 0
  std::string element; // after the dims, up to the closing '>'
  /// A scalar inside a shaped or complex type's brackets.
  bool nested;
};

struct Scan {
  std::vector<IntegerLiteral> integers;
  std::vector<SymbolUse> symbols;
  std::vector<TypeUse> types;
};

size_t skipString(std::string_view text, size_t i) {
  // text[i] == '"'.
  size_t j = i + 1;
  while (j < text.size() && text[j] != '"') {
    if (text[j] == '\\')
      ++j;
    ++j;
  }
  return std::min(j + 1, text.size());
}

/// Whether the symbol at `at` is the one a top-level op of its line defines.
bool isDefinition(std::string_view text, size_t at) {
  size_t lineBegin = text.rfind('\n', at);
  lineBegin = lineBegin == std::string_view::npos ? 0 : lineBegin + 1;
  std::string_view before = trimmed(text.substr(lineBegin, at - lineBegin));
  if (before.find('@') != std::string_view::npos)
    return false;
  for (std::string_view op : {"func.func", "nx.callback", "llvm.func",
                              "llvm.mlir.global", "memref.global", "module"})
    if (startsWith(before, op))
      return true;
  return false;
}

int getWidthAfter(std::string_view text, size_t i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
    ++i;
  if (i >= text.size() || text[i] != ':')
    return 0;
  ++i;
  while (i < text.size() && text[i] == ' ')
    ++i;
  if (text.substr(i, 5) == "index")
    return 64;
  if (text.substr(i, 2) == "ui" || text.substr(i, 2) == "si")
    i += 2;
  else if (i < text.size() && text[i] == 'i')
    i += 1;
  else
    return 0;
  int width = 0;
  while (i < text.size() && isDigit(text[i]) && width < 1000)
    width = width * 10 + (text[i++] - '0');
  return width >= 1 && width <= 64 ? width : 0;
}

/// Finds the integers, symbols and types of a program's text, token by
/// token; each scan* method reads one token from `i` and returns the index
/// after it.
class Scanner {
public:
  explicit Scanner(std::string_view text) : text(text), n(text.size()) {}

  Scan run() {
    size_t i = 0;
    while (i < n) {
      char c = text[i];
      if (c == '"')
        i = skipString(text, i);
      else if (c == '/' && at(i + 1) == '/')
        i = scanComment(i);
      else if (c == '@')
        i = scanSymbol(i);
      else if (isAlpha(c) || c == '_' || c == '%' || c == '^' || c == '#' ||
               c == '!')
        i = scanWord(i);
      else if (isDigit(c))
        i = scanNumber(i);
      else
        ++i;
    }
    return std::move(result);
  }

private:
  char at(size_t i) const { return i < n ? text[i] : '\0'; }

  size_t scanComment(size_t i) {
    // Comments are skipped, but the override line's options count.
    if (i == 0 && startsWith(text, kPipelinePrefix))
      return kPipelinePrefix.size();
    size_t end = text.find('\n', i);
    return end == std::string_view::npos ? n : end;
  }

  size_t scanSymbol(size_t i) {
    size_t j;
    std::string name;
    if (at(i + 1) == '"') {
      j = skipString(text, i + 1);
      name = std::string(text.substr(i + 2, j - 1 - (i + 2)));
    } else {
      j = i + 1;
      while (j < n && isIdentChar(text[j]))
        ++j;
      if (j == i + 1)
        return i + 1;
      name = std::string(text.substr(i + 1, j - i - 1));
    }
    result.symbols.push_back({{i, j}, name, isDefinition(text, i)});
    return j;
  }

  size_t scanWord(size_t i) {
    size_t j = i + 1;
    while (j < n && isIdentChar(text[j]))
      ++j;
    std::string_view word = text.substr(i, j - i);
    bool nested = i > 0 && (text[i - 1] == 'x' || text[i - 1] == '<');
    if ((word == "tensor" || word == "memref" || word == "vector") &&
        at(j) == '<')
      return scanShapedType(i, j, word, nested);
    for (const char *scalar : kScalarTypes)
      if (word == scalar)
        result.types.push_back({{i, j}, "", "", "", nested});
    return j;
  }

  /// `word<` at [i, j + 1): the dimensions, then the element type, which
  /// scanning goes on with; the type's span ends at the matching '>'.
  size_t scanShapedType(size_t i, size_t j, std::string_view word,
                        bool nested) {
    std::vector<Span> dims;
    size_t k = scanDimensions(j + 1, dims);
    int depth = 1;
    size_t m = j + 1;
    while (m < n && depth > 0) {
      if (text[m] == '<')
        ++depth;
      else if (text[m] == '>' && text[m - 1] != '-')
        --depth;
      else if (text[m] == '\n')
        break;
      ++m;
    }
    if (depth == 0) {
      result.types.push_back({{i, m},
                              std::string(word),
                              std::string(text.substr(j + 1, k - j - 1)),
                              std::string(text.substr(k, m - 1 - k)),
                              nested});
      for (Span dim : dims)
        result.integers.push_back({dim, /*dimension=*/true, 0});
    }
    return k;
  }

  /// The `NxMx?x[4]x` prefix of a shaped type from `k`: appends the static
  /// sizes to `dims` and returns where the element type begins.
  size_t scanDimensions(size_t k, std::vector<Span> &dims) const {
    while (true) {
      if (isDigit(at(k))) {
        size_t m = k;
        while (isDigit(at(m)))
          ++m;
        if (at(m) != 'x')
          return k;
        dims.push_back({k, m});
        k = m + 1;
      } else if (at(k) == '?' && at(k + 1) == 'x') {
        k += 2;
      } else if (at(k) == '[' && isDigit(at(k + 1))) {
        size_t m = k + 1;
        while (isDigit(at(m)))
          ++m;
        if (at(m) != ']' || at(m + 1) != 'x')
          return k;
        dims.push_back({k + 1, m});
        k = m + 2;
      } else {
        return k;
      }
    }
  }

  size_t scanNumber(size_t i) {
    if (text[i] == '0' && at(i + 1) == 'x' &&
        std::isxdigit(static_cast<unsigned char>(at(i + 2)))) {
      i += 2;
      while (i < n && std::isxdigit(static_cast<unsigned char>(text[i])))
        ++i;
      return i;
    }
    size_t m = i;
    while (m < n && isDigit(text[m]))
      ++m;
    if (at(m) == '.' || at(m) == 'e' || at(m) == 'E') {
      // A float literal.
      while (m < n && (isDigit(text[m]) || text[m] == '.' || text[m] == 'e' ||
                       text[m] == 'E' ||
                       ((text[m] == '-' || text[m] == '+') &&
                        (text[m - 1] == 'e' || text[m - 1] == 'E'))))
        ++m;
      return m;
    }
    // Not the result count of `%r:2 = ...`.
    if (i >= 2 && text[i - 1] == ':' && isIdentChar(text[i - 2]))
      return m;
    size_t begin = i;
    if (i >= 1 && text[i - 1] == '-' &&
        (i < 2 || std::strchr(" \t\n=([,<:{", text[i - 2])))
      begin = i - 1;
    bool dimension = at(m) == 'x' && (isAlpha(at(m + 1)) || at(m + 1) == '?');
    result.integers.push_back(
        {{begin, m}, dimension, dimension ? 0 : getWidthAfter(text, m)});
    return m;
  }

  std::string_view text;
  size_t n;
  Scan result;
};

Scan scan(std::string_view text) { return Scanner(text).run(); }

struct Line {
  size_t begin, end; // without the newline
  int depthBefore;
  int depthAfter;
};

/// Lines with their brace depth (strings and comments left out), and the
/// top-level ops: in an explicit `module {` those at depth 1.
struct Layout {
  std::vector<Line> lines;
  int topDepth = 0;
  /// First and last line of each top-level op.
  std::vector<std::pair<size_t, size_t>> topOps;
  /// Where a top-level op goes last: before this line (the module's closing
  /// brace), or at the end of the text.
  size_t topEnd = 0;
};

Layout getLayout(std::string_view text) {
  Layout layout;
  int depth = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t end = text.find('\n', i);
    if (end == std::string_view::npos)
      end = text.size();
    Line line{i, end, depth, depth};
    for (size_t j = i; j < end; ++j) {
      char c = text[j];
      if (c == '"') {
        j = skipString(text, j) - 1;
      } else if (c == '/' && j + 1 < end && text[j + 1] == '/') {
        break;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      }
    }
    line.depthAfter = depth;
    layout.lines.push_back(line);
    i = end + 1;
  }
  auto content = [&](size_t l) {
    return trimmed(text.substr(layout.lines[l].begin,
                               layout.lines[l].end - layout.lines[l].begin));
  };
  for (size_t l = 0; l < layout.lines.size(); ++l) {
    std::string_view line = content(l);
    if (line.empty() || startsWith(line, "//"))
      continue;
    if (startsWith(line, "module") || startsWith(line, "\"builtin.module\""))
      layout.topDepth = 1;
    break;
  }
  layout.topEnd = layout.lines.size();
  for (size_t l = 0; l < layout.lines.size(); ++l) {
    const Line &line = layout.lines[l];
    std::string_view body = content(l);
    if (line.depthBefore != layout.topDepth || body.empty() ||
        startsWith(body, "//"))
      continue;
    if (body.front() == '}') {
      if (layout.topDepth == 1 && line.depthAfter == 0)
        layout.topEnd = l;
      continue;
    }
    size_t last = l;
    while (last + 1 < layout.lines.size() &&
           layout.lines[last].depthAfter > layout.topDepth)
      ++last;
    layout.topOps.push_back({l, last});
    l = last;
  }
  return layout;
}

std::string_view lineText(std::string_view text, const Line &line) {
  return text.substr(line.begin, line.end - line.begin);
}

std::string_view indentation(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t'))
    ++n;
  return line.substr(0, n);
}

/// Where text inserted before line `l` goes (the end when l is past the
/// last line).
size_t offsetOfLine(const Layout &layout, std::string_view text, size_t l) {
  return l < layout.lines.size() ? layout.lines[l].begin : text.size();
}

std::string formatSymbol(const std::string &name) {
  bool bare = !name.empty() && (isAlpha(name[0]) || name[0] == '_');
  for (char c : name)
    bare = bare && isIdentChar(c);
  if (bare)
    return "@" + name;
  std::string quoted = "@\"";
  for (char c : name) {
    if (c == '"')
      quoted += "\\\"";
    else
      quoted += c;
  }
  return quoted + "\"";
}

/// Replaces the given spans of `text` (sorted, disjoint) by `with`.
std::string replaceSpans(std::string_view text, std::vector<Span> spans,
                         const std::vector<std::string> &with) {
  std::string out;
  size_t last = 0;
  for (size_t k = 0; k < spans.size(); ++k) {
    out.append(text.substr(last, spans[k].begin - last));
    out.append(with[k]);
    last = spans[k].end;
  }
  out.append(text.substr(last));
  return out;
}

/// The input split into selector byte, override line (with its newline)
/// and module text.
struct Input {
  char selector;
  std::string override;
  std::string body;

  explicit Input(const std::string &input)
      : selector(input.empty() ? '\0' : input[0]) {
    std::string_view text =
        input.empty() ? std::string_view() : std::string_view(input).substr(1);
    if (startsWith(text, kPipelinePrefix)) {
      size_t end = text.find('\n');
      end = end == std::string_view::npos ? text.size() : end + 1;
      override = std::string(text.substr(0, end));
      text.remove_prefix(end);
    }
    body = std::string(text);
  }

  std::string str() const { return selector + override + body; }
};

std::set<std::string> getNames(const Scan &scanned) {
  std::set<std::string> names;
  for (const SymbolUse &use : scanned.symbols)
    names.insert(use.name);
  return names;
}

/// Names defined by a top-level op whose line starts with `op`.
std::vector<std::string> getDefinedNames(std::string_view text,
                                         const Scan &scanned,
                                         std::string_view op) {
  std::vector<std::string> names;
  for (const SymbolUse &use : scanned.symbols) {
    if (!use.definition)
      continue;
    size_t lineBegin = text.rfind('\n', use.span.begin);
    lineBegin = lineBegin == std::string_view::npos ? 0 : lineBegin + 1;
    if (startsWith(trimmed(text.substr(lineBegin)), op))
      names.push_back(use.name);
  }
  return names;
}

std::string pickBoundaryFor(const IntegerLiteral &literal,
                            std::string_view original, Rng &rng) {
  if (literal.dimension)
    return chance(rng, 1, 10) ? pickFrom(rng, kHugeDimensions)
                              : pickFrom(rng, kSmallDimensions);
  switch (pick(rng, 4)) {
  case 0:
    if (literal.width != 0) {
      // The edges of the literal's own type, which it may hold.
      int w = literal.width;
      Int128 half = static_cast<Int128>(1) << (w - 1);
      Int128 values[] = {half - 1, -half, half, (half << 1) - 1, -1, 0};
      return toString(pickFrom(rng, values));
    }
    break;
  case 1:
    if (std::optional<Int128> value = parseInteger(original))
      return toString(*value + (chance(rng, 1, 2) ? 1 : -1));
    break;
  default:
    break;
  }
  return pickBoundary(rng);
}

bool mutateInteger(std::string &text, Rng &rng) {
  Scan scanned = scan(text);
  if (scanned.integers.empty())
    return false;
  // Attribute values and options mostly: a dimension changed at one use of
  // a type makes a type mismatch; the type mutation changes all of them.
  std::vector<IntegerLiteral> values;
  for (const IntegerLiteral &literal : scanned.integers)
    if (!literal.dimension)
      values.push_back(literal);
  const IntegerLiteral &literal = !values.empty() && chance(rng, 4, 5)
                                      ? pickFrom(rng, values)
                                      : pickFrom(rng, scanned.integers);
  std::string_view original = std::string_view(text).substr(
      literal.span.begin, literal.span.end - literal.span.begin);
  for (int attempt = 0; attempt < 4; ++attempt) {
    std::string value = pickBoundaryFor(literal, original, rng);
    if (value != original) {
      text = replaceSpans(text, {literal.span}, {value});
      return true;
    }
  }
  return false;
}

bool mutateSymbol(std::string &text, Rng &rng) {
  Scan scanned = scan(text);
  if (scanned.symbols.empty())
    return false;
  const std::string from = pickFrom(rng, scanned.symbols).name;
  std::vector<std::string> others;
  for (const std::string &name : getNames(scanned))
    if (name != from)
      others.push_back(name);
  std::vector<std::string> functions =
      getDefinedNames(text, scanned, "func.func");
  std::string to;
  switch (pick(rng, 8)) {
  case 0:
    to = "";
    break;
  case 1:
  case 2:
    to = others.empty() ? "" : pickFrom(rng, others);
    break;
  case 3:
  case 4:
    to = pickFrom(rng, kReservedSymbols);
    break;
  case 5: {
    // The name a pass will give a piece or stage of another function.
    const std::vector<std::string> &bases =
        functions.empty() ? others : functions;
    to = (bases.empty() ? from : pickFrom(rng, bases)) +
         pickFrom(rng, kGeneratedSuffixes);
    break;
  }
  case 6:
    to =
        "_mlir_ciface_" + (functions.empty() ? from : pickFrom(rng, functions));
    break;
  default:
    to = pickFrom(rng, kOddSymbols);
    break;
  }
  if (to == from)
    return false;
  // Everywhere (a consistent rename, which keeps the module valid unless the
  // new name clashes) or at one use.
  std::vector<Span> spans;
  if (chance(rng, 2, 3)) {
    for (const SymbolUse &use : scanned.symbols)
      if (use.name == from)
        spans.push_back(use.span);
  } else {
    std::vector<Span> uses;
    for (const SymbolUse &use : scanned.symbols)
      if (use.name == from)
        uses.push_back(use.span);
    spans.push_back(pickFrom(rng, uses));
  }
  text = replaceSpans(text, spans,
                      std::vector<std::string>(spans.size(), formatSymbol(to)));
  return true;
}

/// `kw %a, %b : t1, t2` as the operand list and the type list; false for a
/// terminator with successors or without that form.
bool splitTerminator(std::string_view line, std::string &operands,
                     std::string &types) {
  if (line.find('^') != std::string_view::npos ||
      line.find('(') != std::string_view::npos)
    return false;
  size_t space = line.find(' ');
  if (space == std::string_view::npos) {
    operands.clear();
    types.clear();
    return true;
  }
  std::string_view rest = trimmed(line.substr(space));
  size_t colon = rest.find(" : ");
  if (colon == std::string_view::npos)
    return false;
  operands = std::string(trimmed(rest.substr(0, colon)));
  types = std::string(trimmed(rest.substr(colon + 3)));
  return !operands.empty() && operands[0] == '%';
}

bool mutateTerminator(std::string &text, Rng &rng) {
  Layout layout = getLayout(text);
  std::vector<size_t> terminators;
  for (size_t l = 0; l < layout.lines.size(); ++l) {
    std::string_view line = trimmed(lineText(text, layout.lines[l]));
    if (layout.lines[l].depthBefore <= layout.topDepth)
      continue;
    for (std::string_view terminator : kTerminators) {
      if (startsWith(line, terminator) &&
          (line.size() == terminator.size() ||
           !isIdentChar(line[terminator.size()]))) {
        terminators.push_back(l);
        break;
      }
    }
  }
  if (terminators.empty())
    return false;
  const Line &line = layout.lines[pickFrom(rng, terminators)];
  std::string_view full = lineText(text, line);
  std::string indent(indentation(full));
  std::string_view op = trimmed(full);
  std::string operands, types;
  bool plain = splitTerminator(op, operands, types);
  std::string replacement;
  switch (pick(rng, 5)) {
  case 0:
    // No terminator.
    replacement = "";
    break;
  case 1:
    // An unregistered op in its place, with its operands when it has them.
    if (plain && !operands.empty()) {
      replacement =
          indent + "\"fuzz.end\"(" + operands + ") : (" + types + ") -> ()";
      break;
    }
    [[fallthrough]];
  case 2:
    replacement = indent + "\"fuzz.end\"() : () -> ()";
    break;
  case 3:
    // An op after the terminator.
    replacement =
        std::string(full) + "\n" + indent + "\"fuzz.op\"() : () -> ()";
    break;
  default: {
    // The first returned value goes through an unregistered op first.
    if (!plain || operands.empty())
      return false;
    size_t comma = operands.find(',');
    std::string first = operands.substr(0, comma);
    std::string firstType = types.substr(0, types.find(','));
    if (comma != std::string::npos && types.find(',') == std::string::npos)
      return false;
    std::string fresh = "%fuzz_value";
    while (text.find(fresh) != std::string::npos)
      fresh += "_";
    std::string rest = comma == std::string::npos ? "" : operands.substr(comma);
    std::string keyword(op.substr(0, op.find(' ')));
    replacement = indent + fresh + " = \"fuzz.op\"(" + first + ") : (" +
                  firstType + ") -> " + firstType + "\n" + indent + keyword +
                  " " + fresh + rest + " : " + types;
    break;
  }
  }
  text = replaceSpans(text, {{line.begin, line.end}}, {replacement});
  return true;
}

std::vector<std::string> getTypeReplacements(const TypeUse &type) {
  std::vector<std::string> out;
  const std::string &element = type.element;
  bool simpleElement = element.find(',') == std::string::npos &&
                       element.find('<') == std::string::npos;
  for (const char *dims : {"16x16x", "?x", "", "0x", "1x", "17x", "2x3x4x"}) {
    if (type.shape == "vector" && (dims[0] == '?' || dims[0] == '\0'))
      continue;
    out.push_back(type.shape + "<" + dims + element + ">");
  }
  if (simpleElement) {
    for (const char *shape : {"tensor", "memref", "vector"}) {
      if (shape == type.shape)
        continue;
      std::string dims = type.dims;
      if (std::string_view(shape) == "vector" &&
          (dims.empty() || dims.find('?') != std::string::npos))
        dims = "8x";
      out.push_back(std::string(shape) + "<" + dims + element + ">");
    }
    out.push_back(element);
    for (const char *other : kElementTypes)
      if (other != element)
        out.push_back(type.shape + "<" + type.dims + other + ">");
  }
  return out;
}

bool mutateType(std::string &text, Rng &rng) {
  Scan scanned = scan(text);
  if (scanned.types.empty())
    return false;
  const TypeUse &chosen = pickFrom(rng, scanned.types);
  std::string from =
      text.substr(chosen.span.begin, chosen.span.end - chosen.span.begin);
  std::string to;
  bool includeNested = false;
  if (chosen.shape.empty()) {
    // A scalar: another one everywhere (element types included), or a
    // shaped type where it stands alone.
    if (chance(rng, 1, 3)) {
      to = pickFrom(rng, kScalarTypes);
      includeNested = true;
    } else {
      const char *shapes[] = {"vector<8x", "vector<4x4x", "tensor<16x16x",
                              "tensor<?x", "tensor<",     "memref<4x"};
      to = std::string(pickFrom(rng, shapes)) + from + ">";
    }
  } else {
    std::vector<std::string> candidates = getTypeReplacements(chosen);
    if (candidates.empty())
      return false;
    to = pickFrom(rng, candidates);
  }
  if (to == from)
    return false;
  std::vector<Span> spans;
  for (const TypeUse &use : scanned.types) {
    if (use.span.end - use.span.begin != from.size() ||
        text.compare(use.span.begin, from.size(), from) != 0)
      continue;
    if (use.nested && !includeNested)
      continue;
    // A shaped type inside another one is covered by the outer span.
    if (!spans.empty() && use.span.begin < spans.back().end)
      continue;
    spans.push_back(use.span);
  }
  if (spans.empty())
    return false;
  text = replaceSpans(text, spans, std::vector<std::string>(spans.size(), to));
  return true;
}

std::string expandSnippet(std::string snippet, const std::string &text,
                          Rng &rng) {
  Scan scanned = scan(text);
  std::vector<std::string> functions =
      getDefinedNames(text, scanned, "func.func");
  std::vector<std::string> callbacks =
      getDefinedNames(text, scanned, "nx.callback");
  std::string function = functions.empty() ? "f" : pickFrom(rng, functions);
  std::string callback = callbacks.empty() ? "cb" : pickFrom(rng, callbacks);
  // Placeholders stand for bare names; an odd one makes no valid name.
  if (formatSymbol(function)[1] == '"')
    function = "f";
  if (formatSymbol(callback)[1] == '"')
    callback = "cb";
  auto substitute = [&](std::string_view key, const std::string &value) {
    for (size_t at = snippet.find(key); at != std::string::npos;
         at = snippet.find(key, at + value.size()))
      snippet.replace(at, key.size(), value);
  };
  substitute("{F}", function);
  substitute("{C}", callback);
  substitute("{N}", pickBoundary(rng));
  return snippet;
}

/// Inserts `ops` (top-level ops, newline-terminated) at a random top-level
/// position of `text`.
void insertTopLevel(std::string &text, const std::string &ops, Rng &rng) {
  if (!text.empty() && text.back() != '\n')
    text += '\n';
  Layout layout = getLayout(text);
  size_t line = layout.topEnd;
  if (!layout.topOps.empty() && chance(rng, 1, 2))
    line = pickFrom(rng, layout.topOps).first;
  size_t at = offsetOfLine(layout, text, line);
  text.insert(at, ops);
}

bool mutateSnippet(std::string &text, Rng &rng) {
  std::string snippet = expandSnippet(pickFrom(rng, kSnippets), text, rng);
  insertTopLevel(text, snippet + "\n", rng);
  return true;
}

/// The callbacks `text` declares, with their `id` attribute's value when
/// they have one on their line.
std::vector<std::pair<std::string, std::string>>
getCallbacks(const std::string &text) {
  std::vector<std::pair<std::string, std::string>> callbacks;
  Scan scanned = scan(text);
  for (const SymbolUse &use : scanned.symbols) {
    if (!use.definition)
      continue;
    size_t lineBegin = text.rfind('\n', use.span.begin);
    lineBegin = lineBegin == std::string::npos ? 0 : lineBegin + 1;
    size_t lineEnd = text.find('\n', use.span.end);
    std::string_view line = std::string_view(text).substr(
        lineBegin,
        lineEnd == std::string::npos ? std::string::npos : lineEnd - lineBegin);
    if (!startsWith(trimmed(line), "nx.callback"))
      continue;
    std::string id;
    size_t at = line.find("id = ", use.span.end - lineBegin);
    if (at != std::string_view::npos) {
      at += 5;
      size_t end = at;
      while (end < line.size() && (isDigit(line[end]) || line[end] == '-'))
        ++end;
      id = std::string(line.substr(at, end - at));
    }
    callbacks.push_back({use.name, id});
  }
  return callbacks;
}

std::string getCallbackIdsEntry(const std::string &text, Rng &rng) {
  std::vector<std::pair<std::string, std::string>> declared =
      getCallbacks(text);
  std::vector<std::string> callbacks;
  for (const auto &callback : declared)
    callbacks.push_back(callback.first);
  if (callbacks.empty())
    callbacks = {"a", "b"};
  if (!declared.empty() && chance(rng, 1, 2)) {
    // The ids the callbacks have (their position where they have none),
    // one of them at an edge: the map agrees with the module but for one
    // entry, as a stale or hand-edited one would.
    size_t odd = pick(rng, declared.size());
    std::string entry = "nx.callback_ids = {";
    for (size_t k = 0; k < declared.size(); ++k) {
      std::string id = k == odd                     ? pickBoundary(rng)
                       : declared[k].second.empty() ? std::to_string(k)
                                                    : declared[k].second;
      entry += (k ? ", " : "") + formatSymbol(declared[k].first).substr(1) +
               " = " + id + " : i64";
    }
    return entry + "}";
  }
  switch (pick(rng, 6)) {
  case 0:
    return "nx.callback_ids = {}";
  case 1:
    return "nx.callback_ids = " + std::string(pickBoundary(rng)) + " : i64";
  case 2:
    return "nx.callback_ids = {\"\" = 0 : i64}";
  default: {
    // Every callback (or a few made-up names) with boundary ids; the same
    // id twice now and then.
    std::string entry = "nx.callback_ids = {";
    std::string last = "0";
    for (size_t k = 0; k < callbacks.size(); ++k) {
      std::string id = chance(rng, 1, 4) ? last : pickBoundary(rng);
      std::string key = formatSymbol(callbacks[k]).substr(1);
      entry += (k ? ", " : "") + key + " = " + id + " : i64";
      last = id;
    }
    return entry + "}";
  }
  }
}

bool mutateAttribute(std::string &text, Rng &rng) {
  if (chance(rng, 1, 2)) {
    // On the module.
    std::string entry = chance(rng, 3, 4) ? getCallbackIdsEntry(text, rng)
                                          : "nx.device = \"cuda\"";
    Layout layout = getLayout(text);
    for (const Line &line : layout.lines) {
      std::string_view content = lineText(text, line);
      std::string_view body = trimmed(content);
      if (body.empty() || startsWith(body, "//"))
        continue;
      if (!startsWith(body, "module"))
        break;
      // A key twice does not parse: an existing dictionary entry is
      // replaced.
      size_t existing = content.find(entry.substr(0, entry.find(' ')) + " = {");
      if (existing != std::string_view::npos) {
        size_t open = content.find('{', existing);
        int depth = 0;
        for (size_t i = open; i < content.size(); ++i) {
          if (content[i] == '{')
            ++depth;
          else if (content[i] == '}' && --depth == 0) {
            text.replace(line.begin + existing, i + 1 - existing, entry);
            return true;
          }
        }
        return false;
      }
      if (content.find(entry.substr(0, entry.find(' '))) !=
          std::string_view::npos)
        return false;
      size_t attributes = content.find("attributes {");
      size_t brace = content.find('{');
      if (attributes != std::string_view::npos) {
        size_t at = line.begin + attributes + std::strlen("attributes {");
        bool empty = at < text.size() && text[at] == '}';
        text.insert(at, entry + (empty ? "" : ", "));
      } else if (brace != std::string_view::npos) {
        text.insert(line.begin + brace, "attributes {" + entry + "} ");
      } else {
        return false;
      }
      return true;
    }
    text = "module attributes {" + entry + "} {\n" + text +
           (text.empty() || text.back() == '\n' ? "" : "\n") + "}\n";
    return true;
  }
  // On a function (or a callback's id).
  Layout layout = getLayout(text);
  std::vector<const Line *> headers;
  for (const Line &line : layout.lines) {
    std::string_view body = trimmed(lineText(text, line));
    if (startsWith(body, "func.func") || startsWith(body, "nx.callback"))
      headers.push_back(&line);
  }
  if (headers.empty())
    return false;
  const Line &line = *pickFrom(rng, headers);
  std::string_view content = lineText(text, line);
  bool callback = startsWith(trimmed(content), "nx.callback");
  std::string attribute =
      callback ? "id = " + std::string(pickBoundary(rng)) + " : i64"
               : expandSnippet(pickFrom(rng, kFunctionAttributes), text, rng);
  std::string key = attribute.substr(0, attribute.find(' '));
  if (content.find(key) != std::string_view::npos)
    return false;
  size_t attributes = content.find("attributes {");
  if (attributes != std::string_view::npos) {
    size_t at = line.begin + attributes + std::strlen("attributes {");
    bool empty = at < text.size() && text[at] == '}';
    text.insert(at, attribute + (empty ? "" : ", "));
    return true;
  }
  std::string_view body = trimmed(content);
  size_t end = line.begin + (body.data() - content.data()) + body.size();
  if (!body.empty() && body.back() == '{') {
    text.insert(end - 1, "attributes {" + attribute + "} ");
    return true;
  }
  text.insert(end, " attributes {" + attribute + "}");
  return true;
}

bool mutateDuplicate(std::string &text, Rng &rng) {
  Layout layout = getLayout(text);
  if (layout.topOps.empty())
    return false;
  auto [first, last] = pickFrom(rng, layout.topOps);
  size_t begin = layout.lines[first].begin;
  size_t end = std::min(layout.lines[last].end + 1, text.size());
  std::string op = text.substr(begin, end - begin);
  if (op.empty() || op.back() != '\n')
    op += '\n';
  insertTopLevel(text, op, rng);
  return true;
}

/// The text of the top-level ops of `text` that define a symbol `ops` uses
/// and `into` lacks.
std::string getDefinitionsFor(const std::string &ops, const std::string &text,
                              const std::string &into) {
  std::set<std::string> defined;
  Scan intoScan = scan(into);
  for (const SymbolUse &use : intoScan.symbols)
    if (use.definition)
      defined.insert(use.name);
  Scan opsScan = scan(ops);
  for (const SymbolUse &use : opsScan.symbols)
    if (use.definition)
      defined.insert(use.name);
  std::set<std::string> wanted;
  for (const SymbolUse &use : opsScan.symbols)
    if (!use.definition && !defined.count(use.name))
      wanted.insert(use.name);
  if (wanted.empty())
    return "";
  Layout layout = getLayout(text);
  Scan textScan = scan(text);
  std::string out;
  for (auto [first, last] : layout.topOps) {
    size_t begin = layout.lines[first].begin;
    size_t end = layout.lines[last].end;
    for (const SymbolUse &use : textScan.symbols) {
      if (use.definition && use.span.begin >= begin && use.span.begin < end &&
          wanted.count(use.name)) {
        out += text.substr(begin, end - begin) + "\n";
        wanted.erase(use.name);
        break;
      }
    }
  }
  return out;
}

/// The SSA values defined in lines [first, before) of `text`: block and
/// function arguments, results (`%r#k` for each result of a group).
std::vector<std::string> getValuesBefore(std::string_view text,
                                         const Layout &layout, size_t first,
                                         size_t before) {
  std::vector<std::string> values;
  for (size_t l = first; l < before; ++l) {
    std::string_view line = lineText(text, layout.lines[l]);
    std::string_view body = trimmed(line);
    size_t equals = body.find(" = ");
    bool results =
        !body.empty() && body[0] == '%' && equals != std::string_view::npos;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] != '%')
        continue;
      size_t j = i + 1;
      while (j < line.size() && isIdentChar(line[j]))
        ++j;
      std::string name(line.substr(i, j - i));
      if (j == i + 1)
        continue;
      size_t offset = static_cast<size_t>(line.data() + i - body.data());
      bool isResult = results && offset < equals;
      if (isResult && j < line.size() && line[j] == ':' &&
          j + 1 < line.size() && isDigit(line[j + 1])) {
        int count = 0;
        for (size_t k = j + 1;
             k < line.size() && isDigit(line[k]) && count < 64; ++k)
          count = count * 10 + (line[k] - '0');
        for (int k = 0; k < count && k < 8; ++k)
          values.push_back(name + "#" + std::to_string(k));
      } else if (isResult || (j + 1 < line.size() && line[j] == ':' &&
                              line[j + 1] == ' ')) {
        values.push_back(name);
      }
      i = j;
    }
  }
  return values;
}

bool spliceTopLevel(std::string &text, const std::string &other, Rng &rng) {
  Layout layout = getLayout(other);
  if (layout.topOps.empty())
    return false;
  auto [first, last] = pickFrom(rng, layout.topOps);
  std::string op =
      other.substr(layout.lines[first].begin,
                   layout.lines[last].end - layout.lines[first].begin) +
      "\n";
  std::string ops = getDefinitionsFor(op, other, text) + op;
  insertTopLevel(text, ops, rng);
  return true;
}

bool spliceOpLine(std::string &text, const std::string &other, Rng &rng) {
  Layout from = getLayout(other);
  std::vector<size_t> sources;
  for (size_t l = 0; l < from.lines.size(); ++l) {
    const Line &line = from.lines[l];
    std::string_view body = trimmed(lineText(other, line));
    if (line.depthBefore <= from.topDepth ||
        line.depthAfter != line.depthBefore || body.empty() || body[0] == '}' ||
        body[0] == '^' || startsWith(body, "//") ||
        body.find('^') != std::string_view::npos)
      continue;
    bool terminator = false;
    for (std::string_view t : kTerminators)
      terminator = terminator || startsWith(body, t);
    if (!terminator)
      sources.push_back(l);
  }
  Layout into = getLayout(text);
  std::vector<size_t> targets;
  for (size_t l = 0; l < into.lines.size(); ++l) {
    std::string_view body = trimmed(lineText(text, into.lines[l]));
    if (into.lines[l].depthBefore > into.topDepth && !body.empty() &&
        body[0] != '}' && body[0] != '^' && !startsWith(body, "//"))
      targets.push_back(l);
  }
  if (sources.empty() || targets.empty())
    return false;
  std::string_view source =
      trimmed(lineText(other, from.lines[pickFrom(rng, sources)]));
  size_t target = pickFrom(rng, targets);
  size_t owner = 0;
  for (auto [first, last] : into.topOps)
    if (first <= target && target <= last)
      owner = first;
  std::vector<std::string> values = getValuesBefore(text, into, owner, target);

  // Results get fresh names; operands become values of `text`.
  std::string fresh = "%fuzz";
  while (text.find(fresh) != std::string::npos)
    fresh += "_";
  size_t equals =
      source[0] == '%' ? source.find(" = ") : std::string_view::npos;
  std::map<std::string, std::string> renamed;
  std::string op;
  int freshCount = 0;
  for (size_t i = 0; i < source.size(); ++i) {
    if (source[i] != '%') {
      op += source[i];
      continue;
    }
    size_t j = i + 1;
    while (j < source.size() && isIdentChar(source[j]))
      ++j;
    std::string name(source.substr(i, j - i));
    if (equals != std::string_view::npos && i < equals) {
      op += fresh + std::to_string(freshCount++);
    } else {
      // `%r#1` is one value.
      if (j < source.size() && source[j] == '#') {
        ++j;
        while (j < source.size() && isDigit(source[j]))
          ++j;
        name = std::string(source.substr(i, j - i));
      }
      if (!renamed.count(name)) {
        if (values.empty())
          return false;
        renamed[name] = pickFrom(rng, values);
      }
      op += renamed[name];
    }
    i = j - 1;
  }
  std::string indent(indentation(lineText(text, into.lines[target])));
  std::string definitions = getDefinitionsFor(op, other, text);
  text.insert(into.lines[target].begin, indent + op + "\n");
  if (!definitions.empty())
    insertTopLevel(text, definitions, rng);
  return true;
}

std::string_view firstIntegerOption(std::string_view pipeline, Span &span) {
  for (size_t i = 0; i + 1 < pipeline.size(); ++i) {
    if (pipeline[i] != '=')
      continue;
    size_t j = i + 1;
    if (j < pipeline.size() && pipeline[j] == '-')
      ++j;
    size_t digits = j;
    while (j < pipeline.size() && isDigit(pipeline[j]))
      ++j;
    if (j > digits) {
      span = {i + 1, j};
      return pipeline.substr(i + 1, j - i - 1);
    }
  }
  return {};
}

/// `pipeline` with its integer options (all, or one) set to values from
/// kOptionIntegers.
std::string withOtherOptions(std::string pipeline, Rng &rng, bool all) {
  std::vector<Span> spans;
  for (size_t i = 0; i + 1 < pipeline.size(); ++i) {
    if (pipeline[i] != '=')
      continue;
    size_t j = i + 1;
    if (pipeline[j] == '-')
      ++j;
    size_t digits = j;
    while (j < pipeline.size() && isDigit(pipeline[j]))
      ++j;
    if (j > digits && (j == pipeline.size() || !isAlpha(pipeline[j])))
      spans.push_back({i + 1, j});
  }
  if (spans.empty())
    return pipeline;
  if (!all)
    spans = {pickFrom(rng, spans)};
  std::vector<std::string> values;
  for (size_t k = 0; k < spans.size(); ++k)
    values.push_back(pickFrom(rng, kOptionIntegers));
  return replaceSpans(pipeline, spans, values);
}

} // namespace

std::string_view getPipelineOverride(std::string_view text) {
  if (!startsWith(text, kPipelinePrefix))
    return {};
  text.remove_prefix(kPipelinePrefix.size());
  return text.substr(0, text.find('\n'));
}

std::vector<std::string> getPipelineNames(std::string_view pipeline) {
  std::vector<std::string> names;
  std::string current;
  int braces = 0;
  auto flush = [&] {
    std::string_view name = trimmed(current);
    if (!name.empty())
      names.emplace_back(name);
    current.clear();
  };
  for (char c : pipeline) {
    if (c == '{') {
      if (braces++ == 0)
        flush();
    } else if (c == '}') {
      --braces;
    } else if (braces == 0) {
      if (c == ',' || c == '(' || c == ')')
        flush();
      else
        current += c;
    }
  }
  flush();
  return names;
}

const char *Mutator::getName(Kind kind) {
  switch (kind) {
  case Kind::Integer:
    return "integer";
  case Kind::Symbol:
    return "symbol";
  case Kind::Terminator:
    return "terminator";
  case Kind::Selector:
    return "selector";
  case Kind::Pipeline:
    return "pipeline";
  case Kind::Type:
    return "type";
  case Kind::Snippet:
    return "snippet";
  case Kind::Attribute:
    return "attribute";
  case Kind::Duplicate:
    return "duplicate";
  }
  return "?";
}

Mutator::Mutator(std::vector<std::string> pipelines,
                 std::vector<std::string> optionPipelines)
    : pipelines(std::move(pipelines)),
      optionPipelines(std::move(optionPipelines)) {}

bool Mutator::mutateSelector(std::string &input, Rng &rng) const {
  Input parts(input);
  if (pipelines.empty())
    return false;
  if (!parts.override.empty() && chance(rng, 1, 3)) {
    parts.override.clear();
  } else {
    size_t count = pipelines.size();
    size_t current = static_cast<unsigned char>(parts.selector) % count;
    switch (pick(rng, 3)) {
    case 0:
      current = (current + 1) % count;
      break;
    case 1:
      current = (current + count - 1) % count;
      break;
    default:
      current = pick(rng, count);
      break;
    }
    parts.selector = static_cast<char>(current);
  }
  std::string mutated = parts.str();
  if (mutated == input)
    return false;
  input = std::move(mutated);
  return true;
}

bool Mutator::mutatePipeline(std::string &input, Rng &rng) const {
  Input parts(input);
  std::string current(getPipelineOverride(parts.override));
  if (current.empty() && !pipelines.empty())
    current = pipelines[static_cast<unsigned char>(parts.selector) %
                        pipelines.size()];
  std::vector<const std::string *> nonEmpty;
  for (const std::string &pipeline : pipelines)
    if (!pipeline.empty())
      nonEmpty.push_back(&pipeline);
  if (nonEmpty.empty())
    return false;
  std::string next;
  switch (pick(rng, 4)) {
  case 0:
    // Two in a row: what one pipeline leaves, another gets.
    next = current.empty() ? *pickFrom(rng, nonEmpty)
                           : current + "," + *pickFrom(rng, nonEmpty);
    break;
  case 1:
    if (!optionPipelines.empty()) {
      next = withOtherOptions(pickFrom(rng, optionPipelines), rng, true);
      break;
    }
    [[fallthrough]];
  case 2: {
    Span span;
    if (!firstIntegerOption(current, span).empty()) {
      next = withOtherOptions(current, rng, false);
      break;
    }
    next = *pickFrom(rng, nonEmpty);
    break;
  }
  default:
    next = *pickFrom(rng, nonEmpty);
    break;
  }
  // Long chains spend the time on compiling, not on finding.
  if (next.size() > 400 || next == current)
    return false;
  parts.override = std::string(kPipelinePrefix) + next + "\n";
  input = parts.str();
  return true;
}

bool Mutator::apply(Kind kind, std::string &input, Rng &rng) const {
  if (input.empty())
    return false;
  switch (kind) {
  case Kind::Selector:
    return mutateSelector(input, rng);
  case Kind::Pipeline:
    return mutatePipeline(input, rng);
  default:
    break;
  }
  // The other mutations change the module text (and, for integers, the
  // options of the override line, which scanning includes).
  Input parts(input);
  std::string text =
      kind == Kind::Integer ? parts.override + parts.body : parts.body;
  bool changed = false;
  switch (kind) {
  case Kind::Integer:
    changed = mutateInteger(text, rng);
    break;
  case Kind::Symbol:
    changed = mutateSymbol(text, rng);
    break;
  case Kind::Terminator:
    changed = mutateTerminator(text, rng);
    break;
  case Kind::Type:
    changed = mutateType(text, rng);
    break;
  case Kind::Snippet:
    changed = mutateSnippet(text, rng);
    break;
  case Kind::Attribute:
    changed = mutateAttribute(text, rng);
    break;
  case Kind::Duplicate:
    changed = mutateDuplicate(text, rng);
    break;
  default:
    break;
  }
  if (!changed)
    return false;
  input = kind == Kind::Integer ? parts.selector + text
                                : parts.selector + parts.override + text;
  return true;
}

bool Mutator::mutate(Kind kind, std::string &input, size_t maxSize,
                     uint32_t seed) const {
  Rng rng(seed);
  std::string mutated = input;
  if (!apply(kind, mutated, rng) || mutated.size() > maxSize ||
      mutated == input)
    return false;
  input = std::move(mutated);
  return true;
}

bool Mutator::mutate(std::string &input, size_t maxSize, uint32_t seed) const {
  Rng rng(seed);
  // Module text mutations more often than selector and pipeline changes.
  static const Kind kWeighted[] = {
      Kind::Integer,   Kind::Integer,    Kind::Integer,    Kind::Symbol,
      Kind::Symbol,    Kind::Terminator, Kind::Terminator, Kind::Selector,
      Kind::Pipeline,  Kind::Type,       Kind::Type,       Kind::Snippet,
      Kind::Attribute, Kind::Duplicate};
  for (int attempt = 0; attempt < 4; ++attempt) {
    Kind kind = pickFrom(rng, kWeighted);
    std::string mutated = input;
    if (apply(kind, mutated, rng) && mutated.size() <= maxSize &&
        mutated != input) {
      input = std::move(mutated);
      return true;
    }
  }
  return false;
}

bool Mutator::crossOver(const std::string &input, const std::string &other,
                        std::string &out, size_t maxSize, uint32_t seed) const {
  if (input.empty() || other.empty())
    return false;
  Rng rng(seed);
  Input parts(input);
  Input from(other);
  bool spliced = chance(rng, 1, 2) ? spliceTopLevel(parts.body, from.body, rng)
                                   : spliceOpLine(parts.body, from.body, rng);
  if (!spliced)
    return false;
  if (chance(rng, 1, 4)) {
    parts.selector = from.selector;
    parts.override = from.override;
  }
  out = parts.str();
  return out.size() <= maxSize;
}

} // namespace nx_fuzz
