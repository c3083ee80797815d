# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.ConcurrencyTest do
  use ExUnit.Case
  import NxRuntime.TestHelpers
  alias NxRuntime.Tensor

  test "many processes run programs at once, each getting its own results" do
    rt = runtime(%{"double" => fn [x], _ -> map(x, &(&1 * 2)) end})
    p = NxRuntime.TestPrograms.load(rt, "calls")

    results =
      1..64
      |> Task.async_stream(
        fn i -> NxRuntime.run(p, "for_loop", [f32([i, -i])]) end,
        max_concurrency: 32,
        timeout: 30_000
      )
      |> Enum.map(fn {:ok, [y]} -> Tensor.to_list(y) end)

    assert results == for(i <- 1..64, do: [i * 16.0, -i * 16.0])
  end

  test "a callback may run another program (re-entrancy)" do
    test = self()
    {:ok, program} = Agent.start_link(fn -> nil end)

    rt =
      runtime(%{
        "run_inner" => fn [x], _ ->
          [y] = NxRuntime.run(Agent.get(program, & &1), "inner", [x])
          send(test, {:inner_result, Tensor.to_list(y)})
          y
        end,
        "square" => fn [x], _ -> map(x, &(&1 * &1)) end
      })

    p = NxRuntime.TestPrograms.load(rt, "nested")
    Agent.update(program, fn _ -> p end)

    [y] = NxRuntime.run(p, "outer", [f32([2, 3])])
    assert Tensor.to_list(y) == [6.0, 12.0]
    assert_received {:inner_result, [4.0, 9.0]}
  end

  test "callbacks nest three deep, and the innermost failure reaches the outermost run" do
    {:ok, program} = Agent.start_link(fn -> nil end)
    run_level = fn entry -> fn [x], _ -> hd(NxRuntime.run(Agent.get(program, & &1), entry, [x])) end end

    rt =
      runtime(%{
        "run_level1" => run_level.("level1"),
        "run_level2" => run_level.("level2"),
        "check_positive" => fn [x], _ ->
          if Enum.any?(Tensor.to_list(x), &(&1 < 0)), do: raise("negative input")
          map(x, &(&1 + 1))
        end
      })

    p = NxRuntime.TestPrograms.load(rt, "nested")
    Agent.update(program, fn _ -> p end)

    [y] = NxRuntime.run(p, "level0", [f32([1, 2])])
    assert Tensor.to_list(y) == [2.0, 3.0]

    error = assert_raise NxRuntime.Error, fn -> NxRuntime.run(p, "level0", [f32([-1, 2])]) end
    assert error.message =~ ~r/callback @run_level1 at \S*nested\.mlir:\d+:\d+ failed/
    assert error.message =~ ~r/callback @run_level2 at \S*nested\.mlir:\d+:\d+ failed/
    assert error.message =~ ~r/callback @check_positive at \S*nested\.mlir:\d+:\d+ failed/
    assert error.message =~ "negative input"

    [y] = NxRuntime.run(p, "level0", [f32([3, 4])])
    assert Tensor.to_list(y) == [4.0, 5.0]
  end

  test "runtimes are independent" do
    a =
      runtime(%{"double" => fn [x], _ -> map(x, &(&1 * 2)) end})
      |> NxRuntime.TestPrograms.load("calls")

    b =
      ExUnit.Callbacks.start_supervised!(
        {NxRuntime, callbacks: %{"double" => fn [x], _ -> map(x, &(&1 * 3)) end}},
        id: :second
      )
      |> NxRuntime.TestPrograms.load("calls")

    assert [%Tensor{} = ya] = NxRuntime.run(a, "for_loop", [f32([1, 1])])
    assert [%Tensor{} = yb] = NxRuntime.run(b, "for_loop", [f32([1, 1])])
    assert Tensor.to_list(ya) == [16.0, 16.0]
    assert Tensor.to_list(yb) == [81.0, 81.0]
  end
end
