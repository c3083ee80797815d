// RUN: nx-opt %s -split-input-file -nx-split-functions=max-ops=1 -verify-diagnostics

// expected-error @below {{nx-split-functions expects 'max-ops' to be at least 2, got 1}}
module {
  func.func @f() {
    return
  }
}

// -----

// expected-error @below {{'nx.piece' must be a unit attribute, got 1 : i64}}
func.func private @piece() attributes {nx.piece = 1} {
  return
}

// -----

// expected-error @below {{'nx.piece' must be on a function, got 'builtin.module'}}
module attributes {nx.piece} {
}
