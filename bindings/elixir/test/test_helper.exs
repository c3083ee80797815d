# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
dir = NxRuntime.TestPrograms.compile_all!()
ExUnit.after_suite(fn _ -> File.rm_rf!(dir) end)
ExUnit.start()
