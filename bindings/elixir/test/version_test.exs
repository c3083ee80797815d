# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.VersionTest do
  use ExUnit.Case, async: true

  test "the binding's version is nx-mlir's" do
    cmake = File.read!(Path.expand("../../../CMakeLists.txt", __DIR__))
    [_, version] = Regex.run(~r/project\(nx-mlir VERSION ([0-9.]+)/, cmake)
    assert to_string(Application.spec(:nx_runtime, :vsn)) == version
  end
end
