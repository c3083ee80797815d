# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.Stream do
  @moduledoc "An infeed/outfeed stream of a runtime (see `NxRuntime.open_stream/2`)."
  defstruct [:ref, :name, :runtime]
end
