// Long compiles show their phases as they start, on stderr: by default only
// on a terminal, as one status line rewritten in place and erased when the
// compile ends; --progress=always prints one line per phase anywhere.
// RUN: nx-runner %s --progress=always --input='[1, 2]:tensor<2xf32>' 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=LINES
// RUN: nx-runner %s --input='[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=QUIET --implicit-check-not=nx-lower-to-cpu
// RUN: nx-runner %s --progress=never --input='[1, 2]:tensor<2xf32>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=QUIET --implicit-check-not=nx-lower-to-cpu
// A terminal (script(1) gives the runner one) sees the status line, erased
// before the results are printed. (The runner itself, also when the suite
// checks the ahead-of-time path, whose stand-in is no terminal.)
// RUN: script -qec "%nx_tools/nx-runner %s --input='[1, 2]:tensor<2xf32>'" /dev/null \
// RUN:   | cat -v | FileCheck %s --check-prefix=TTY
// RUN: nx-compile %s -o %t.so --progress=always 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AOT

// LINES:      nx-runner: parse
// LINES-NEXT: nx-runner: nx-lower-to-cpu
// LINES-NEXT: nx-runner: translate to LLVM IR
// LINES-NEXT: nx-runner: optimize LLVM IR
// LINES-NEXT: nx-runner: JIT code generation
// LINES-NEXT: nx-runner: load (__nx_init)
// LINES-NOT: {{.}}

// QUIET: result #0: tensor<2xf32> = [2, 4]

// TTY: ^M^{{\[\[}}Knx-runner: parse...^M^{{\[\[}}Knx-runner: nx-lower-to-cpu...
// TTY-SAME: ^M^{{\[\[}}Knx-runner: load (__nx_init)...^M^{{\[\[}}Kresult #0: tensor<2xf32> = [2, 4]

// AOT:      nx-compile: parse
// AOT-NEXT: nx-compile: nx-lower-to-cpu
// AOT-NEXT: nx-compile: translate to LLVM IR
// AOT-NEXT: nx-compile: optimize LLVM IR
// AOT-NEXT: nx-compile: code generation
// AOT-NEXT: nx-compile: link
// AOT-NOT: {{.}}

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = arith.addf %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
