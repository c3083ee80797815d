// RUN: not nx-opt %s -nx-split-reductions=vector-bits=8 2>&1 | FileCheck %s
// RUN: not nx-opt %s -nx-split-reductions=reduction-vector-bits=8 2>&1 | FileCheck %s --check-prefix=REDUCTION

// Fewer bits than one 16-bit element hold no vector.
// CHECK: error: nx-split-reductions: option 'vector-bits' must be at least 16, got 8
// REDUCTION: error: nx-split-reductions: option 'reduction-vector-bits' must be at least 16, got 8
func.func @f() {
  return
}
