//===- AotProgramTest.cpp - loading and running AOT objects ---------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs against AotFixture.c, a hand-written object with nx-compile's ABI.
//
//===----------------------------------------------------------------------===//

#include "nxhost/AotProgram.h"
#include "nxhost/DebugCallbacks.h"
#include "nxhost/HostRuntime.h"

#include <gtest/gtest.h>

using namespace nxhost;

namespace {

std::string fixture(llvm::StringRef name) {
  return (llvm::Twine(NX_AOT_FIXTURE_DIR) + "/" + name + ".so").str();
}

HostTensor literal(llvm::StringRef text) {
  return llvm::cantFail(HostTensor::parseLiteral(text));
}

class AotProgramTest : public ::testing::Test {
protected:
  std::unique_ptr<AotProgram> load(llvm::StringRef name,
                                   llvm::StringRef prefix) {
    auto program = AotProgram::load(fixture(name), prefix, runtime->get());
    if (!program) {
      ADD_FAILURE() << llvm::toString(program.takeError());
      return nullptr;
    }
    llvm::cantFail((*program)->initialize());
    return std::move(*program);
  }
  std::string loadError(llvm::StringRef name, llvm::StringRef prefix) {
    auto program = AotProgram::load(fixture(name), prefix, runtime->get());
    return program ? "" : llvm::toString(program.takeError());
  }

  std::unique_ptr<HostRuntime> runtime = HostRuntime::create();
};

TEST(AotProgramPrefix, FileStemAsACIdentifier) {
  EXPECT_EQ(AotProgram::defaultPrefix("model.so"), "model");
  EXPECT_EQ(AotProgram::defaultPrefix("out/my-net.so"), "my_net");
  EXPECT_EQ(AotProgram::defaultPrefix("a.b.so"), "a_b");
  EXPECT_EQ(AotProgram::defaultPrefix("3d.so"), "_3d");
}

TEST_F(AotProgramTest, DescribesItsEntriesAndCallbacks) {
  auto program = load("aot-fixture", "aot_fixture");
  ASSERT_TRUE(program);
  ASSERT_EQ(program->entries().size(), 4u);
  const EntrySignature &split = program->entries()[1];
  EXPECT_EQ(split.name, "split");
  ASSERT_EQ(split.results.size(), 2u);
  EXPECT_EQ(split.results[1].type, "tensor<i64>");
  EXPECT_EQ(split.args[0].shape, (llvm::SmallVector<int64_t, 4>{2}));
  EXPECT_EQ(program->callbackNames(),
            llvm::ArrayRef<std::string>{"nx.debug.print"});
  EXPECT_EQ(nxrt_program_num_sites(program->program()), 1u);
}

TEST_F(AotProgramTest, RunsEntriesWithOneAndTwoResults) {
  auto program = load("aot-fixture", "aot_fixture");
  ASSERT_TRUE(program);
  HostTensor x = literal("[1, 2, 3, 4]:tensor<4xf32>");
  auto results = program->run("add_one", x);
  ASSERT_TRUE(!!results) << llvm::toString(results.takeError());
  ASSERT_EQ(results->size(), 1u);
  EXPECT_EQ((*results)[0], literal("[2, 3, 4, 5]:tensor<4xf32>"));
  // The caller's input is untouched.
  EXPECT_EQ(x, literal("[1, 2, 3, 4]:tensor<4xf32>"));

  auto pair = program->run("split", literal("[7, 0]:tensor<2xi64>"));
  ASSERT_TRUE(!!pair) << llvm::toString(pair.takeError());
  ASSERT_EQ(pair->size(), 2u);
  EXPECT_EQ((*pair)[0], literal("7:tensor<i64>"));
  EXPECT_EQ((*pair)[1], literal("0:tensor<i64>")); // the constant buffer
}

TEST_F(AotProgramTest, CallsBackThroughItsSites) {
  auto program = load("aot-fixture", "aot_fixture");
  ASSERT_TRUE(program);
  HostTensor x = literal("[1, 2]:tensor<2xf32>");
  // Unbound: the run fails naming the callback and the location.
  auto failed = program->run("shout", x);
  ASSERT_FALSE(failed);
  EXPECT_NE(llvm::toString(failed.takeError())
                .find("unknown callback @nx.debug.print at fixture.mlir:3:5"),
            std::string::npos);
  llvm::cantFail(registerDebugCallbacks(runtime->get()));
  testing::internal::CaptureStdout();
  auto results = program->run("shout", x);
  std::string printed = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(!!results) << llvm::toString(results.takeError());
  EXPECT_EQ((*results)[0], x);
  EXPECT_EQ(printed, "fixture.mlir:3:5: tensor<2xf32> = [1, 2]\n");
}

TEST_F(AotProgramTest, RejectsBadCalls) {
  auto program = load("aot-fixture", "aot_fixture");
  ASSERT_TRUE(program);
  auto noEntry = program->run("nope", {});
  EXPECT_EQ(llvm::toString(noEntry.takeError()),
            "no public function @nope in the program (available: @add_one, "
            "@split, @shout, @bump)");
  auto arity = program->run("add_one", {});
  EXPECT_EQ(llvm::toString(arity.takeError()),
            "@add_one takes 1 argument(s), got 0");
  auto type = program->run("add_one", literal("[1, 2]:tensor<2xf32>"));
  EXPECT_EQ(llvm::toString(type.takeError()),
            "argument #0 of @add_one has type tensor<4xf32>, got "
            "tensor<2xf32>");
}

TEST_F(AotProgramTest, LoadErrorsNameTheFileAndTheSymbol) {
  EXPECT_NE(loadError("does-not-exist", "x").find("cannot load '"),
            std::string::npos);
  std::string missing = loadError("aot-custom", "aot_custom");
  EXPECT_NE(missing.find("does not export aot_custom_program"),
            std::string::npos)
      << missing;
  EXPECT_NE(loadError("aot-bad-abi", "aot_bad_abi")
                .find("has AOT ABI version 999, this host reads version " +
                      std::to_string(NXRT_AOT_ABI_VERSION)),
            std::string::npos);
  EXPECT_NE(loadError("aot-bad-api", "aot_bad_api")
                .find("was compiled against libnxrt API version 1, the "
                      "loaded libnxrt has version " +
                      std::to_string(NXRT_API_VERSION)),
            std::string::npos);
}

TEST_F(AotProgramTest, RunBeforeInitializeFails) {
  auto program =
      AotProgram::load(fixture("aot-fixture"), "aot_fixture", runtime->get());
  ASSERT_TRUE(!!program);
  auto results = (*program)->run("add_one", literal("0:tensor<4xf32>"));
  EXPECT_NE(llvm::toString(results.takeError()).find("is not initialized"),
            std::string::npos);
}

} // namespace
