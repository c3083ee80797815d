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
