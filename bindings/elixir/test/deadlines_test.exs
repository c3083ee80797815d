# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.DeadlinesTest do
  use ExUnit.Case
  import NxRuntime.TestHelpers
  alias NxRuntime.{Error, Tensor}

  # @slow sleeps as many milliseconds as its first element says.
  defp slow([x], _) do
    [ms | _] = Tensor.to_list(x)
    Process.sleep(trunc(ms))
    x
  end

  setup do
    test = self()

    # @stuck never returns on its own: it reports its process and sleeps.
    stuck = fn [x], _ ->
      send(test, {:stuck, self()})
      Process.sleep(:infinity)
      x
    end

    rt =
      runtime(%{
        "spin" => fn [x], _ -> x end,
        "slow" => {&slow/2, timeout_ms: 400},
        "stuck" => {stuck, timeout_ms: 100}
      })

    %{program: NxRuntime.TestPrograms.load(rt, "deadlines")}
  end

  defp timed(fun) do
    {us, error} = :timer.tc(fn -> assert_raise(Error, fun) end)
    {div(us, 1000), error}
  end

  test "the run deadline stops a loop that keeps calling the host", %{program: p} do
    {ms, error} = timed(fn -> NxRuntime.run(p, "forever", [f32([1, 2])], timeout_ms: 200) end)
    assert error.code == :deadline_exceeded
    assert error.message =~ ~r/callback @spin at \S*deadlines\.mlir:\d+:\d+ timed out/
    assert ms >= 200 and ms < 3_000
    assert [_] = NxRuntime.run(p, "slow_call", [f32([0, 0])])
  end

  test "the run deadline bounds a call that is slower", %{program: p} do
    {ms, error} =
      timed(fn -> NxRuntime.run(p, "slow_call", [f32([3_000, 0])], timeout_ms: 80) end)

    assert error.code == :deadline_exceeded
    assert error.message =~ ~r/callback @slow at \S*deadlines\.mlir:\d+:\d+/
    assert ms < 3_000
  end

  test "a callback still running past its own timeout is stopped", %{program: p} do
    {_ms, error} = timed(fn -> NxRuntime.run(p, "stuck_call", [f32([1, 2])]) end)
    assert error.code == :deadline_exceeded

    assert error.message =~
             ~r/callback @stuck at \S*deadlines\.mlir:\d+:\d+ timed out after 100 ms/

    assert_receive {:stuck, pid}
    ref = Process.monitor(pid)
    assert_receive {:DOWN, ^ref, :process, ^pid, reason}, 1_000
    assert reason in [:killed, :noproc]
    [y] = NxRuntime.run(p, "slow_call", [f32([0, 2])])
    assert Tensor.to_list(y) == [0.0, 2.0]
  end

  test "a callback's own timeout bounds each call, then a good run", %{program: p} do
    {ms, error} = timed(fn -> NxRuntime.run(p, "slow_call", [f32([3_000, 0])]) end)
    assert error.code == :deadline_exceeded

    assert error.message =~
             ~r/callback @slow at \S*deadlines\.mlir:\d+:\d+ timed out after 400 ms/

    assert ms >= 400 and ms < 3_000

    [y] = NxRuntime.run(p, "slow_call", [f32([0, 2])])
    assert Tensor.to_list(y) == [0.0, 2.0]
  end
end
