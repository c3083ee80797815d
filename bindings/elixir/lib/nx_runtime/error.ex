# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.Error do
  @moduledoc """
  A failed run or runtime call. `code` is the nxrt status code as an atom
  (`:deadline_exceeded`, `:unknown`, ...); a failed run's `message` names the
  callback (or stream) and the op's source location, e.g.
  `callback @scale at model.mlir:12:5 failed: ...`.
  """
  defexception [:code, :message]

  @doc false
  def raise!({:error, {code, message}}), do: raise(__MODULE__, code: code, message: message)
end
