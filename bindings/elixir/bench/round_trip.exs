# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The round trip of an nx.elixir_call through the dispatcher GenServer, next
# to the bare bridge round trip (a C dispatcher thread, NxrtDispatchBench)
# and the machine's floor, measured in the same run: the bare bridge before
# and after the Elixir measurement. A fourth row is the BEAM's share alone:
# the same message, GenServer and process hops without nx.
#
#   cd bindings/elixir && mix run bench/round_trip.exs [CALLS]
#
# NX_COMPILE and NX_DISPATCH_BENCH default to the build tree's nx-compile
# and NxrtDispatchBench (../../build/bin).
Code.require_file("round_trip_bench.ex", __DIR__)
alias NxRuntime.RoundTripBench

calls =
  case System.argv() do
    [n] -> String.to_integer(n)
    [] -> 20_000
  end

build_bin = Path.expand("../../../build/bin", __DIR__)
nx_compile = System.get_env("NX_COMPILE", Path.join(build_bin, "nx-compile"))
dispatch_bench = System.get_env("NX_DISPATCH_BENCH", Path.join(build_bin, "NxrtDispatchBench"))
dir = Path.join(System.tmp_dir!(), "nx_round_trip_#{System.unique_integer([:positive])}")
File.mkdir_p!(dir)

before = RoundTripBench.bare_bridge(dispatch_bench)
elixir = RoundTripBench.measure(nx_compile, dir, calls)
beam = RoundTripBench.beam_reference(calls)
after_ = RoundTripBench.bare_bridge(dispatch_bench)
File.rm_rf!(dir)

row = fn label, %{p50_us: p50, p99_us: p99} ->
  figures = to_string(:io_lib.format("~8.2f / ~8.2f us", [p50 / 1, p99 / 1]))
  IO.puts(String.pad_trailing(label, 58) <> figures)
end

IO.puts(String.pad_trailing("what", 58) <> "     p50 /      p99")
row.("nx.elixir_call through the GenServer (#{elixir.samples} calls)", elixir)
row.("BEAM alone: send, GenServer, spawn, reply (no nx)", beam)
row.("bare bridge round trip, before", before.bridge)
row.("bare bridge round trip, after", after_.bridge)
row.("floor (spin ping-pong), before", before.floor)
row.("floor (spin ping-pong), after", after_.floor)
