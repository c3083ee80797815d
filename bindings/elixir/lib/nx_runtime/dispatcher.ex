# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.Dispatcher do
  @moduledoc false
  # Owns one nxrt runtime and receives its bridge requests: the NIF's hook
  # sends {:nx_call, tag, name, args, static_args, location, templates} from
  # the compute thread. Each call is served in a process of its own, so a
  # slow callback does not hold up others, and a callback may itself run a
  # program (whose calls come back here) without deadlocking.

  use GenServer

  require Logger

  alias NxRuntime.{Callback, Nif}

  @impl true
  def init(opts) do
    # terminate/2 must run on shutdown to close the bridge: programs still
    # waiting for a reply then fail at once instead of at their deadline.
    Process.flag(:trap_exit, true)
    runtime = Nif.runtime_create(self())
    state = %{runtime: runtime, callbacks: %{}, streams: %{}, trace: nil}

    # Bound before start_link returns, so a bad entry (a name given twice,
    # a spec that is no function, a bad :trace) makes start_link return the
    # error.
    with {:ok, state} <- set_trace(state, Keyword.get(opts, :trace)),
         {:ok, state} <- register_all(state, Keyword.get(opts, :callbacks, [])) do
      {:ok, state}
    else
      {:error, {code, message}} ->
        Nif.bridge_close(runtime)
        {:stop, %NxRuntime.Error{code: code, message: message}}
    end
  end

  defp set_trace(state, nil), do: {:ok, state}

  defp set_trace(state, trace) when trace == :logger or is_function(trace, 1) do
    :ok = Nif.set_trace(state.runtime, true)
    {:ok, %{state | trace: trace}}
  end

  defp set_trace(_state, other) do
    {:error,
     {:invalid_argument,
      "trace: expected :logger or a function of arity 1, got #{inspect(other)}"}}
  end

  defp register_all(state, callbacks) do
    Enum.reduce_while(callbacks, {:ok, state}, fn
      {name, spec}, {:ok, state} ->
        with {:ok, fun, opts} <- callback_spec(name, spec),
             {:ok, state} <- register(state, to_string(name), fun, opts) do
          {:cont, {:ok, state}}
        else
          error -> {:halt, error}
        end

      entry, _ ->
        {:halt,
         {:error,
          {:invalid_argument, "callbacks: expected name => function, got #{inspect(entry)}"}}}
    end)
  end

  defp callback_spec(_name, fun) when is_function(fun, 2), do: {:ok, fun, []}

  defp callback_spec(_name, {fun, opts}) when is_function(fun, 2) and is_list(opts),
    do: {:ok, fun, opts}

  defp callback_spec(name, spec) do
    {:error,
     {:invalid_argument,
      "callback #{inspect(to_string(name))}: expected a function of arity 2 or " <>
        "{function, timeout_ms: ms}, got #{inspect(spec)}"}}
  end

  @impl true
  def handle_call(:runtime, _from, state), do: {:reply, state.runtime, state}

  def handle_call({:register, name, fun, opts}, _from, state) do
    case register(state, name, fun, opts) do
      {:ok, state} -> {:reply, :ok, state}
      error -> {:reply, error, state}
    end
  end

  # Open streams are kept here, so a stream lives until it is closed or
  # the runtime stops, not just while its opener holds a reference.
  def handle_call({:open_stream, name}, _from, state) do
    case Nif.stream_open(state.runtime, name) do
      {:ok, ref} -> {:reply, {:ok, ref}, put_in(state.streams[ref], name)}
      error -> {:reply, error, state}
    end
  end

  @impl true
  def handle_cast({:forget_stream, ref}, state),
    do: {:noreply, %{state | streams: Map.delete(state.streams, ref)}}

  @impl true
  def handle_info({:nx_call, tag, name, args, static_args, location, templates}, state) do
    call = %{
      runtime: state.runtime,
      tag: tag,
      name: name,
      args: args,
      static_args: static_args,
      location: location,
      templates: templates
    }

    {fun, timeout} = Map.get(state.callbacks, name, {nil, 0})
    pid = spawn(fn -> Callback.serve(fun, call) end)

    # Past its own timeout the call has failed and its reply would be
    # refused: a callback still running then is stopped rather than left
    # to hold memory or loop forever. The timer starts after the runtime's
    # clock for the call did, so it never cuts off a reply that could still
    # count. (A run deadline shorter than the callback's timeout is not
    # known here; such a callback runs until its own timeout.)
    if timeout > 0, do: Process.send_after(self(), {:call_expired, pid}, timeout)
    {:noreply, state}
  end

  def handle_info({:nx_trace, name, location, kind, dispatch, duration_ns, status}, state) do
    event = %{
      name: name,
      location: location,
      kind: kind,
      dispatch: dispatch,
      duration_ns: duration_ns,
      status: status
    }

    report_trace(state.trace, event)
    {:noreply, state}
  end

  def handle_info({:call_expired, pid}, state) do
    Process.exit(pid, :kill)
    {:noreply, state}
  end

  def handle_info({:EXIT, _pid, reason}, state), do: {:stop, reason, state}

  @impl true
  def terminate(_reason, state), do: Nif.bridge_close(state.runtime)

  # Events of runs begun while tracing was on may still arrive.
  defp report_trace(nil, _event), do: :ok

  defp report_trace(:logger, event) do
    Logger.debug(
      fn ->
        where = if event.kind in [:outfeed, :infeed], do: "", else: " @#{event.name}"
        failed = if event.status == :ok, do: "", else: ", failed: #{event.status}"

        "nx trace: #{event.kind}#{where} at #{event.location}: " <>
          "#{event.dispatch}, #{event.duration_ns / 1000} us#{failed}"
      end,
      nx_callback: event.name,
      nx_location: event.location,
      nx_kind: event.kind,
      nx_dispatch: event.dispatch,
      nx_duration_ns: event.duration_ns,
      nx_status: event.status
    )
  end

  # The host's function must not take the dispatcher down with it.
  defp report_trace(fun, event) do
    try do
      fun.(event)
    catch
      kind, reason ->
        banner = Exception.format_banner(kind, reason, __STACKTRACE__)
        Logger.error("nx trace function failed: " <> String.replace_prefix(banner, "** ", ""))
    end

    :ok
  end

  defp register(state, name, fun, opts) do
    timeout = Keyword.get(opts, :timeout_ms, 0)

    with :ok <- Nif.register_callback(state.runtime, name, timeout) do
      {:ok, put_in(state.callbacks[name], {fun, timeout})}
    end
  end
end
