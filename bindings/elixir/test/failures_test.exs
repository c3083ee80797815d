# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.FailuresTest do
  use ExUnit.Case
  import NxRuntime.TestHelpers
  alias NxRuntime.{Error, Tensor}

  # @split misbehaves when its input's first element says so, and answers
  # correctly otherwise, so each failure can be followed by a good run.
  defp split([x], _) do
    case Tensor.to_list(x) do
      [-1.0 | _] -> {f32([1, 2]), x}
      [-2.0 | _] -> {Tensor.new([1, 2, 3], {:f, 64}), x}
      [-3.0 | _] -> x
      [-4.0 | _] -> {:oops, x}
      [-5.0 | _] -> raise "boom"
      [-6.0 | _] -> throw(:thrown)
      [-7.0 | _] -> exit(:gone)
      [-8.0 | _] -> {%Tensor{data: <<0>>, type: {:f, 32}, shape: {3}}, x}
      _ -> {x, x}
    end
  end

  setup do
    rt = runtime(%{"split" => &split/2})
    %{rt: rt, program: NxRuntime.TestPrograms.load(rt, "calls")}
  end

  defp run_split(p, first), do: NxRuntime.run(p, "split_and_sum", [f32([first, 2, 3])])

  defp assert_good_run(p), do: assert([%Tensor{} = y] = run_split(p, 1)) && y

  defp assert_fails(p, first, pattern) do
    error = assert_raise Error, fn -> run_split(p, first) end
    assert error.message =~ ~r/callback @split at \S*calls\.mlir:\d+:\d+ failed: /
    assert error.message =~ pattern
    assert Tensor.to_list(assert_good_run(p)) == [2.0, 4.0, 6.0]
    error
  end

  test "a result of the wrong shape, then a good run", %{program: p} do
    assert_fails(
      p,
      -1,
      "expected the elixir_call function to match the given output template " <>
        "(tensor<3xf32>, tensor<3xf32>), got (tensor<2xf32>, tensor<3xf32>)"
    )
  end

  test "a result of the wrong type, then a good run", %{program: p} do
    assert_fails(p, -2, "got (tensor<3xf64>, tensor<3xf32>)")
  end

  test "too few results, then a good run", %{program: p} do
    assert_fails(p, -3, "(tensor<3xf32>, tensor<3xf32>), got (tensor<3xf32>)")
  end

  test "a result that is not a tensor, then a good run", %{program: p} do
    assert_fails(p, -4, "got (:oops, tensor<3xf32>)")
  end

  test "a result whose data does not fit its shape, then a good run", %{program: p} do
    assert_fails(p, -8, "tensor data size does not match its type and shape")
  end

  test "a raised exception names the callback and the op, then a good run", %{program: p} do
    error = assert_fails(p, -5, "(RuntimeError) boom")
    assert error.code == :unknown
  end

  test "a throw and an exit fail the run too", %{program: p} do
    assert_fails(p, -6, "(throw) :thrown")
    assert_fails(p, -7, "(exit) :gone")
  end

  test "a callback without a function fails the run as unknown", %{program: p} do
    error = assert_raise Error, fn -> NxRuntime.run(p, "for_loop", [f32([1, 2])]) end
    assert error.message =~ ~r/unknown callback @double at \S*calls\.mlir:\d+:\d+/
    assert_good_run(p)
  end

  test "bad entries and inputs are refused before running", %{program: p} do
    error = assert_raise Error, fn -> NxRuntime.run(p, "nope", []) end
    assert error.code == :not_found
    assert error.message =~ "no public function @nope in the program (available: @offset,"

    error = assert_raise Error, fn -> NxRuntime.run(p, "split_and_sum", []) end
    assert error.message == "@split_and_sum takes 1 argument(s), got 0"

    error = assert_raise Error, fn -> NxRuntime.run(p, "split_and_sum", [f32([1, 2])]) end

    assert error.message ==
             "argument #0 of @split_and_sum has type tensor<3xf32>, got tensor<2xf32>"

    bad = %Tensor{data: <<1, 2>>, type: {:f, 32}, shape: {3}}
    error = assert_raise Error, fn -> NxRuntime.run(p, "split_and_sum", [bad]) end
    assert error.message == "tensor data size does not match its type and shape"

    bad = %Tensor{data: <<>>, type: {:q, 7}, shape: {0}}
    error = assert_raise Error, fn -> NxRuntime.run(p, "split_and_sum", [bad]) end
    assert error.message =~ "unknown tensor type"

    assert_raise ArgumentError, ~r/expected an NxRuntime.Tensor/, fn ->
      NxRuntime.run(p, "split_and_sum", [[1, 2, 3]])
    end
  end

  test "loading what is not an nx-compile object fails clearly", %{rt: rt} do
    error = assert_raise Error, fn -> NxRuntime.load(rt, "/nonexistent/model.so") end
    assert error.message =~ "cannot open '/nonexistent/model.so'"

    path = NxRuntime.TestPrograms.path("calls")
    error = assert_raise Error, fn -> NxRuntime.load(rt, path, prefix: "other") end
    assert error.message =~ "does not export other_program"

    nif = Path.join(:code.priv_dir(:nx_runtime), "nx_runtime_nif.so")
    error = assert_raise Error, fn -> NxRuntime.load(rt, nif) end
    assert error.message =~ "does not export nx_runtime_nif_program"
  end

  test "a callback name is bound once per runtime", %{rt: rt} do
    error = assert_raise Error, fn -> NxRuntime.register_callback(rt, "split", &split/2) end
    assert error.code == :already_exists

    error = assert_raise Error, fn -> NxRuntime.register_callback(rt, "", &split/2) end
    assert error.message =~ "non-empty"
  end

  test "a callback named twice in :callbacks is an error of start_link" do
    Process.flag(:trap_exit, true)

    assert {:error, %Error{code: :already_exists} = error} =
             NxRuntime.start_link(callbacks: [{"twice", &split/2}, {"twice", &split/2}])

    assert error.message =~ "twice"

    assert {:error, %Error{code: :invalid_argument} = error} =
             NxRuntime.start_link(callbacks: [{"bad", :not_a_function}])

    assert error.message =~ ~s(callback "bad": expected a function of arity 2)
  end

  test "a stopped dispatcher fails runs at once", %{rt: rt, program: p} do
    assert_good_run(p)
    :ok = stop_supervised(NxRuntime)
    refute Process.alive?(rt)
    error = assert_raise Error, fn -> run_split(p, 1) end
    assert error.message =~ "callback @split at"
    assert error.message =~ "bridge dispatcher closed"
  end
end
