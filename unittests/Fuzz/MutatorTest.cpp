//===- MutatorTest.cpp - nx-opt-fuzzer's structure-aware mutations -------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each mutation kind reaches the shapes it is there for within a few hundred
// seeds, keeps what it must not touch, and is a function of its seed.
//
//===----------------------------------------------------------------------===//

#include "Mutator.h"

#include "gtest/gtest.h"

#include <functional>
#include <string>

using nx_fuzz::Mutator;

namespace {

const Mutator &getMutator() {
  static const Mutator mutator(
      {"", "canonicalize,cse", "nx-split-functions{max-ops=2}",
       "nx-lower-to-cpu"},
      {"nx-lower-to-cpu{max-function-ops=4 vector-bits=128}"});
  return mutator;
}

/// An input with selector byte 2 (nx-split-functions{max-ops=2}).
std::string input(const std::string &text) {
  return std::string(1, '\2') + text;
}

/// Whether some seed in [0, 500) mutates `in` with `kind` into an input
/// `matches` accepts.
bool reaches(Mutator::Kind kind, const std::string &in,
             const std::function<bool(const std::string &)> &matches) {
  for (uint32_t seed = 0; seed < 500; ++seed) {
    std::string mutated = in;
    if (getMutator().mutate(kind, mutated, 1 << 16, seed) && matches(mutated))
      return true;
  }
  return false;
}

std::function<bool(const std::string &)> contains(const std::string &part) {
  return [part](const std::string &text) {
    return text.find(part) != std::string::npos;
  };
}

const char *const kCallbacks =
    R"(nx.callback @a : () -> () attributes {id = 1 : i64}
nx.callback @b : () -> ()
func.func @f(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}
func.func @g(%t: tensor<4xf32>) -> tensor<4xf32> {
  %u = math.exp %t : tensor<4xf32>
  return %u : tensor<4xf32>
}
)";

