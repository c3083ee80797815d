# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.TestHelpers do
  @moduledoc false
  alias NxRuntime.Tensor

  def f32(values, shape \\ nil), do: Tensor.new(values, {:f, 32}, shape)

  # A tensor computed from another, keeping its type and shape.
  def map(%Tensor{type: type, shape: shape} = t, fun),
    do: Tensor.new(Enum.map(Tensor.to_list(t), fun), type, shape)

  # Starts a runtime for the current test, with `callbacks`.
  def runtime(callbacks) do
    ExUnit.Callbacks.start_supervised!({NxRuntime, callbacks: callbacks})
  end
end
