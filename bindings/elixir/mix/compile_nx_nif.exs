# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule Mix.Tasks.Compile.NxNif do
  @moduledoc """
  Builds the NIF (c_src/*.c) with `cc` against libnxrt.

  Headers come from `NX_INCLUDE_DIR` (default `../../runtime/include`), the library
  from `NX_LIB_DIR` (default `../../build/lib`), both relative to this
  project; `CC` overrides the compiler. The NIF gets an rpath to the
  library's directory, so it loads without LD_LIBRARY_PATH. It is rebuilt
  when a source, nxrt.h or libnxrt is newer than it.
  """
  use Mix.Task.Compiler

  @recursive true

  @impl true
  def run(_args) do
    root = Path.dirname(Mix.Project.project_file())
    include = System.get_env("NX_INCLUDE_DIR", Path.join(root, "../../runtime/include")) |> Path.expand()
    lib = System.get_env("NX_LIB_DIR", Path.join(root, "../../build/lib")) |> Path.expand()
    sources = Path.wildcard(Path.join(root, "c_src/*.{c,h}"))
    output = Path.join([Mix.Project.app_path(), "priv", "nx_runtime_nif.so"])

    inputs = sources ++ [Path.join(include, "nxrt/nxrt.h"), Path.join(lib, "libnxrt.so")]

    cond do
      not File.exists?(Path.join(include, "nxrt/nxrt.h")) ->
        error("nxrt/nxrt.h not found under #{include}: set NX_INCLUDE_DIR")

      not File.exists?(Path.join(lib, "libnxrt.so")) ->
        error(
          "libnxrt.so not found in #{lib}: build the project first " <>
            "(ninja -C build) or set NX_LIB_DIR"
        )

      Mix.Utils.stale?(inputs, [output]) ->
        build(sources, include, lib, output)

      true ->
        {:noop, []}
    end
  end

  defp build(sources, include, lib, output) do
    File.mkdir_p!(Path.dirname(output))

    erts_include =
      Path.join([:code.root_dir(), "erts-#{:erlang.system_info(:version)}", "include"])

    cc = System.get_env("CC", "cc")

    args =
      ~w(-std=gnu11 -O2 -g -Wall -Wextra -fPIC -shared -fvisibility=hidden) ++
        ["-I", erts_include, "-I", include] ++
        Enum.filter(sources, &String.ends_with?(&1, ".c")) ++
        ["-L", lib, "-lnxrt", "-Wl,-rpath,#{lib}", "-ldl", "-o", output]

    case System.cmd(cc, args, stderr_to_stdout: true) do
      {out, 0} ->
        if out != "", do: Mix.shell().info(out)
        Mix.shell().info("Compiled #{Path.relative_to_cwd(output)}")
        {:ok, []}

      {out, status} ->
        error("#{cc} failed (exit status #{status}):\n#{out}")
    end
  end

  defp error(message) do
    Mix.shell().error(message)

    diagnostic = %Mix.Task.Compiler.Diagnostic{
      compiler_name: "nx_nif",
      file: Mix.Project.project_file(),
      message: message,
      position: nil,
      severity: :error
    }

    {:error, [diagnostic]}
  end
end
