# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.StreamsTest do
  use ExUnit.Case
  import NxRuntime.TestHelpers
  alias NxRuntime.{Error, Tensor}

  setup do
    rt = runtime(%{})
    %{rt: rt, program: NxRuntime.TestPrograms.load(rt, "feeds")}
  end

  defp open(rt), do: {NxRuntime.open_stream(rt, "in"), NxRuntime.open_stream(rt, "out")}

  test "an infeed -> compute -> outfeed round trip", %{rt: rt, program: p} do
    {input, output} = open(rt)
    :ok = NxRuntime.push_infeed(input, [f32([1, 2, 3]), Tensor.new(2, {:s, 64})])
    [y] = NxRuntime.run(p, "main", [])
    assert Tensor.to_list(y) == [2.0, 4.0, 6.0]
    [out, n] = NxRuntime.pop_outfeed(output)
    assert Tensor.to_list(out) == [2.0, 4.0, 6.0] and Tensor.to_list(n) == [2]
  end

  test "a run waits for its infeed, pushed later by another process", %{rt: rt, program: p} do
    {input, output} = open(rt)
    task = Task.async(fn -> NxRuntime.run(p, "main", [], timeout_ms: 5_000) end)
    Process.sleep(200)
    assert Task.yield(task, 0) == nil
    :ok = NxRuntime.push_infeed(input, [f32([1, 1, 1]), Tensor.new(5, {:s, 64})])
    assert [y] = Task.await(task)
    assert Tensor.to_list(y) == [5.0, 5.0, 5.0]
    assert [_, _] = NxRuntime.pop_outfeed(output)
  end

  test "runs consume infeed values in push order", %{rt: rt, program: p} do
    {input, output} = open(rt)

    for n <- 1..3,
        do: :ok = NxRuntime.push_infeed(input, [f32([1, 2, 3]), Tensor.new(n, {:s, 64})])

    for n <- 1..3 do
      [y] = NxRuntime.run(p, "main", [])
      assert Tensor.to_list(y) == Enum.map([1, 2, 3], &(&1 * n * 1.0))
    end

    assert for(_ <- 1..3, do: NxRuntime.pop_outfeed(output) |> List.last() |> Tensor.to_list()) ==
             [[1], [2], [3]]

    error = assert_raise Error, fn -> NxRuntime.pop_outfeed(output, 50) end
    assert error.code == :deadline_exceeded
  end

  test "a closed stream fails the run clearly, then a reopened one works", %{rt: rt, program: p} do
    {input, _output} = open(rt)
    NxRuntime.close_stream(input)
    error = assert_raise Error, fn -> NxRuntime.run(p, "main", [], timeout_ms: 5_000) end
    assert error.message =~ "in"
    assert error.message =~ ~r/feeds\.mlir:\d+:\d+/

    error = assert_raise Error, fn -> NxRuntime.push_infeed(input, [f32([1, 2, 3])]) end
    assert error.code == :failed_precondition

    input = NxRuntime.open_stream(rt, "in")
    :ok = NxRuntime.push_infeed(input, [f32([1, 2, 3]), Tensor.new(1, {:s, 64})])
    assert [_] = NxRuntime.run(p, "main", [])
  end

  test "closing a stream wakes a run waiting on it", %{rt: rt, program: p} do
    {input, _output} = open(rt)
    task = Task.async(fn -> catch_error(NxRuntime.run(p, "main", [])) end)
    Process.sleep(100)
    NxRuntime.close_stream(input)
    assert %Error{message: message} = Task.await(task, 5_000)
    assert message =~ ~r/feeds\.mlir:\d+:\d+/
  end

  test "a stream nobody opened fails the run", %{program: p} do
    error = assert_raise Error, fn -> NxRuntime.run(p, "main", [], timeout_ms: 5_000) end
    assert error.message =~ "in"
    assert error.message =~ ~r/feeds\.mlir:\d+:\d+/
  end

  test "an infeed value of the wrong type fails the run", %{rt: rt, program: p} do
    {input, _output} = open(rt)
    :ok = NxRuntime.push_infeed(input, [f32([1, 2]), Tensor.new(1, {:s, 64})])
    error = assert_raise Error, fn -> NxRuntime.run(p, "main", [], timeout_ms: 5_000) end
    assert error.message =~ ~r/feeds\.mlir:\d+:\d+/
  end

  test "a stream stays open without references until closed", %{rt: rt, program: p} do
    NxRuntime.open_stream(rt, "out")
    push = fn -> NxRuntime.open_stream(rt, "in") end
    :ok = NxRuntime.push_infeed(push.(), [f32([1, 2, 3]), Tensor.new(3, {:s, 64})])
    :erlang.garbage_collect()
    assert [y] = NxRuntime.run(p, "main", [])
    assert Tensor.to_list(y) == [3.0, 6.0, 9.0]
  end

  test "a stream name is open once at a time", %{rt: rt} do
    _ = open(rt)
    error = assert_raise Error, fn -> NxRuntime.open_stream(rt, "in") end
    assert error.code == :already_exists
    error = assert_raise Error, fn -> NxRuntime.open_stream(rt, "") end
    assert error.code == :invalid_argument
  end
end
