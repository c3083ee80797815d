//===- Mutator.h - Structure-aware mutations of nx-opt-fuzzer inputs -----===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libFuzzer's own mutations flip bytes and insert dictionary words; coverage
// guidance rarely turns those into the inputs that break a compiler's
// promises: an id of INT64_MAX, a symbol named like one the compiler
// generates, a block ending in an op nobody knows, a module that mixes
// lowered and unlowered code. The mutations here work on the MLIR text of an
// input (one selector byte, then the text; see nx-opt-fuzzer.cpp) and make
// such shapes in one step:
//
//   integer   an integer literal (attribute value, shape dimension, pass
//             option) becomes a boundary value: 0, -1, INT64_MIN,
//             INT64_MAX, 2^63, 2^64-1, those of its type's width, ...
//   symbol    a symbol, everywhere or at one use, is renamed to "", to
//             another symbol of the input, or to a name the compiler
//             reserves (__nx_init, __nx_site_0, <fn>_part0, <fn>_stage0...)
//   terminator  a block's terminator is dropped, replaced by an
//             unregistered op, or followed by one
//   selector  the selector byte changes, or the override line goes
//   pipeline  a `// pipeline: ...` first line names the pipeline instead
//             of the selector: one of the harness's, two of them in a row,
//             or one with an integer option set to a boundary value
//   type      one type is replaced everywhere (tensor <-> vector <-> scalar,
//             other shapes, dynamic or zero dimensions, element types)
//   snippet   a top-level op from a fixed list: callbacks with odd names or
//             ids, functions and globals with reserved names, lowered LLVM
//             functions, unregistered ops
//   attribute nx's attributes on the module (nx.callback_ids with boundary
//             ids) and on functions (nx.piece, nx.device, ...)
//   duplicate a top-level op is copied (duplicate symbols)
//
// and crossOver splices a top-level op of another input (with the symbols it
// uses) or one op line of it, its operands renamed to values of this input.
//
// Only the standard library: the harness and the unit test link it.
//
//===----------------------------------------------------------------------===//

#ifndef NX_TOOLS_NX_OPT_FUZZER_MUTATOR_H
#define NX_TOOLS_NX_OPT_FUZZER_MUTATOR_H

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace nx_fuzz {

/// An input whose text starts with this names its pipeline on that line
/// (up to the newline) instead of by the selector byte. The line is an MLIR
/// comment: the module parses the same either way.
inline constexpr std::string_view kPipelinePrefix = "// pipeline: ";

/// The pipeline an input's override line names, or an empty view.
std::string_view getPipelineOverride(std::string_view text);

/// The pass and op-anchor names of a textual pipeline, in order, options
/// left out: "func.func(a{x=1},b)" gives func.func, a, b.
std::vector<std::string> getPipelineNames(std::string_view pipeline);

class Mutator {
public:
  enum class Kind {
    Integer,
    Symbol,
    Terminator,
    Selector,
    Pipeline,
    Type,
    Snippet,
    Attribute,
    Duplicate,
  };
  static constexpr int kNumKinds = 9;
  static const char *getName(Kind kind);

  /// `pipelines`: the harness's list, indexed by the selector byte modulo
  /// its size. `optionPipelines`: pipelines with integer options, which the
  /// override line uses with other values.
  Mutator(std::vector<std::string> pipelines,
          std::vector<std::string> optionPipelines);

  /// Applies one mutation, of a kind chosen at random, to `input` (selector
  /// byte and text). False when none applied or the result would exceed
  /// `maxSize`; `input` is then unchanged.
  bool mutate(std::string &input, size_t maxSize, uint32_t seed) const;
  /// The same with the kind given.
  bool mutate(Kind kind, std::string &input, size_t maxSize,
              uint32_t seed) const;

  /// Splices part of `other` into `input`: one of its top-level ops with
  /// the top-level ops defining the symbols it uses, or one op of a block,
  /// its results renamed and its operands replaced by values `input`
  /// defines. False when nothing fit.
  bool crossOver(const std::string &input, const std::string &other,
                 std::string &out, size_t maxSize, uint32_t seed) const;

private:
  bool apply(Kind kind, std::string &input, std::mt19937 &rng) const;
  bool mutatePipeline(std::string &input, std::mt19937 &rng) const;
  bool mutateSelector(std::string &input, std::mt19937 &rng) const;

  std::vector<std::string> pipelines;
  std::vector<std::string> optionPipelines;
};

} // namespace nx_fuzz

#endif // NX_TOOLS_NX_OPT_FUZZER_MUTATOR_H
