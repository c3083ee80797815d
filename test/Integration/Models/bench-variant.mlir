// nx-bench-models times every model and op a second time, compiled with the
// nx-lower-to-cpu options in NX_BENCH_VARIANT, only when that is set; an
// option the pipeline does not know stops the program with its name.
// REQUIRES: nx-bench-models
// RUN: env NX_BENCH_VARIANT='reduction-vector-bits=512' %nx_tools/nx-bench-models \
// RUN:   --benchmark_list_tests=true | FileCheck %s
// RUN: %nx_tools/nx-bench-models --benchmark_list_tests=true \
// RUN:   | FileCheck %s --check-prefix=PLAIN
// RUN: not env NX_BENCH_VARIANT='no-such-option=1' %nx_tools/nx-bench-models \
// RUN:   --benchmark_filter='BM_OpVariant/row-sum/threads:1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD

// CHECK: BM_Model/mlp/threads:1
// CHECK: BM_ModelVariant/mlp/threads:1
// CHECK: BM_OpVariant/row-sum/threads:1
// PLAIN: BM_Op/row-sum/threads:1
// PLAIN-NOT: Variant
// BAD: nx benchmark: invalid nx-lower-to-cpu options 'no-such-option=1'
