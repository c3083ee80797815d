# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.Nif do
  @moduledoc false
  # The C side is c_src/; each function here is replaced when the NIF loads.

  @on_load :load
  def load do
    path = :filename.join(:code.priv_dir(:nx_runtime), ~c"nx_runtime_nif")

    case :erlang.load_nif(path, 0) do
      :ok -> :ok
      {:error, {reason, text}} -> raise "cannot load the nx_runtime NIF (#{reason}): #{text}"
    end
  end

  defp not_loaded, do: :erlang.nif_error(:nif_not_loaded)

  def api_version, do: not_loaded()
  def runtime_create(_dispatcher), do: not_loaded()
  def register_callback(_runtime, _name, _timeout_ms), do: not_loaded()
  def reply(_runtime, _tag, _answer), do: not_loaded()
  def bridge_close(_runtime), do: not_loaded()
  def set_trace(_runtime, _enabled), do: not_loaded()
  def program_load(_runtime, _path, _prefix), do: not_loaded()
  def program_entries(_program), do: not_loaded()
  def ffi_load_library(_path, _require_handlers), do: not_loaded()
  def ffi_register_symbol(_name, _path, _symbol), do: not_loaded()
  def run(_program, _entry, _inputs, _timeout_ms), do: not_loaded()
  def run_async(_program, _entry, _inputs, _timeout_ms, _ref), do: not_loaded()
  def stream_open(_runtime, _name), do: not_loaded()
  def stream_close(_stream), do: not_loaded()
  def push_infeed(_stream, _tensors), do: not_loaded()
  def pop_outfeed(_stream, _timeout_ms), do: not_loaded()
end
