//===- UpstreamCAPI.cpp - MLIR's own C API as a shared library ------------===//
//
// Intentionally empty: libNxMLIRCAPI.so is the whole contents of upstream's
// static C API archives (see CMakeLists.txt), and a library needs a source.
//
//===----------------------------------------------------------------------===//
