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
# --param nx_exec_root=DIR: temporary files under DIR, so a nested run of
# the suite (Integration/AOT) never shares them with the outer one.
config.test_exec_root = lit_config.params.get(
    "nx_exec_root", os.path.join(config.nx_obj_root, "test"))

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(
    ("%nx_plugin", os.path.join(config.nx_lib_dir, "libNxPlugin.so")))
config.substitutions.append(("%nx_libs", config.nx_lib_dir))
config.substitutions.append(
    ("%nx_test_callbacks", os.path.join(config.nx_lib_dir, "libNxTestCallbacks.so")))
config.substitutions.append(
    ("%nx_test_bridge_host",
     os.path.join(config.nx_lib_dir, "libNxTestBridgeHost.so")))
config.substitutions.append(
    ("%nx_test_own_hook", os.path.join(config.nx_lib_dir, "libNxTestOwnHook.so")))
config.substitutions.append(
    ("%nx_test_ffi_handlers",
     os.path.join(config.nx_lib_dir, "libNxTestFfiHandlers.so")))
config.substitutions.append(
    ("%nx_example_callbacks",
     os.path.join(config.nx_lib_dir, "libNxExampleCallbacks.so")))
config.substitutions.append(("%nx_src_root", config.nx_src_root))
config.substitutions.append(("%nx_tools", config.nx_tools_dir))
config.substitutions.append(("%nx_obj_root", config.nx_obj_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Our own tools come first; FileCheck, not, count and upstream mlir-opt come
# from the LLVM 22 installation.
tool_dirs = [config.nx_tools_dir, config.llvm_tools_dir]
tools = ["nx-opt", "mlir-opt", "mlir-translate", "nx-runner", "nx-compile",
         "nxrt-run", "nx-aot-host", "nx-ffi-host"]
# --param nx_runner=aot: `nx-runner` in RUN lines runs both the JIT and the
# ahead-of-time path (nx-compile + nxrt-run) and fails unless they agree
# (test/Integration/AOT/nx-runner-via-aot.py); Integration/AOT runs the
# integration suite that way.
if lit_config.params.get("nx_runner") == "aot":
    tools.remove("nx-runner")
    tools.append(ToolSubst("nx-runner", command=" ".join([
        config.python_executable,
        os.path.join(config.nx_src_root, "test", "Integration", "AOT",
                     "nx-runner-via-aot.py"),
        "--nx-runner=" + os.path.join(config.nx_tools_dir, "nx-runner"),
        "--nx-compile=" + os.path.join(config.nx_tools_dir, "nx-compile"),
        "--nxrt-run=" + os.path.join(config.nx_tools_dir, "nxrt-run"),
        "--object-cache=" + os.path.join(config.test_exec_root,
                                         "aot-objects"),
        "--"])))
config.substitutions.append(
    ("%lit", config.python_executable + " " +
     os.path.join(config.llvm_tools_dir, "lit")))
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.nx_tools_dir, append_path=True)

# Sanitizer builds: our tools carry the runtime, upstream mlir-opt does not,
# so it cannot load an instrumented plugin. LLVM's allocators poison memory
# for ASan in our (instrumented) code but not in the uninstrumented libMLIR
# that shares it, so manual poisoning is off. An allocation the system
# refuses returns null, as it does without the sanitizer, instead of ending
# the process: tests check the runners' out-of-memory errors.
if config.nx_sanitizer:
    config.available_features.add(config.nx_sanitizer + "-sanitizer")
    config.available_features.add("sanitizer")
    options = config.environment.get("ASAN_OPTIONS", "")
    config.environment["ASAN_OPTIONS"] = ":".join(
        o for o in (options, "allow_user_poisoning=0",
                    "allocator_may_return_null=1") if o)

# The model benchmark program is built with the tools, except in the
# sanitizer builds, which build only what the tests need.
if os.path.exists(os.path.join(config.nx_tools_dir, "nx-bench-models")):
    config.available_features.add("nx-bench-models")

# The model tests (test/Integration/Models) check nx's outputs against NumPy
# (and PyTorch where it is installed): with lit's own Python when it has
# NumPy, else with the system's (Debian's python3-numpy, which dev.sh
# installs).
import shutil
import subprocess


def find_numpy_python():
    for python in (config.python_executable, "/usr/bin/python3"):
        try:
            if subprocess.run([python, "-c", "import numpy"],
                              capture_output=True).returncode == 0:
                return python
        except OSError:
            pass
    return None


numpy_python = find_numpy_python()
if numpy_python:
    config.available_features.add("numpy")
    config.substitutions.append(("%numpy_python", numpy_python))

# Tests that run a tool as user nobody under a thread limit (prlimit
# --nproc), which only root can set up and root itself is exempt from.
if (os.geteuid() == 0 and shutil.which("setpriv") and shutil.which("prlimit")
        and shutil.which("ps")):
    config.available_features.add("refusable-threads")
    config.substitutions.append((
        "%as_nobody_with_64_threads",
        "sh " + os.path.join(config.nx_src_root, "test", "Utils",
                             "as-nobody.sh") + " 64"))
