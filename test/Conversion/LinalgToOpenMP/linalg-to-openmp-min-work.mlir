// RUN: not nx-opt %s -nx-linalg-to-openmp='min-work=0' 2>&1 | FileCheck %s

// A threshold below one point is no threshold.
// CHECK: error: nx-linalg-to-openmp: option 'min-work' must be at least 1, got 0
func.func @f() {
  return
}
