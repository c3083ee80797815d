// RUN: not nx-opt %s -nx-split-index-reductions=vector-bits=8 2>&1 | FileCheck %s

// Fewer bits than one 16-bit element hold no vector.
// CHECK: error: nx-split-index-reductions: option 'vector-bits' must be at least 16, got 8
func.func @f() {
  return
}
