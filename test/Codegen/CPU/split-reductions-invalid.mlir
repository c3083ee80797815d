// RUN: not nx-opt %s -nx-split-reductions=vector-bits=8 2>&1 | FileCheck %s
// RUN: not nx-opt %s -nx-split-reductions=reduction-vector-bits=8 2>&1 | FileCheck %s --check-prefix=REDUCTION
// RUN: not nx-opt %s -nx-split-reductions=vector-bits=9223372036854775806 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not nx-opt %s -nx-split-reductions=reduction-vector-bits=8192 2>&1 | FileCheck %s --check-prefix=WIDE-REDUCTION

// Fewer bits than one 16-bit element hold no vector.
// CHECK: error: nx-split-reductions: option 'vector-bits' must be at least 16, got 8
// REDUCTION: error: nx-split-reductions: option 'reduction-vector-bits' must be at least 16, got 8
// More than twice the widest vector registers (2048 bits) only make tiles
// whose sizes overflow (found by fuzzing).
// WIDE: error: nx-split-reductions: option 'vector-bits' must be at most 4096, got 9223372036854775806
// WIDE-REDUCTION: error: nx-split-reductions: option 'reduction-vector-bits' must be at most 4096, got 8192
func.func @f() {
  return
}
