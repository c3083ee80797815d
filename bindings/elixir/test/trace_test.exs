# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.TraceTest do
  use ExUnit.Case
  import ExUnit.CaptureLog
  import NxRuntime.TestHelpers
  alias NxRuntime.{Error, Tensor}

  defp split, do: fn [x], _ -> {x, map(x, &(&1 * 2))} end

  test "a trace function receives each host call once it returned" do
    test = self()

    rt =
      start_supervised!(
        {NxRuntime,
         callbacks: %{"split" => split()}, trace: fn event -> send(test, {:traced, event}) end}
      )

    program = NxRuntime.TestPrograms.load(rt, "calls")
    [s] = NxRuntime.run(program, "split_and_sum", [f32([1, 2, 3])])
    assert Tensor.to_list(s) == [3.0, 6.0, 9.0]

    assert_receive {:traced, event}
    assert %{name: "split", kind: :elixir_call, dispatch: :bridge, status: :ok} = event
    assert event.location =~ ~r/calls\.mlir:\d+:\d+$/
    assert is_integer(event.duration_ns) and event.duration_ns > 0
    refute_receive {:traced, _}, 50
  end

  test "a failed call is traced with its status" do
    test = self()

    rt =
      start_supervised!(
        {NxRuntime,
         callbacks: %{"split" => fn _, _ -> raise "no" end},
         trace: fn event -> send(test, {:traced, event}) end}
      )

    program = NxRuntime.TestPrograms.load(rt, "calls")
    assert_raise Error, fn -> NxRuntime.run(program, "split_and_sum", [f32([1, 2, 3])]) end
    assert_receive {:traced, %{name: "split", status: :unknown}}
  end

  test "trace: :logger logs each call with its metadata" do
    rt = start_supervised!({NxRuntime, callbacks: %{"split" => split()}, trace: :logger})
    program = NxRuntime.TestPrograms.load(rt, "calls")

    log =
      capture_log([level: :debug, metadata: [:nx_callback, :nx_dispatch]], fn ->
        NxRuntime.run(program, "split_and_sum", [f32([1, 2, 3])])
        # The event reaches the dispatcher after the run returned.
        :sys.get_state(rt)
      end)

    assert log =~ ~r/nx_callback=split nx_dispatch=bridge/
    assert log =~ ~r/nx trace: elixir_call @split at \S*calls\.mlir:\d+:\d+: bridge, [0-9.]+ us/
  end

  test "what a callback logs names the callback and the op" do
    require Logger

    logging_split = fn [x], _ ->
      Logger.warning("inside")
      {x, x}
    end

    rt = runtime(%{"split" => logging_split})
    program = NxRuntime.TestPrograms.load(rt, "calls")

    log =
      capture_log([metadata: [:nx_callback, :nx_location]], fn ->
        NxRuntime.run(program, "split_and_sum", [f32([1, 2, 3])])
      end)

    assert log =~ ~r/nx_callback=split nx_location=\S*calls\.mlir:\d+:\d+ .*inside/
  end

  test "a bad :trace is refused by start_link" do
    Process.flag(:trap_exit, true)

    assert {:error, %Error{code: :invalid_argument, message: message}} =
             NxRuntime.start_link(trace: :stdout)

    assert message =~ "trace: expected :logger or a function of arity 1, got :stdout"
  end

  test "a trace function that raises is logged and tracing goes on" do
    test = self()
    count = :counters.new(1, [])

    trace = fn event ->
      :counters.add(count, 1, 1)
      if :counters.get(count, 1) == 1, do: raise("trace broke")
      send(test, {:traced, event})
    end

    rt = start_supervised!({NxRuntime, callbacks: %{"split" => split()}, trace: trace})
    program = NxRuntime.TestPrograms.load(rt, "calls")

    log =
      capture_log(fn ->
        NxRuntime.run(program, "split_and_sum", [f32([1, 2, 3])])
        NxRuntime.run(program, "split_and_sum", [f32([1, 2, 3])])
        :sys.get_state(rt)
      end)

    assert log =~ "nx trace function failed: (RuntimeError) trace broke"
    assert_receive {:traced, %{name: "split"}}
  end
end
