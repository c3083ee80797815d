# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.RoundTripBenchTest do
  # The measurement behind bench/round_trip.exs, on a few calls: the
  # numbers it reports come from every call of the loop, in order.
  use ExUnit.Case
  Code.require_file("../bench/round_trip_bench.ex", __DIR__)
  alias NxRuntime.RoundTripBench

  test "the elixir_call round trip is sampled once per call after the warm-up" do
    dir = Path.join(System.tmp_dir!(), "nx_bench_test_#{System.unique_integer([:positive])}")
    File.mkdir_p!(dir)
    on_exit(fn -> File.rm_rf!(dir) end)
    nx_compile = NxRuntime.TestPrograms.nx_compile()

    result = RoundTripBench.measure(nx_compile, dir, 200, 20)
    assert result.samples == 199
    assert result.p50_us > 0
    assert result.p50_us <= result.p99_us
    assert result.p99_us <= result.max_us
  end

  test "the BEAM reference takes one sample per round trip" do
    result = RoundTripBench.beam_reference(100, 10)
    assert result.samples == 100
    assert result.p50_us > 0 and result.p50_us <= result.max_us
  end

  test "summaries pick the 50th and 99th percentiles" do
    assert %{samples: 100, p50_us: 50, p99_us: 99, max_us: 99} =
             RoundTripBench.summarize(Enum.shuffle(0..99))
  end
end
