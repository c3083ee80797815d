# The NIF is built by a compiler task of this project (no Hex, no
# elixir_make): see mix/compile_nx_nif.exs.
Code.require_file("mix/compile_nx_nif.exs", __DIR__)

defmodule NxRuntime.MixProject do
  use Mix.Project

  def project do
    [
      app: :nx_runtime,
      version: "0.1.0",
      elixir: "~> 1.14",
      compilers: [:nx_nif] ++ Mix.compilers(),
      elixirc_paths: elixirc_paths(Mix.env()),
      start_permanent: Mix.env() == :prod,
      deps: []
    ]
  end

  def application, do: [extra_applications: [:logger]]

  defp elixirc_paths(:test), do: ["lib", "test/support"]
  defp elixirc_paths(_), do: ["lib"]
end
