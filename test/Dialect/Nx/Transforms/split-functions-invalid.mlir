// RUN: nx-opt %s -nx-split-functions=max-ops=1 -verify-diagnostics

// expected-error @below {{nx-split-functions expects 'max-ops' to be at least 2, got 1}}
module {
  func.func @f() {
    return
  }
}
