// Bad command lines fail with a clear message and exit code 1; nothing
// aborts.
//
// RUN: not nx-runner %s --input='[1, 2]:tensor<3xf32>' 2>&1 | FileCheck %s --check-prefix=BADVALUE
// BADVALUE: nx-runner: error: --input #0: invalid value '[1, 2]' for tensor<3xf32>: {{.*}}
// RUN: not nx-runner %s --input='[1, 2, 3]' 2>&1 | FileCheck %s --check-prefix=NOTYPE
// NOTYPE: nx-runner: error: --input #0: expected VALUE:TYPE (e.g. '[1, 2]:tensor<2xf32>'), got '[1, 2, 3]'
// RUN: not nx-runner %s --input='[1, 2, 3]:tensor<?xf32>' 2>&1 | FileCheck %s --check-prefix=DYNTYPE
// DYNTYPE: nx-runner: error: --input #0: type 'tensor<?xf32>' is not a statically shaped ranked tensor type
// RUN: not nx-runner %s --input='[1, 2, 3]:tensor<3xfoo>' 2>&1 | FileCheck %s --check-prefix=BADTYPE
// BADTYPE: nx-runner: error: --input #0: invalid type 'tensor<3xfoo>'
// RUN: not nx-runner %s --entry=nope --input='[1, 2, 3]:tensor<3xf32>' 2>&1 | FileCheck %s --check-prefix=NOENTRY
// NOENTRY: nx-runner: error: no public function @nope in the program (available: @main, @two, @printed, @unbound, @unopened)
// RUN: not nx-runner %s --compute-threads=-2 --input='[1, 2, 3]:tensor<3xf32>' 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: nx-runner: error: --compute-threads must be from 0 to 4096, got -2
// RUN: not nx-runner %s --repeat=0 --input='[1, 2, 3]:tensor<3xf32>' 2>&1 | FileCheck %s --check-prefix=REPEAT
// REPEAT: nx-runner: error: --repeat must be at least 1, got 0
// RUN: not nx-runner %s --threads=0 --input='[1, 2, 3]:tensor<3xf32>' 2>&1 | FileCheck %s --check-prefix=RUNTHREADS
// RUNTHREADS: nx-runner: error: --threads must be at least 1, got 0
// RUN: not nx-runner %s --dispatch=bridge --dispatch-threads=0 --input='[1, 2, 3]:tensor<3xf32>' 2>&1 | FileCheck %s --check-prefix=DISPATCHERS
// DISPATCHERS: nx-runner: error: --dispatch-threads must be at least 1 with --dispatch=bridge, got 0
// RUN: nx-runner --help | FileCheck %s --check-prefix=HELP
// HELP-DAG: --debug-callbacks {{.*}}(on by default; --debug-callbacks=false turns it off)
// HELP-DAG: --blas {{.*}}(default: true)
// HELP-DAG: --parallel {{.*}}(default: true)
// HELP-DAG: --vectorize {{.*}}(default: true)
// HELP-DAG: --strict-reductions {{.*}}(default: false)
// HELP-DAG: --repeat=<uint> {{.*}}(default: 1)
// HELP-DAG: --dispatch-threads=<uint> {{.*}}(default: 2)
// RUN: printf 'func.func @main() {\n  "foo.bar"() : () -> ()\n  return\n}\n' > %t.unregistered.mlir
// RUN: not nx-runner %t.unregistered.mlir 2>&1 | FileCheck %s --check-prefix=UNREGISTERED
// UNREGISTERED: error: operation being parsed with an unregistered dialect (nx's compiler knows upstream MLIR's dialects and nx's, and compiles no other)
// UNREGISTERED-NOT: allow-unregistered-dialect
// RUN: not nx-runner %s 2>&1 | FileCheck %s --check-prefix=ARITY
// ARITY: nx-runner: error: @main takes 1 argument(s), got 0
// RUN: not nx-runner %s --input='[1, 2, 3]:tensor<3xi32>' 2>&1 | FileCheck %s --check-prefix=WRONGTYPE
// WRONGTYPE: nx-runner: error: argument #0 of @main has type tensor<3xf32>, got tensor<3xi32>
// RUN: not nx-runner %s --input=@%t.missing.npy 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: nx-runner: error: --input #0: cannot read '{{.*}}missing.npy': {{.*}}
// RUN: echo "not numpy" > %t.bad.npy
// RUN: not nx-runner %s --input=@%t.bad.npy 2>&1 | FileCheck %s --check-prefix=BADNPY
// BADNPY: nx-runner: error: --input #0: '{{.*}}bad.npy' is not a valid .npy file: bad magic
// RUN: not nx-runner %s --callbacks=%t.nolib.so --input='[1, 2, 3]:tensor<3xf32>' 2>&1 | FileCheck %s --check-prefix=NOLIB
// NOLIB: nx-runner: error: cannot load callback library '{{.*}}nolib.so': {{.*}}
// RUN: not nx-runner %s --callbacks=%nx_libs/libnxrt.so --input='[1, 2, 3]:tensor<3xf32>' 2>&1 | FileCheck %s --check-prefix=NOSYM
// NOSYM: nx-runner: error: callback library '{{.*}}libnxrt.so' does not export nx_register_callbacks
// RUN: not nx-runner %s --infeed='[1]:tensor<1xf32>' --input='[1, 2, 3]:tensor<3xf32>' 2>&1 | FileCheck %s --check-prefix=BADFEED
// BADFEED: nx-runner: error: --infeed expects NAME=VALUE[;VALUE...], got '[1]:tensor<1xf32>'
// RUN: not nx-runner %s --infeed='feed=;;' --input='[1, 2, 3]:tensor<3xf32>' 2>&1 | FileCheck %s --check-prefix=NOVALUES
// NOVALUES: nx-runner: error: --infeed expects NAME=VALUE[;VALUE...], got 'feed=;;'
// More --output paths than results are refused before anything runs (the
// program's print would show otherwise), by both runners.
// RUN: not nx-runner %s --entry=printed --input='[1, 2, 3]:tensor<3xf32>' --output=%t.a.npy --output=%t.b.npy 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// RUN: nx-compile %s -o %t.so
// RUN: not nxrt-run %t.so --entry=printed --input='[1, 2, 3]:tensor<3xf32>' --output=%t.a.npy --output=%t.b.npy 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// OUTPUTS-NOT: = [1, 2, 3]
// OUTPUTS: error: 2 --output paths for the 1 result(s) of @printed
// OUTPUTS-NOT: = [1, 2, 3]
// The runners check the inputs before they run, too.
// RUN: not nxrt-run %t.so --input='[1, 2]:tensor<2xf32>' 2>&1 | FileCheck %s --check-prefix=AOTTYPE
// AOTTYPE: nxrt-run: error: argument #0 of @main has type tensor<3xf32>, got tensor<2xf32>
// A callback nothing binds and a stream nothing opens come with a hint.
// RUN: not nx-runner %s --entry=unbound --input='[1, 2, 3]:tensor<3xf32>' 2>&1 | FileCheck %s --check-prefix=UNBOUND
// UNBOUND: error: unknown callback @scale at {{.*}}cli-errors.mlir:{{[0-9]+}}:{{[0-9]+}}
// UNBOUND: note: nothing binds callback @scale: pass --callbacks=LIB, a shared library whose nx_register_callbacks registers it
// RUN: not nx-runner %s --entry=unopened --input='[1, 2, 3]:tensor<3xf32>' 2>&1 | FileCheck %s --check-prefix=UNOPENED
// UNOPENED: error: {{.*}}no stream named 'bias'
// UNOPENED: note: no flag opens stream 'bias': pass --outfeed=bias to print what the program writes to it, --infeed=bias=VALUE to feed it, or --stream=bias to open it without either
// Every --output is checked before the program runs, and a write that fails
// names its output.
// RUN: not nx-runner %s --input='[1, 2, 3]:tensor<3xf32>' --output=%t.result.txt 2>&1 | FileCheck %s --check-prefix=NOTNPY
// NOTNPY: nx-runner: error: --output #0: '{{.*}}result.txt' is not a .npy path (results are written as NumPy .npy files)
// NOTNPY-NOT: result #0
// RUN: not nx-runner %s --input='[1, 2, 3]:tensor<3xf32>' --output=%t.nodir/result.npy 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: nx-runner: error: --output #0: '{{.*}}nodir/result.npy' is in '{{.*}}nodir', which is no directory
// RUN: rm -rf %t.isdir.npy && mkdir -p %t.isdir.npy
// RUN: not nx-runner %s --input='[1, 2, 3]:tensor<3xf32>' --output=%t.isdir.npy 2>&1 | FileCheck %s --check-prefix=WRITE
// WRITE: nx-runner: error: --output #0 (result #0): cannot write '{{.*}}isdir.npy'
// RUN: not nx-runner %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=NOMLIR
// NOMLIR: nx-runner: error: cannot read '{{.*}}does-not-exist.mlir': {{.*}}
// RUN: echo "func.func @f( {" > %t.broken.mlir
// RUN: not nx-runner %t.broken.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: nx-runner: error: cannot parse '{{.*}}broken.mlir':
// PARSE-NEXT: {{.*}}broken.mlir:1:{{[0-9]+}}: error: {{.*}}
// PARSE-NEXT: func.func @f( {
// PARSE-NEXT: {{ *}}^
// One diagnostic format in every tool: file:line:col, the source line and a
// caret; a verifier error is called one, without the op in generic form
// unless asked for.
// RUN: printf 'func.func @main(%%%%x: tensor<3xf32>) -> tensor<3xf32> {\n  return\n}\n' > %t.invalid.mlir
// RUN: not nx-runner %t.invalid.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not nx-compile %t.invalid.mlir -o %t.invalid.so 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY-NOT: see current operation
// VERIFY-DAG: {{.*}}invalid.mlir:2:3: error: 'func.return' op has 0 operands, but enclosing function (@main) returns 1
// VERIFY-DAG: error: '{{.*}}invalid.mlir' fails verification
// VERIFY-NOT: see current operation
// RUN: not nx-runner %t.invalid.mlir --mlir-print-op-on-diagnostic 2>&1 | FileCheck %s --check-prefix=OPNOTE
// OPNOTE: note: see current operation: "func.return"() : () -> ()

func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = arith.addf %x, %x : tensor<3xf32>
  return %y : tensor<3xf32>
}

func.func @two(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %z = arith.addf %x, %y : tensor<3xf32>
  return %z : tensor<3xf32>
}

nx.callback @nx.debug.print : (tensor<3xf32>) -> ()
nx.callback @scale : (tensor<3xf32>) -> tensor<3xf32>

func.func @printed(%x: tensor<3xf32>) -> tensor<3xf32> {
  %p = nx.io_callback @nx.debug.print(%x) : tensor<3xf32>
  return %p : tensor<3xf32>
}

func.func @unbound(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = nx.elixir_call @scale(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

func.func @unopened(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = nx.infeed from "bias" : tensor<3xf32>
  return %y : tensor<3xf32>
}
