// RUN: nx-opt %s -nx-prepare-entry-points | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.+}}: tensor<4xf32> {bufferization.writable = false}, %{{.+}}: i32, %{{.+}}: tensor<2xi8> {bufferization.writable = false})
// CHECK-SAME: attributes {llvm.emit_c_interface}
func.func @main(%x: tensor<4xf32>, %i: i32, %y: tensor<2xi8>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// Private functions and declarations are not entry points.
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%{{.+}}: tensor<4xf32>) -> tensor<4xf32> {
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// CHECK-LABEL: func.func private @external
// CHECK-NOT: emit_c_interface
func.func private @external(tensor<4xf32>) -> tensor<4xf32>
