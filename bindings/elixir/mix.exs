# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The NIF is built by a compiler task of this project (no Hex, no
# elixir_make): see mix/compile_nx_nif.exs.
Code.require_file("mix/compile_nx_nif.exs", __DIR__)

defmodule NxRuntime.MixProject do
  use Mix.Project

  # The binding is released with nx-mlir: its version is the project's.
  @version (case Regex.run(
                   ~r/project\(nx-mlir VERSION ([0-9]+\.[0-9]+\.[0-9]+)/,
                   File.read!(Path.expand("../../CMakeLists.txt", __DIR__))
                 ) do
              [_, version] -> version
              nil -> Mix.raise("no project(nx-mlir VERSION ...) in CMakeLists.txt")
            end)

  def project do
    [
      app: :nx_runtime,
      version: @version,
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