TEST(MutatorTest, IntegersBecomeBoundaryValues) {
  std::string in = input(kCallbacks);
  for (const char *value :
       {"9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "18446744073709551615", "-1", "0"})
    EXPECT_TRUE(reaches(Mutator::Kind::Integer, in,
                        contains(std::string("id = ") + value + " : i64")))
        << value;
  // Shape dimensions, dynamic ones included.
  EXPECT_TRUE(reaches(Mutator::Kind::Integer, in, contains("tensor<?xf32>")));
}

TEST(MutatorTest, IntegersInStringsAndNamesStay) {
  std::string in = input("func.func @f2(%arg0: i32) attributes {s = \"12\"}\n");
  std::string mutated = in;
  EXPECT_FALSE(
      getMutator().mutate(Mutator::Kind::Integer, mutated, 1 << 16, 0));
  EXPECT_EQ(mutated, in);
}

TEST(MutatorTest, SymbolsBecomeEmptyDuplicateOrReserved) {
  std::string in = input(kCallbacks);
  EXPECT_TRUE(
      reaches(Mutator::Kind::Symbol, in, contains("nx.callback @\"\"")));
  EXPECT_TRUE(
      reaches(Mutator::Kind::Symbol, in, contains("func.func @__nx_site_0(")));
  EXPECT_TRUE(
      reaches(Mutator::Kind::Symbol, in, contains("func.func @__nx_init(")));
  // A user function named like a piece nx-split-functions makes of another.
  EXPECT_TRUE(
      reaches(Mutator::Kind::Symbol, in, contains("func.func @f_part0(")));
  EXPECT_TRUE(
      reaches(Mutator::Kind::Symbol, in, contains("func.func @g_stage0(")));
  // Two symbols of one name.
  EXPECT_TRUE(reaches(Mutator::Kind::Symbol, in, contains("func.func @f(%t")));
}

TEST(MutatorTest, TerminatorsGoOrBecomeUnregistered) {
  std::string in = input(kCallbacks);
  EXPECT_TRUE(reaches(Mutator::Kind::Terminator, in,
                      contains("\"fuzz.end\"(%y) : (f32) -> ()")));
  EXPECT_TRUE(
      reaches(Mutator::Kind::Terminator, in, [](const std::string &text) {
        return text.find("return %y") == std::string::npos &&
               text.find("fuzz") == std::string::npos;
      }));
  EXPECT_TRUE(reaches(Mutator::Kind::Terminator, in,
                      contains("return %y : f32\n  \"fuzz.op\"() : () -> ()")));
}

TEST(MutatorTest, TypesChangeEverywhere) {
  std::string in = input(kCallbacks);
  // Math on tensors and vectors (nx-approximate-math's operands).
  EXPECT_TRUE(reaches(Mutator::Kind::Type, in, [](const std::string &text) {
    return text.find("math.exp %x : tensor<16x16xf32>") != std::string::npos &&
           text.find("%x: tensor<16x16xf32>") != std::string::npos;
  }));
  EXPECT_TRUE(reaches(Mutator::Kind::Type, in,
                      contains("math.exp %t : vector<4xf32>")));
  EXPECT_TRUE(reaches(Mutator::Kind::Type, in,
                      contains("math.exp %t : tensor<16x16xf32>")));
}

TEST(MutatorTest, ModuleAttributesNameCallbacks) {
  std::string in = input(kCallbacks);
  EXPECT_TRUE(
      reaches(Mutator::Kind::Attribute, in, [](const std::string &text) {
        return text.find("module attributes {nx.callback_ids = {a = ") !=
                   std::string::npos &&
               text.find("9223372036854775807 : i64") != std::string::npos;
      }));
  EXPECT_TRUE(reaches(Mutator::Kind::Attribute, in,
                      contains("attributes {nx.piece} {")));
  // A map that agrees with the callbacks' ids but for one entry, replacing
  // the module's own.
  std::string withMap = input(
      "module attributes {nx.callback_ids = {a = 1 : i64, b = 0 : i64}} {\n" +
      std::string(kCallbacks) + "}\n");
  EXPECT_TRUE(
      reaches(Mutator::Kind::Attribute, withMap,
              contains("module attributes {nx.callback_ids = {a = 1 : i64, "
                       "b = 9223372036854775807 : i64}} {")));
}

TEST(MutatorTest, SnippetsAndDuplicates) {
  std::string in = input(kCallbacks);
  EXPECT_TRUE(reaches(Mutator::Kind::Snippet, in, contains("llvm.func @")));
  EXPECT_TRUE(
      reaches(Mutator::Kind::Snippet, in, contains("nx.callback @\"\"")));
  EXPECT_TRUE(
      reaches(Mutator::Kind::Duplicate, in, [](const std::string &text) {
        size_t first = text.find("nx.callback @b");
        return text.find("nx.callback @b", first + 1) != std::string::npos;
      }));
}

TEST(MutatorTest, PipelineOverrides) {
  std::string in = input(kCallbacks);
  EXPECT_TRUE(
      reaches(Mutator::Kind::Pipeline, in,
              contains("// pipeline: nx-split-functions{max-ops=-1}\n")));
  EXPECT_TRUE(reaches(
      Mutator::Kind::Pipeline, in,
      contains(
          "// pipeline: nx-split-functions{max-ops=2},nx-lower-to-cpu\n")));
  EXPECT_TRUE(reaches(Mutator::Kind::Pipeline, in,
                      contains("vector-bits=9223372036854775807")));
  // The override's options are integers like any other.
  std::string withOverride = std::string(1, '\0') +
                             "// pipeline: nx-split-functions{max-ops=2}\n" +
                             kCallbacks;
  EXPECT_TRUE(reaches(Mutator::Kind::Integer, withOverride,
                      contains("{max-ops=9223372036854775807}")));
  // The selector changes, or the override goes.
  EXPECT_TRUE(reaches(Mutator::Kind::Selector, in,
                      [](const std::string &text) { return text[0] == 3; }));
  EXPECT_TRUE(reaches(Mutator::Kind::Selector, withOverride,
                      [](const std::string &text) {
                        return text.find("pipeline") == std::string::npos;
                      }));

  EXPECT_EQ(nx_fuzz::getPipelineOverride("// pipeline: a,b\nmodule {}"), "a,b");
  EXPECT_EQ(nx_fuzz::getPipelineOverride("module {}"), "");
  std::vector<std::string> names = nx_fuzz::getPipelineNames(
      "func.func(a{x=1 y=p,q},b),convert-to-llvm{filter-dialects=nx,func}");
  EXPECT_EQ(names, (std::vector<std::string>{"func.func", "a", "b",
                                             "convert-to-llvm"}));
}

TEST(MutatorTest, CrossOverSplicesWithDefinitions) {
  std::string into =
      input("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  return %x : tensor<4xf32>\n}\n");
  std::string from = input(
      "module {\n"
      "  nx.callback @cb : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  func.func @user(%y: tensor<4xf32>) -> tensor<4xf32> {\n"
      "    %0 = nx.elixir_call @cb(%y) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    return %0 : tensor<4xf32>\n"
      "  }\n}\n");
  bool whole = false, line = false;
  for (uint32_t seed = 0; seed < 200; ++seed) {
    std::string out;
    if (!getMutator().crossOver(into, from, out, 1 << 16, seed))
      continue;
    // A function comes with the callback it calls.
    if (out.find("func.func @user") != std::string::npos)
      whole = whole || out.find("nx.callback @cb") != std::string::npos;
    // One op, its operand a value of `into` and the callback it calls.
    if (out.find("nx.elixir_call @cb(%x)") != std::string::npos)
      line = line || out.find("nx.callback @cb") != std::string::npos;
  }
  EXPECT_TRUE(whole);
  EXPECT_TRUE(line);
}

TEST(MutatorTest, DeterministicAndBounded) {
  std::string in = input(kCallbacks);
  for (uint32_t seed = 0; seed < 200; ++seed) {
    std::string a = in, b = in;
    bool changedA = getMutator().mutate(a, 1 << 16, seed);
    bool changedB = getMutator().mutate(b, 1 << 16, seed);
    EXPECT_EQ(changedA, changedB);
    EXPECT_EQ(a, b);
    std::string small = in;
    if (getMutator().mutate(small, in.size(), seed)) {
      EXPECT_LE(small.size(), in.size());
    }
  }
  std::string empty;
  EXPECT_FALSE(getMutator().mutate(empty, 16, 0));
}

} // namespace
