# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.CallsTest do
  use ExUnit.Case
  import NxRuntime.TestHelpers
  alias NxRuntime.Tensor

  setup do
    test = self()

    rt =
      runtime(%{
        "add_offset" => fn [x], args ->
          send(test, {:static_args, args})
          x |> Tensor.to_list() |> Enum.map(&(&1 + args["offset"])) |> f32()
        end,
        "split" => fn [x], _ -> {map(x, &(&1 * 2)), map(x, &(&1 + 1))} end,
        "add_sub" => fn [x, y], _ ->
          [a, b] = [Tensor.to_list(x), Tensor.to_list(y)]
          sum = Enum.zip_with(a, b, &+/2)
          diff = Enum.zip_with(a, b, &-/2)
          [Tensor.new(sum, {:s, 32}), Tensor.new(diff, {:s, 32})]
        end,
        "increment" => fn [i], _ ->
          send(test, {:increment, Tensor.to_list(i)})
          map(i, &(&1 + 1))
        end,
        "double" => fn [x], _ -> map(x, &(&1 * 2)) end,
        "on_true" => fn [x], _ ->
          send(test, :on_true)
          map(x, &(&1 + 100))
        end,
        "on_false" => fn [x], _ ->
          send(test, :on_false)
          map(x, &(&1 - 100))
        end
      })

    %{program: NxRuntime.TestPrograms.load(rt, "calls")}
  end

  test "a call with one result and its static args", %{program: p} do
    [y] = NxRuntime.run(p, "offset", [Tensor.new([0, 1, 2, 3, 4], {:s, 32})])
    assert y.type == {:f, 32} and y.shape == {5}
    assert Tensor.to_list(y) == [10.0, 11.0, 12.0, 13.0, 14.0]
    assert_received {:static_args, %{"offset" => 10.0, "label" => "offset", "sizes" => [1, 2]}}
  end

  test "a call with a tuple of results feeding device compute", %{program: p} do
    [y] = NxRuntime.run(p, "split_and_sum", [f32([1, 2, 3])])
    assert Tensor.to_list(y) == [4.0, 7.0, 10.0]
  end

  test "a call with two arguments whose results are the program's", %{program: p} do
    x = Tensor.new([1, 2, 3], {:s, 32})
    y = Tensor.new([4, 5, 6], {:s, 32})
    [sum, diff] = NxRuntime.run(p, "sum_and_difference", [x, y])
    assert Tensor.to_list(sum) == [5, 7, 9]
    assert Tensor.to_list(diff) == [-3, -3, -3]
  end

  test "a call inside scf.while runs once per iteration", %{program: p} do
    [r] = NxRuntime.run(p, "while_loop", [Tensor.new(0, {:s, 64})])
    assert Tensor.to_list(r) == [10]
    for i <- 0..9, do: assert_received({:increment, [^i]})
    refute_received {:increment, _}
  end

  test "a call inside scf.for", %{program: p} do
    [r] = NxRuntime.run(p, "for_loop", [f32([1, 2])])
    assert Tensor.to_list(r) == [16.0, 32.0]
  end

  test "only the branch scf.if takes calls the host", %{program: p} do
    [r] = NxRuntime.run(p, "conditional", [Tensor.new(1, {:s, 32}), f32([1, 2])])
    assert Tensor.to_list(r) == [101.0, 102.0]
    assert_received :on_true
    refute_received :on_false

    [r] = NxRuntime.run(p, "conditional", [Tensor.new(0, {:s, 32}), f32([1, 2])])
    assert Tensor.to_list(r) == [-99.0, -98.0]
    assert_received :on_false
    refute_received :on_true
  end

  test "entries describe the program's functions", %{program: p} do
    assert {"for_loop", [{{:f, 32}, {2}}], [{{:f, 32}, {2}}]} in NxRuntime.entries(p)
  end
end
