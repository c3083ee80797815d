# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime do
  @moduledoc """
  Runs nx programs compiled ahead of time by `nx-compile` (shared objects
  following `nxrt_aot.h`), with host callbacks written in Elixir.

      {:ok, rt} = NxRuntime.start_link(callbacks: %{"scale" => fn [x], args -> ... end})
      program = NxRuntime.load(rt, "model.so")
      [y] = NxRuntime.run(program, "main", [NxRuntime.Tensor.new([1.0, 2.0], {:f, 32})])

  A runtime is a dispatcher process owning one libnxrt runtime. Runs execute
  in the calling process on a dirty CPU scheduler; every `nx.elixir_call` /
  `nx.io_callback` becomes a message to the dispatcher, which runs the
  registered function in a process of its own and replies with its
  results. A callback is `fn args, static_args -> result end`: `args` a list
  of `NxRuntime.Tensor`s, `static_args` a map with string keys, `result` a
  tensor, or a tuple or list of them matching the call's declared results
  (ignored for io_callbacks).

  Since runs hold a dirty CPU scheduler while they wait for callbacks, at
  most that many runs (one per core by default, `+SDcpu` raises it) make
  progress at once. A run begun inside a callback runs on a thread of its
  own instead, so programs nest to any depth without waiting for a
  scheduler the outer runs hold.
  """

  alias NxRuntime.{Error, Nif, Program, Tensor}

  @doc """
  Starts a runtime. Options:

    * `:callbacks` - a map or list of name => function (or name =>
      `{function, timeout_ms: ms}`); a name given twice is an error.
    * `:trace` - reports every host call of the runs begun afterwards
      (callbacks, custom calls, stream operations) once it returned:
      `:logger` logs each at the `:debug` level with the metadata
      `nx_callback`, `nx_location`, `nx_kind`, `nx_dispatch`,
      `nx_duration_ns` and `nx_status`; a function of arity 1 receives
      each as a map with the keys `:name`, `:location`, `:kind`
      (`:elixir_call`, `:io_callback`, `:custom_call`, `:outfeed`,
      `:infeed`), `:dispatch` (`:bridge` for Elixir callbacks, `:inline`
      for native targets, `:stream`, `:unbound`), `:duration_ns` (the
      time the program waited, the callback's own time included) and
      `:status` (`:ok` or the failure's code). Either runs in the runtime's
      dispatcher process, so it should be quick.
    * `:name` - registers the runtime's process.

  Whatever a callback logs carries the Logger metadata `nx_callback` (the
  callback's name) and `nx_location` (the op's location).
  """
  def start_link(opts \\ []) do
    GenServer.start_link(NxRuntime.Dispatcher, opts, Keyword.take(opts, [:name]))
  end

  def child_spec(opts), do: %{id: __MODULE__, start: {__MODULE__, :start_link, [opts]}}

  @doc """
  Binds callback `name` to `fun` (arity 2). `:timeout_ms` bounds how long one
  call may take (0, the default: only the run's deadline applies); a call
  still running when it has passed is killed (its run has failed by then).
  A name can be bound once per runtime.
  """
  def register_callback(runtime, name, fun, opts \\ []) when is_function(fun, 2) do
    case GenServer.call(runtime, {:register, to_string(name), fun, opts}) do
      :ok -> :ok
      error -> Error.raise!(error)
    end
  end

  @doc """
  Loads an object written by `nx-compile` and registers its call sites.
  `:prefix` is the symbol prefix it was compiled with (default: the file's
  stem as a C identifier, as nx-compile chooses it).
  """
  def load(runtime, path, opts \\ []) do
    path = Path.expand(path)
    prefix = Keyword.get_lazy(opts, :prefix, fn -> default_prefix(path) end)

    case Nif.program_load(runtime_ref(runtime), path, prefix) do
      {:ok, ref} -> %Program{ref: ref, path: path}
      error -> Error.raise!(error)
    end
  end

  @doc """
  Loads a library of XLA FFI handlers: the handlers it registers as it loads
  (`XLA_FFI_REGISTER_HANDLER`) become the targets of custom calls with
  `api_version = 4` in every program. Handlers are registered process-wide,
  as in XLA, and the library stays loaded. Returns how many handlers it
  registered; raises when it cannot be loaded, or registered none and
  `:require_handlers` (default `true`) is set.
  """
  def load_ffi_library(path, opts \\ []) do
    require = if Keyword.get(opts, :require_handlers, true), do: 1, else: 0

    case Nif.ffi_load_library(Path.expand(path), require) do
      {:ok, count} -> count
      error -> Error.raise!(error)
    end
  end

  @doc """
  Binds custom-call target `name` to the XLA FFI handler `symbol` that the
  library at `path` exports, the way `jax.ffi.register_ffi_target` takes a
  function pointer.
  """
  def register_ffi_target(name, path, symbol) do
    case Nif.ffi_register_symbol(to_string(name), Path.expand(path), to_string(symbol)) do
      :ok -> :ok
      error -> Error.raise!(error)
    end
  end

  @doc "The entry points: `{name, arg_types, result_types}` with types as `{type, shape}`."
  def entries(%Program{ref: ref}), do: Nif.program_entries(ref)

  @doc """
  Runs public function `entry` on `inputs` (tensors) and returns its results.
  `:timeout_ms` is the run's deadline (default: none). Raises
  `NxRuntime.Error` when the run fails, naming the callback and the op.
  """
  def run(%Program{ref: ref}, entry, inputs, opts \\ []) do
    timeout = Keyword.get(opts, :timeout_ms, 0)
    args = [ref, to_string(entry), Enum.map(inputs, &Tensor.to_nif/1), timeout]

    case run_where_it_cannot_deadlock(args) do
      {:ok, results} -> Enum.map(results, &Tensor.from_nif/1)
      error -> Error.raise!(error)
    end
  end

  # A run holds its thread while it waits for callbacks. Runs begun in a
  # callback go on a thread of their own, so that nesting never waits for a
  # dirty scheduler that the runs it is nested in hold.
  defp run_where_it_cannot_deadlock(args) do
    if Process.get(:nx_runtime_callback) do
      tag = make_ref()

      case apply(Nif, :run_async, args ++ [tag]) do
        :ok ->
          receive do
            {^tag, result} -> result
          end

        error ->
          error
      end
    else
      apply(Nif, :run, args)
    end
  end

  @doc """
  Opens the named stream that a program's nx.infeed / nx.outfeed use. It
  stays open until `close_stream/1` or until the runtime stops.
  """
  def open_stream(runtime, name) do
    case GenServer.call(runtime, {:open_stream, to_string(name)}) do
      {:ok, ref} -> %NxRuntime.Stream{ref: ref, name: to_string(name), runtime: runtime}
      error -> Error.raise!(error)
    end
  end

  @doc """
  Closes a stream: infeeds waiting on it and later ones fail their runs;
  outfeed values already sent can still be popped. The name is free again.
  """
  def close_stream(%NxRuntime.Stream{ref: ref, runtime: runtime}) do
    :ok = Nif.stream_close(ref)
    GenServer.cast(runtime, {:forget_stream, ref})
  end

  @doc "Queues one infeed value: the tensors one nx.infeed consumes."
  def push_infeed(%NxRuntime.Stream{ref: ref}, tensors) do
    case Nif.push_infeed(ref, Enum.map(tensors, &Tensor.to_nif/1)) do
      :ok -> :ok
      error -> Error.raise!(error)
    end
  end

  @doc "Waits up to `timeout_ms` for the next outfeed value (a list of tensors)."
  def pop_outfeed(%NxRuntime.Stream{ref: ref}, timeout_ms \\ 5_000) do
    case Nif.pop_outfeed(ref, timeout_ms) do
      {:ok, tensors} -> Enum.map(tensors, &Tensor.from_nif/1)
      error -> Error.raise!(error)
    end
  end

  defp runtime_ref(runtime), do: GenServer.call(runtime, :runtime)

  # nx-compile's default --prefix: the output's stem as a C identifier.
  defp default_prefix(path) do
    prefix = path |> Path.basename() |> Path.rootname() |> String.replace(~r/[^A-Za-z0-9_]/, "_")
    if prefix == "" or prefix =~ ~r/^[0-9]/, do: "_" <> prefix, else: prefix
  end
end
