defmodule NxRuntime.Stream do
  @moduledoc "An open infeed/outfeed stream (closed when no longer referenced)."
  defstruct [:ref, :name]
end
