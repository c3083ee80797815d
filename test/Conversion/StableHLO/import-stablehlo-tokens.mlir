// Tokens: `!stablehlo.token` becomes `!nx.token` everywhere, and
// `stablehlo.create_token` / `stablehlo.after_all` become `nx.create_token`
// / `nx.after_all`; the export turns them back.
// RUN: nx-opt %s --allow-unregistered-dialect -nx-import-stablehlo | FileCheck %s --enable-var-scope
// RUN: nx-opt %s --allow-unregistered-dialect -nx-import-stablehlo -nx-export-stablehlo | FileCheck %s --check-prefix=EXPORT --enable-var-scope

// EXLA's ordered runtime_call: the token first, then the callback server
// handle, then the data.
// CHECK-LABEL: func.func @ordered
// CHECK-SAME: (%[[T0:.+]]: !nx.token, %[[PID:.+]]: tensor<27xui8>, %[[X:.+]]: tensor<2xf32>) -> (!nx.token, tensor<2xf32>)
// CHECK: %[[T1:.+]] = nx.create_token : !nx.token
// CHECK: %[[T2:.+]] = nx.after_all %[[T0]], %[[T1]] : !nx.token
// CHECK: %[[R:.+]]:2 = nx.custom_call @exla_runtime_callback(%[[T2]], %[[PID]], %[[X]]) {api_version = 4 : i32, backend_config = {callback_id = array<i64: 5>, callback_id_size = 8 : ui64}, has_side_effect = true} : (!nx.token, tensor<27xui8>, tensor<2xf32>) -> (!nx.token, tensor<2xf32>)
// CHECK: return %[[R]]#0, %[[R]]#1 : !nx.token, tensor<2xf32>

// EXPORT-LABEL: func.func @ordered
// EXPORT-SAME: (%[[T0:.+]]: !stablehlo.token, %{{.+}}: tensor<27xui8>, %{{.+}}: tensor<2xf32>) -> (!stablehlo.token, tensor<2xf32>)
// EXPORT: %[[T1:.+]] = "stablehlo.create_token"() : () -> !stablehlo.token
// EXPORT: %[[T2:.+]] = "stablehlo.after_all"(%[[T0]], %[[T1]]) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token
// EXPORT: "stablehlo.custom_call"(%[[T2]], {{.+}} : (!stablehlo.token, tensor<27xui8>, tensor<2xf32>) -> (!stablehlo.token, tensor<2xf32>)
// EXPORT-NOT: nx.
func.func @ordered(%t: !stablehlo.token, %pid: tensor<27xui8>, %x: tensor<2xf32>) -> (!stablehlo.token, tensor<2xf32>) {
  %t1 = "stablehlo.create_token"() : () -> !stablehlo.token
  %t2 = "stablehlo.after_all"(%t, %t1) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token
  %0:2 = "stablehlo.custom_call"(%t2, %pid, %x) <{api_version = 4 : i32, backend_config = {callback_id = array<i64: 5>, callback_id_size = 8 : ui64}, call_target_name = "exla_runtime_callback", has_side_effect = true}> : (!stablehlo.token, tensor<27xui8>, tensor<2xf32>) -> (!stablehlo.token, tensor<2xf32>)
  return %0#0, %0#1 : !stablehlo.token, tensor<2xf32>
}
