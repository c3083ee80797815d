// The copy bound of nx-bench-models (BM_CopyBound, a streamed copy of the
// transpose's 2048x2048 input) copies every word: before timing, it compares
// a whole copy with its input, or reports the benchmark as failed.
// REQUIRES: nx-bench-models
// RUN: %nx_tools/nx-bench-models --benchmark_filter='BM_CopyBound' \
// RUN:   --benchmark_min_time=0.000001 2>&1 | FileCheck %s

// CHECK-NOT: ERROR OCCURRED
// CHECK: BM_CopyBound/2048x2048/threads:1
// CHECK-NOT: ERROR OCCURRED
// CHECK: BM_CopyBound/2048x2048/threads:0
// CHECK-NOT: ERROR OCCURRED
