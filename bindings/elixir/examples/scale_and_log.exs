# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Compiles examples/scale_and_log.mlir with nx-compile and runs it with two
# callbacks written in Elixir. From bindings/elixir:
#
#     mix run examples/scale_and_log.exs
#
# nx-compile is $NX_COMPILE, else the build tree's (../../build/bin).

root = Path.expand("..", __DIR__)
nx_compile = System.get_env("NX_COMPILE", Path.join(root, "../../build/bin/nx-compile"))
source = Path.join(__DIR__, "scale_and_log.mlir")
object = Path.join(System.tmp_dir!(), "scale_and_log_#{System.unique_integer([:positive])}.so")

{out, status} = System.cmd(nx_compile, [source, "-o", object], stderr_to_stdout: true)
if status != 0, do: raise("nx-compile failed (#{status}):\n#{out}")

alias NxRuntime.Tensor

{:ok, runtime} =
  NxRuntime.start_link(
    callbacks: %{
      # An elixir_call: returns a tensor of the declared type. Static
      # arguments arrive as a map with string keys.
      "scale" => fn [x], %{"factor" => factor} ->
        Tensor.new(Enum.map(Tensor.to_list(x), &(&1 * factor)), x.type, x.shape)
      end,
      # An io_callback: its values pass through; what it returns is ignored.
      "log" => fn [y], %{"label" => label} ->
        IO.puts("#{label} = #{inspect(Tensor.to_list(y))}")
      end
    }
  )

program = NxRuntime.load(runtime, object)
[result] = NxRuntime.run(program, "main", [Tensor.new([1.0, 2.0, 3.0, 4.0], {:f, 32})])
IO.puts("main returned #{inspect(Tensor.to_list(result))}")
File.rm!(object)
