// RUN: nx-opt %s -split-input-file -allow-unregistered-dialect -nx-assign-callback-ids -nx-export-stablehlo -verify-diagnostics

// A callback's record goes on the symbol table that declares it; an
// unregistered op is none.
"test.container"() ({
  // expected-error @+1 {{'nx.callback' op cannot be exported: it is declared in 'test.container', which is not a symbol table to record it on}}
  nx.callback @log : (tensor<2xf32>) -> ()
  "test.end"() : () -> ()
}) : () -> ()
