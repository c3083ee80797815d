# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.Program do
  @moduledoc "A loaded nx-compile object (unloaded when no longer referenced)."
  defstruct [:ref, :path]
end
