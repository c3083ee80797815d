// examples/aot-host: a C program that links examples/callbacks.mlir compiled
// ahead of time (nx-compile -o callbacks.o --emit-header=callbacks.h), binds
// its callbacks, opens its stream and calls callbacks_main within a run. Its
// own `main` and the program's @main coexist: the program's is
// callbacks_main.
// RUN: nx-aot-host | FileCheck %s

// CHECK: [vector at {{.*}}callbacks.mlir:20:13] 0.2 0.4 0.4 0.8
// CHECK: [vector at {{.*}}callbacks.mlir:29:12] 0.798139 0.913015 0.913015 1.1711
// CHECK: result: 0.798139 0.913015 0.913015 1.1711
// CHECK: outfeed "results": 1 tensor(s), first element 0.798139
