// nx-compile rejects bad arguments and programs with a message and exit 1.
// RUN: not nx-compile %s -o %t.txt 2>&1 | FileCheck %s --check-prefix=EXT
// RUN: not nx-compile %s -o %t.o --prefix=1net 2>&1 | FileCheck %s --check-prefix=PREFIX
// RUN: not nx-compile %s -o %t.o -mcpu=no-such-cpu 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not nx-compile %s -o %t.o -O4 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not nx-compile %t.missing.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo 'func.func @f(' > %t.broken.mlir
// RUN: not nx-compile %t.broken.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: echo 'func.func @nx_init(%%x: tensor<1xf32>) -> tensor<1xf32> { return %%x : tensor<1xf32> }' > %t.clash.mlir
// RUN: not nx-compile %t.clash.mlir -o %t.o --prefix=net 2>&1 | FileCheck %s --check-prefix=CLASH
// RUN: not nx-compile %s -o %t.so --cc=/no/such/cc 2>&1 | FileCheck %s --check-prefix=CC
// RUN: not nx-compile %s -o %t.so --runtime-dir=%t.nowhere 2>&1 | FileCheck %s --check-prefix=LINK
// The output's directory is checked before compiling, not by the linker.
// RUN: not nx-compile %s -o %t.nodir/x.so 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: nx-compile: error: -o '{{.*}}nodir/x.so' is in '{{.*}}nodir', which is no directory
// Without an input file, on a terminal: a usage line, not a silent wait for
// standard input (`script` gives the tools a terminal).
// RUN: not timeout 60 script -qec 'nx-compile -o %t.tty.so' /dev/null < /dev/null 2>&1 | FileCheck %s --check-prefix=TTY
// RUN: not timeout 60 script -qec 'nx-runner' /dev/null < /dev/null 2>&1 | FileCheck %s --check-prefix=TTY
// TTY: no input file given, and standard input is a terminal (usage: nx-{{compile model.mlir -o model.so|runner model.mlir}} [options]; '-' reads the program from standard input)

// EXT: nx-compile: error: -o must name a .o or .so file, got '{{.*}}.txt'
// PREFIX: nx-compile: error: --prefix must be a C identifier, got '1net'
// CPU-NOT: is not a recognized processor
// CPU: nx-compile: error: cannot target CPU 'no-such-cpu': unknown CPU 'no-such-cpu' for x86_64
// OPT: nx-compile: error: -O must be 0 to 3, got 4
// MISSING: nx-compile: error: cannot open input file '{{.*}}missing.mlir'
// PARSE: error: expected
// PARSE: nx-compile: error: cannot parse '{{.*}}broken.mlir'
// An op of a dialect nx does not know: no advice to pass a flag nx-compile
// does not have.
// RUN: printf 'func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}\n' > %t.unregistered.mlir
// RUN: not nx-compile %t.unregistered.mlir -o %t.unregistered.so 2>&1 | FileCheck %s --check-prefix=UNREGISTERED
// UNREGISTERED: error: operation being parsed with an unregistered dialect (nx-compile knows upstream MLIR's dialects and nx's, and compiles no other)
// UNREGISTERED-NOT: allow-unregistered-dialect
// CLASH: nx-compile: error: symbol net_nx_init is defined twice
// CC: nx-compile: error: cannot find the C compiler driver '/no/such/cc'
// LINK: nx-compile: error: linking failed: {{.*}} -L{{.*}}nowhere -lnxrt

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
