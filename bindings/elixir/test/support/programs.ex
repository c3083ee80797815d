# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.TestPrograms do
  @moduledoc false
  # Compiles test/programs/*.mlir with nx-compile (NX_COMPILE, default
  # ../../build/bin/nx-compile) into a fresh temporary directory, once per
  # suite; each test loads what it needs into a runtime of its own.

  @root Path.expand("../..", __DIR__)

  # NX_COMPILE, or the build tree's nx-compile.
  def nx_compile do
    System.get_env("NX_COMPILE", Path.join(@root, "../../build/bin/nx-compile"))
    |> Path.expand()
  end

  def compile_all! do
    nx_compile = nx_compile()

    unless File.exists?(nx_compile) do
      raise "nx-compile not found at #{nx_compile}: build the project or set NX_COMPILE"
    end

    dir = Path.join(System.tmp_dir!(), "nx_runtime_test_#{System.unique_integer([:positive])}")
    File.mkdir_p!(dir)

    for source <- Path.wildcard(Path.join(@root, "test/programs/*.mlir")) do
      output = Path.join(dir, Path.basename(source, ".mlir") <> ".so")

      case System.cmd(nx_compile, [source, "-o", output], stderr_to_stdout: true) do
        {_, 0} -> :ok
        {out, status} -> raise "nx-compile #{source} failed (#{status}):\n#{out}"
      end
    end

    :persistent_term.put(__MODULE__, dir)
    dir
  end

  def path(name), do: Path.join(:persistent_term.get(__MODULE__), "#{name}.so")

  def load(runtime, name), do: NxRuntime.load(runtime, path(name))
end
