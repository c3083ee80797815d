// RUN: not nx-opt %s -nx-tile-transposes=tile-size=0 2>&1 | FileCheck %s
// RUN: not nx-opt %s "-nx-tile-transposes=tile-size=64 outer-block-size=32" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OUTER

// A block needs at least one element a side.
// CHECK: error: nx-tile-transposes: option 'tile-size' must be at least 1, got 0

// An outer block groups whole blocks: no smaller than one.
// OUTER: error: nx-tile-transposes: option 'outer-block-size' must be at least 64, got 32
func.func @f() {
  return
}
