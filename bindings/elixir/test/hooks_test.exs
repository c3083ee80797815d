# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.HooksTest do
  use ExUnit.Case
  import NxRuntime.TestHelpers
  alias NxRuntime.{Error, Tensor}

  setup do
    test = self()

    hook = fn name ->
      fn [x], %{"step" => step} ->
        if Tensor.to_list(x) == [-1.0, -1.0], do: raise("hook #{name} refused")
        send(test, {:hook, step, name, Tensor.to_list(x)})
        :ignored
      end
    end

    rt = runtime(%{"hook.first" => hook.("first"), "hook.second" => hook.("second")})
    %{rt: rt, program: NxRuntime.TestPrograms.load(rt, "hooks")}
  end

  defp hooks_received do
    receive do
      {:hook, _, _, _} = message -> [message | hooks_received()]
    after
      0 -> []
    end
  end

  test "ordered hooks fire in program order and pass values through", %{program: p} do
    [r] = NxRuntime.run(p, "ordered", [f32([1, 2]), Tensor.new(7, {:s, 64})])
    assert Tensor.to_list(r) == [2.0, 4.0]

    assert hooks_received() == [
             {:hook, 1, "second", [7]},
             {:hook, 2, "first", [1.0, 2.0]},
             {:hook, 3, "second", [7]},
             {:hook, 4, "first", [1.0, 2.0]}
           ]
  end

  test "a failing hook names itself and the op, and stops the program", %{program: p} do
    error =
      assert_raise Error, fn ->
        NxRuntime.run(p, "ordered", [f32([-1, -1]), Tensor.new(7, {:s, 64})])
      end

    assert error.message =~ ~r/callback @hook.first at \S*hooks\.mlir:\d+:\d+ failed: /
    assert error.message =~ "hook first refused"
    # The hook before it ran; none after it did.
    assert hooks_received() == [{:hook, 1, "second", [7]}]
  end

  test "an optional hook does nothing until a function is bound", %{rt: rt, program: p} do
    [r] = NxRuntime.run(p, "optional", [f32([1, 2])])
    assert Tensor.to_list(r) == [2.0, 4.0]
    refute_received {:optional, _}

    test = self()

    NxRuntime.register_callback(rt, "hook.unbound", fn [x], _ ->
      send(test, {:optional, Tensor.to_list(x)})
    end)

    [r] = NxRuntime.run(p, "optional", [f32([1, 2])])
    assert Tensor.to_list(r) == [2.0, 4.0]
    assert_received {:optional, [1.0, 2.0]}
  end
end
