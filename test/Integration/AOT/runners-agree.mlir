// Every integration program runs through both runners: each `nx-runner` of
// test/Integration/CPU runs the JIT and the ahead-of-time path (nx-compile,
// then nxrt-run, which links no MLIR), which must print the same results,
// outfeeds and errors; the tests' own checks then hold for the AOT path too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %lit -q --param nx_runner=aot --param nx_exec_root=%t \
// RUN:   %nx_obj_root/test/Integration/CPU
