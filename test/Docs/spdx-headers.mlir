// Every source file states its license (Apache-2.0 WITH LLVM-exception, as in
// LICENSE) in an SPDX line near its top.
// RUN: find %nx_src_root/include %nx_src_root/lib %nx_src_root/tools \
// RUN:   %nx_src_root/runtime \
// RUN:   %nx_src_root/unittests %nx_src_root/bench %nx_src_root/cmake \
// RUN:   %nx_src_root/examples %nx_src_root/bindings/elixir/lib \
// RUN:   %nx_src_root/bindings/elixir/c_src %nx_src_root/bindings/elixir/test \
// RUN:   %nx_src_root/bindings/elixir/mix %nx_src_root/test/lib \
// RUN:   -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.c' -o -name '*.td' \
// RUN:   -o -name '*.def' -o -name '*.ex' -o -name '*.exs' -o -name '*.py' \
// RUN:   -o -name '*.sh' -o -name '*.cmake' -o -name CMakeLists.txt \) \
// RUN:   > %t.files
// RUN: test -s %t.files
// RUN: xargs awk 'FNR == 1 { found[FILENAME] = 0 } \
// RUN:   FNR <= 8 && /SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception/ { found[FILENAME] = 1 } \
// RUN:   END { for (f in found) if (!found[f]) print "no SPDX line: " f }' < %t.files > %t.missing
// RUN: count 0 < %t.missing
// RUN: grep -q "LLVM Exceptions to the Apache 2.0 License" %nx_src_root/LICENSE
