# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
[
  inputs: ["{mix,.formatter}.exs", "{config,lib,test,mix,bench}/**/*.{ex,exs}"]
]
