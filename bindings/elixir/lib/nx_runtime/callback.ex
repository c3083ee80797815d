# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.Callback do
  @moduledoc false
  # Serves one bridge request: runs the registered function on the
  # arguments, checks what it returned against the call's output template
  # and replies through the NIF, which wakes the waiting program. Every
  # outcome is a reply, so a program never waits past what its deadline
  # allows for a crashed or wrong callback.

  require Logger

  alias NxRuntime.{Nif, Tensor}

  def serve(fun, call) do
    # What the callback logs names the call it serves.
    Logger.metadata(nx_callback: call.name, nx_location: call.location)
    # Runs it begins are nested: NxRuntime.run puts them on threads of their
    # own.
    Process.put(:nx_runtime_callback, true)

    answer =
      try do
        outcome(fun, call)
      catch
        kind, reason ->
          banner = Exception.format_banner(kind, reason, __STACKTRACE__)
          {:error, String.replace_prefix(banner, "** ", "")}
      end

    # A reply after the call's deadline is refused by the runtime; the run
    # has already failed with the timeout, so there is nothing left to do.
    _ = Nif.reply(call.runtime, call.tag, answer)
  end

  defp outcome(nil, call), do: {:error, "no Elixir function is registered for @#{call.name}"}

  defp outcome(fun, call) do
    result = fun.(Enum.map(call.args, &Tensor.from_nif/1), call.static_args)
    check(result, call.templates)
  end

  # io_callbacks and calls declared without results pass their value on.
  defp check(_result, []), do: {:ok, []}

  defp check(result, templates) do
    results =
      case result do
        %Tensor{} -> [result]
        tuple when is_tuple(tuple) -> Tuple.to_list(tuple)
        list when is_list(list) -> list
        other -> [other]
      end

    if length(results) == length(templates) and
         Enum.all?(Enum.zip(results, templates), &matches?/1) do
      {:ok, Enum.map(results, &Tensor.to_nif/1)}
    else
      expected =
        Enum.map_join(templates, ", ", fn {type, shape} -> Tensor.type_string(type, shape) end)

      got = Enum.map_join(results, ", ", &describe/1)

      {:error,
       "expected the elixir_call function to match the given output template " <>
         "(#{expected}), got (#{got})"}
    end
  end

  defp matches?({%Tensor{type: type, shape: shape, data: data}, {type, shape}})
       when is_binary(data),
       do: true

  defp matches?(_), do: false

  defp describe(%Tensor{} = t), do: Tensor.type_string(t)
  defp describe(other), do: inspect(other)
end
