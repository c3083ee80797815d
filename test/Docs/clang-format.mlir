// Every C and C++ source is formatted as .clang-format says (LLVM style;
// the C ABI headers under runtime/include/nxrt opt out). Fix a failure with
//   clang-format -i <file>
// RUN: find %nx_src_root/include %nx_src_root/lib %nx_src_root/tools \
// RUN:   %nx_src_root/runtime %nx_src_root/unittests %nx_src_root/bench \
// RUN:   %nx_src_root/examples %nx_src_root/test/lib %nx_src_root/test/CAPI \
// RUN:   %nx_src_root/test/Integration %nx_src_root/bindings/elixir/c_src \
// RUN:   -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.c' \) > %t.files
// RUN: test -s %t.files
// RUN: xargs clang-format --dry-run -Werror < %t.files
