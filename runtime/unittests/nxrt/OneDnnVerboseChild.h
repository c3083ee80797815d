//===- OneDnnVerboseChild.h - kernels oneDNN makes, in a child --*- C++ -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A prepare (nxrt_conv2d_prepare_f32, nxrt_gemm_prepare_*) must make the
// very kernels the first call of the same sizes would: otherwise that call
// makes others and the prepare was wasted. oneDNN reports each primitive it
// makes ("create:" lines) when DNNL_VERBOSE is set before its first use, so
// a test runs its own program again in a child process with that variable,
// and counts what the calls after a marker made.
//
//===----------------------------------------------------------------------===//

#ifndef NXRT_UNITTESTS_ONEDNNVERBOSECHILD_H
#define NXRT_UNITTESTS_ONEDNNVERBOSECHILD_H

#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace nxrt_test {

/// What this test program prints when it runs only `testName` (a gtest
/// filter) again in a child process with `modeVariable`=`mode` and
/// DNNL_VERBOSE=2 in its environment; empty if it could not start.
inline std::string runOneDnnVerboseChild(const char *modeVariable,
                                         const char *mode,
                                         const char *testName) {
  int pipeEnds[2];
  if (pipe(pipeEnds) != 0)
    return "";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipeEnds[0]);
  std::vector<std::string> environment;
  for (char **entry = environ; *entry; ++entry)
    environment.emplace_back(*entry);
  environment.push_back(std::string(modeVariable) + "=" + mode);
  environment.push_back("DNNL_VERBOSE=2");
  std::vector<char *> envp;
  for (std::string &entry : environment)
    envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::string filter = std::string("--gtest_filter=") + testName;
  char self[] = "/proc/self/exe";
  char *argv[] = {self, filter.data(), nullptr};
  pid_t child = -1;
  int spawned = posix_spawn(&child, self, &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipeEnds[1]);
  std::string output;
  char buffer[4096];
  ssize_t count;
  while ((count = read(pipeEnds[0], buffer, sizeof buffer)) > 0)
    output.append(buffer, count);
  close(pipeEnds[0]);
  if (spawned == 0)
    waitpid(child, nullptr, 0);
  return output;
}

/// oneDNN's "create:" lines after `marker` in `output`: kernels the calls
/// after it made; -1 when the marker is missing.
inline int kernelsMadeAfter(const std::string &output,
                            const std::string &marker) {
  size_t at = output.find(marker);
  if (at == std::string::npos)
    return -1;
  int made = 0;
  for (at = output.find("create:", at); at != std::string::npos;
       at = output.find("create:", at + 1))
    ++made;
  return made;
}

} // namespace nxrt_test

#endif // NXRT_UNITTESTS_ONEDNNVERBOSECHILD_H
