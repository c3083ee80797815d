# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.RoundTripBench do
  @moduledoc false
  # The round trip of an nx.elixir_call through the dispatcher GenServer,
  # measured from inside a compiled loop: each call's callback stamps the
  # monotonic clock into an :atomics slot indexed by the loop counter it
  # receives, and the gap between consecutive stamps is one iteration
  # (compiled code, the hook's enif_send, the dispatcher, the callback's
  # process, the reply NIF, the compute thread waking). No clock runs in
  # compiled code and no message is added to the path being measured.

  alias NxRuntime.Tensor

  @doc """
  Compiles bench/round_trip.mlir with `nx_compile` into `dir`, runs `calls`
  trips through the host after `warm_up` more, and returns
  `%{samples: n, p50_us: ..., p99_us: ..., max_us: ...}`.
  """
  def measure(nx_compile, dir, calls, warm_up \\ 1_000) do
    source = Path.join(__DIR__, "round_trip.mlir")
    object = Path.join(dir, "round_trip.so")

    case System.cmd(nx_compile, [source, "-o", object], stderr_to_stdout: true) do
      {_, 0} -> :ok
      {out, status} -> raise "nx-compile failed (#{status}):\n#{out}"
    end

    total = warm_up + calls
    stamps = :atomics.new(total + 1, signed: true)

    tick = fn [i], _static ->
      [n] = Tensor.to_list(i)
      :atomics.put(stamps, n + 1, System.monotonic_time(:nanosecond))
      Tensor.new([n + 1], {:s, 64}, {})
    end

    {:ok, rt} = NxRuntime.start_link(callbacks: %{"tick" => tick})
    program = NxRuntime.load(rt, object)
    [result] = NxRuntime.run(program, "loop", [Tensor.new([total], {:s, 64}, {})])
    [^total] = Tensor.to_list(result)
    GenServer.stop(rt)

    gaps =
      for k <- (warm_up + 2)..total do
        (:atomics.get(stamps, k) - :atomics.get(stamps, k - 1)) / 1_000
      end

    summarize(gaps)
  end

  @doc """
  The BEAM's part of that path without nx, as a reference: a process sends
  a request to a GenServer, which spawns a process that answers the
  sender; `calls` round trips after `warm_up`, summarized as by measure/4.
  """
  def beam_reference(calls, warm_up \\ 1_000) do
    {:ok, echo} = GenServer.start_link(__MODULE__.Echo, nil)

    samples =
      for k <- 1..(warm_up + calls) do
        t0 = System.monotonic_time(:nanosecond)
        send(echo, {:request, self(), k})

        receive do
          {:reply, ^k} -> :ok
        end

        {k, (System.monotonic_time(:nanosecond) - t0) / 1_000}
      end

    GenServer.stop(echo)
    summarize(for {k, us} <- samples, k > warm_up, do: us)
  end

  defmodule Echo do
    @moduledoc false
    use GenServer

    @impl true
    def init(nil), do: {:ok, nil}

    @impl true
    def handle_info({:request, from, k}, state) do
      spawn(fn -> send(from, {:reply, k}) end)
      {:noreply, state}
    end
  end

  @doc "p50 / p99 / max of `samples` (microseconds)."
  def summarize(samples) do
    sorted = Enum.sort(samples)
    n = length(sorted)
    at = fn q -> Enum.at(sorted, min(n - 1, trunc(q * n))) end
    %{samples: n, p50_us: at.(0.50), p99_us: at.(0.99), max_us: List.last(sorted)}
  end

  @doc """
  The bare bridge round trip and the floor of this machine, from
  NxrtDispatchBench (a C dispatcher thread pulling and replying), as
  `%{bridge: %{p50_us:, p99_us:}, floor: %{p50_us:, p99_us:}}`.
  """
  def bare_bridge(dispatch_bench) do
    {out, 0} =
      System.cmd(
        dispatch_bench,
        [
          "--benchmark_filter=BM_(BridgeRoundTrip|SpinPingPong)/load:0",
          "--benchmark_min_time=1"
        ],
        stderr_to_stdout: true
      )

    for line <- String.split(out, "\n"),
        [_, name] <- [Regex.run(~r/^BM_(BridgeRoundTrip|SpinPingPong)\//, line)],
        into: %{} do
      [_, p50] = Regex.run(~r/p50_us=([0-9.]+)/, line)
      [_, p99] = Regex.run(~r/p99_us=([0-9.]+)/, line)
      key = if name == "BridgeRoundTrip", do: :bridge, else: :floor
      {key, %{p50_us: String.to_float(p50), p99_us: String.to_float(p99)}}
    end
  end
end
