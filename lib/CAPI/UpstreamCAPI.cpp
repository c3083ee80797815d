//===- UpstreamCAPI.cpp - MLIR's own C API as a shared library ------------===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Intentionally empty: libNxMLIRCAPI.so is the whole contents of upstream's
// static C API archives (see CMakeLists.txt), and a library needs a source.
//
//===----------------------------------------------------------------------===//
