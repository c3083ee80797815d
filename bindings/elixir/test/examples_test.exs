# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.ExamplesTest do
  # The README's example, run as a user runs it (`mix run` evaluates the
  # script the same way).
  use ExUnit.Case, async: true
  import ExUnit.CaptureIO

  @example Path.expand("../examples/scale_and_log.exs", __DIR__)

  test "examples/scale_and_log.exs compiles, calls both callbacks and prints the result" do
    output = capture_io(fn -> Code.eval_file(@example) end)
    assert output =~ "y = [4.0, 7.0, 10.0, 13.0]"
    assert output =~ "main returned [4.0, 7.0, 10.0, 13.0]"
  end
end
