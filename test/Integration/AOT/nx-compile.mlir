// nx-compile: what the object exports, its header, and that it runs.
// RUN: nx-compile %s -o %t.o --emit-header=%t.h
// RUN: llvm-nm --extern-only --defined-only %t.o | FileCheck %s --check-prefix=SYMS
// RUN: FileCheck %s --check-prefix=HEADER < %t.h
// RUN: nx-compile %s -o %t.model.so --prefix=net -mcpu=x86-64 -O3
// RUN: llvm-readelf --dyn-syms %t.model.so | FileCheck %s --check-prefix=DYN
// RUN: nxrt-run %t.model.so --prefix=net --input='[1, 2, 3, 4]:tensor<4xf32>' \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: nxrt-run %t.model.so --prefix=net --entry=split \
// RUN:   --input='[1, 2, 3, 4]:tensor<4xf32>' | FileCheck %s --check-prefix=SPLIT

// Only the prefixed exports are global: the entries' C interfaces, the
// initializer and the descriptor, with the output file's stem as prefix;
// `main` is not among them.
// SYMS-NOT: {{ main$}}
// SYMS: T nx_compile_mlir_tmp_main
// SYMS-NEXT: T nx_compile_mlir_tmp_nx_init
// SYMS-NEXT: D nx_compile_mlir_tmp_program
// SYMS-NEXT: T nx_compile_mlir_tmp_split
// SYMS-NOT: {{.}}

// HEADER: #include "nxrt/nxrt_aot.h"
// HEADER: typedef struct {
// HEADER-NEXT:   float *allocated;
// HEADER-NEXT:   float *aligned;
// HEADER-NEXT:   int64_t offset;
// HEADER-NEXT:   int64_t sizes[1];
// HEADER-NEXT:   int64_t strides[1];
// HEADER-NEXT: } [[P:.*]]_memref_f32_1d_t;
// HEADER: typedef struct {
// HEADER-NEXT:   float *allocated;
// HEADER-NEXT:   float *aligned;
// HEADER-NEXT:   int64_t offset;
// HEADER-NEXT: } [[P]]_memref_f32_0d_t;
// HEADER: void [[P]]_main([[P]]_memref_f32_1d_t *result, [[P]]_memref_f32_1d_t *arg0);
// HEADER: } [[P]]_split_results_t;
// HEADER: void [[P]]_split([[P]]_split_results_t *results, [[P]]_memref_f32_1d_t *arg0);
// HEADER: nxrt_status_t *[[P]]_nx_init(nxrt_program_t *program);
// HEADER: extern const nxrt_aot_program_t [[P]]_program;

// DYN-DAG: {{ net_main$}}
// DYN-DAG: {{ net_split$}}
// DYN-DAG: {{ net_nx_init$}}
// DYN-DAG: {{ net_program$}}

// EXEC: result #0: tensor<4xf32> = [2, 3, 4, 5]
// SPLIT: result #0: tensor<4xf32> = [1, 2, 3, 4]
// SPLIT-NEXT: result #1: tensor<f32> = 10

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %y = arith.addf %x, %one : tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @split(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
  %zero = arith.constant dense<0.0> : tensor<f32>
  %sum = linalg.reduce ins(%x : tensor<4xf32>) outs(%zero : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %x, %sum : tensor<4xf32>, tensor<f32>
}
