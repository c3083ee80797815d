// RUN: not nx-opt %s -nx-tile-transposes=tile-size=0 2>&1 | FileCheck %s

// A block needs at least one element a side.
// CHECK: error: nx-tile-transposes: option 'tile-size' must be at least 1, got 0
func.func @f() {
  return
}
