# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "NX"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.nx_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(
    ("%nx_plugin", os.path.join(config.nx_lib_dir, "libNxPlugin.so")))
config.substitutions.append(("%nx_libs", config.nx_lib_dir))
config.substitutions.append(
    ("%nx_test_callbacks", os.path.join(config.nx_lib_dir, "libNxTestCallbacks.so")))
config.substitutions.append(
    ("%nx_example_callbacks",
     os.path.join(config.nx_lib_dir, "libNxExampleCallbacks.so")))
config.substitutions.append(("%nx_src_root", config.nx_src_root))
config.substitutions.append(("%nx_obj_root", config.nx_obj_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Our own tools come first; FileCheck, not, count and upstream mlir-opt come
# from the LLVM 22 installation.
tool_dirs = [config.nx_tools_dir, config.llvm_tools_dir]
tools = ["nx-opt", "mlir-opt", "mlir-translate", "nx-runner"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.nx_tools_dir, append_path=True)
