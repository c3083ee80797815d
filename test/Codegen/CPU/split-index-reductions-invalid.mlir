// RUN: not nx-opt %s -nx-split-index-reductions=vector-bits=8 2>&1 | FileCheck %s
// RUN: not nx-opt %s -nx-split-index-reductions=vector-bits=9223372036854775806 2>&1 | FileCheck %s --check-prefix=WIDE

// Fewer bits than one 16-bit element hold no vector.
// CHECK: error: nx-split-index-reductions: option 'vector-bits' must be at least 16, got 8
// More than twice the widest vector registers (2048 bits) only make tiles
// whose sizes overflow (found by fuzzing).
// WIDE: error: nx-split-index-reductions: option 'vector-bits' must be at most 4096, got 9223372036854775806
func.func @f() {
  return
}
