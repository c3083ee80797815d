// RUN: not nx-opt %s -nx-vectorize-linalg=vector-bits=8 2>&1 | FileCheck %s
// RUN: not nx-opt %s -nx-vectorize-linalg=reduction-vector-bits=8 2>&1 | FileCheck %s --check-prefix=REDUCTION

// Fewer bits than one 16-bit element hold no vector.
// CHECK: error: nx-vectorize-linalg: option 'vector-bits' must be at least 16, got 8
// REDUCTION: error: nx-vectorize-linalg: option 'reduction-vector-bits' must be at least 16, got 8
func.func @f() {
  return
}
