// RUN: not nx-opt %s -nx-linalg-to-blas='num-threads-function=threads min-work=0' 2>&1 | FileCheck %s

// A threshold below one multiply-add is no threshold.
// CHECK: error: nx-linalg-to-blas: option 'min-work' must be at least 1, got 0
func.func @f() {
  return
}
