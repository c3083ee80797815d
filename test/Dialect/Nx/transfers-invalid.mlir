// RUN: nx-opt %s -split-input-file -verify-diagnostics

func.func @type_mismatch(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @below {{'nx.to_device' op requires the same type for all operands and results}}
  %d = "nx.to_device"(%x) {device = "cuda"} : (tensor<4xf32>) -> tensor<4xf16>
  return %d : tensor<4xf16>
}

// -----

func.func @empty_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'nx.to_host' op attribute 'device' failed to satisfy constraint: string attribute that is not empty}}
  %h = nx.to_host %x from "" : tensor<4xf32>
  return %h : tensor<4xf32>
}

// -----

func.func @missing_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'nx.to_device' op requires attribute 'device'}}
  %d = "nx.to_device"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// expected-error @below {{'nx.device' must be a non-empty string, got 3 : i64}}
func.func @bad_device() attributes {nx.device = 3} {
  return
}

// -----

// expected-error @below {{'nx.device' must be a non-empty string, got ""}}
func.func @empty_device_attr() attributes {nx.device = ""} {
  return
}

// -----

// expected-error @below {{'nx.device' must be one of host, cuda, rocm, tpu, got "gpu"}}
func.func @unknown_device() attributes {nx.device = "gpu"} {
  return
}

// -----

// expected-error @below {{'nx.host_orchestrator' must be a unit attribute, got true}}
func.func @bad_orchestrator() attributes {nx.host_orchestrator = true} {
  return
}

// -----

// expected-error @below {{'nx.host_orchestrator' must be on a function, got 'builtin.module'}}
module attributes {nx.host_orchestrator} {
}
