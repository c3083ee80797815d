# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.FfiTest do
  use ExUnit.Case
  import NxRuntime.TestHelpers
  alias NxRuntime.Tensor

  # The C handlers of the integration tests, built next to libnxrt.
  @handlers Path.join(
              System.get_env("NX_LIB_DIR", Path.expand("../../../build/lib", __DIR__)),
              "libNxTestFfiHandlers.so"
            )

  setup_all do
    unless File.exists?(@handlers) do
      raise "#{@handlers} not found: build the NxTestFfiHandlers target or set NX_LIB_DIR"
    end

    # Handlers are process-wide: loading the library twice registers
    # nothing new, which is not an error once asked so.
    NxRuntime.load_ffi_library(@handlers, require_handlers: false)
    :ok
  end

  setup do
    %{program: NxRuntime.TestPrograms.load(runtime(%{}), "ffi")}
  end

  test "an XLA FFI handler runs with its attribute", %{program: program} do
    [y] = NxRuntime.run(program, "rms_norm", [f32([1, 2, 3, 4, -1, 0, 1, 2], {2, 4})])

    expected =
      for row <- [[1, 2, 3, 4], [-1, 0, 1, 2]],
          scale = 1 / :math.sqrt(Enum.sum(Enum.map(row, &(&1 * &1))) / 4 + 1.0e-5),
          x <- row,
          do: x * scale

    for {got, want} <- Enum.zip(Tensor.to_list(y), expected),
        do: assert_in_delta(got, want, 1.0e-5)
  end

  test "an exported handler binds by symbol", %{program: program} do
    :ok = NxRuntime.register_ffi_target("test_ffi.elixir_negate", @handlers, "nx_test_ffi_negate")
    [y] = NxRuntime.run(program, "negate", [f32([1, -2])])
    assert Tensor.to_list(y) == [-1.0, 2.0]
  end

  test "a handler's error fails the run with its message", %{program: program} do
    error = assert_raise NxRuntime.Error, fn -> NxRuntime.run(program, "fails", [f32([1, 2])]) end
    assert error.message =~ ~r/custom call @test_ffi.fail at .*ffi.mlir:\d+:\d+ failed: the fail handler always fails/
  end

  test "a library that cannot be loaded is an error naming it" do
    error = assert_raise NxRuntime.Error, fn -> NxRuntime.load_ffi_library("/no/such/lib.so") end
    assert error.message =~ "cannot load XLA FFI library '/no/such/lib.so'"
  end

  test "a library that registers nothing is an error unless asked otherwise" do
    error = assert_raise NxRuntime.Error, fn -> NxRuntime.load_ffi_library(@handlers) end
    assert error.message =~ "registered no handler when loaded"
  end
end
