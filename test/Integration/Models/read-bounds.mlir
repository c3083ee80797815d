// The read bounds of nx-bench-models read every word of their input, one
// stream (BM_ReadBound) or four (BM_ReadBoundStreams): before timing, each
// finds one set bit in any word of a probe of zeros (two lines of each
// quarter and a tail), or reports the benchmark as failed.
// REQUIRES: nx-bench-models
// RUN: %nx_tools/nx-bench-models --benchmark_filter='BM_ReadBound' \
// RUN:   --benchmark_min_time=0.000001 2>&1 | FileCheck %s

// CHECK-NOT: ERROR OCCURRED
// CHECK: BM_ReadBound/2048x2048/threads:1
// CHECK-NOT: ERROR OCCURRED
// CHECK: BM_ReadBoundStreams/2048x2048/threads:1
// CHECK-NOT: ERROR OCCURRED
// CHECK: BM_ReadBoundStreams/2048x2048/threads:0
// CHECK-NOT: ERROR OCCURRED
