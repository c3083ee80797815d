#!/usr/bin/env python3
"""Stands in for nx-runner in the integration suite, checking that the
ahead-of-time path agrees with the JIT.

Called with nx-runner's arguments, it
  1. runs the real nx-runner with them;
  2. compiles the program with nx-compile (the pipeline flags among them) and
     runs the object with nxrt-run (the other flags);
  3. fails, with a diff, unless both exit with the same status and print the
     same stdout (line order aside for multi-threaded runs, whose callbacks
     interleave) and the same stderr (tool names and --timing aside);
  4. prints nxrt-run's output (errors spelled as nx-runner's; a --timing
     report is the JIT's, whose phases the test checks), so the test's own
     FileCheck lines check the AOT path too.
Flags only a JIT has (--print-lowered, --separate-stages, --progress) run
nx-runner alone; so does a program that neither path can compile (both must
fail).

With --object-cache=DIR, an object is compiled once per program text,
compile flags and nx-compile binary: a test that runs one program many
times (entries, inputs, thread counts) compiles it once.
"""
import argparse
import difflib
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

# nx-runner flags that choose how the program is compiled: nx-compile's.
COMPILE_FLAGS = {"lower-blocks", "blas", "dnnl", "parallel", "vectorize",
                 "strict-reductions", "libm-math", "max-function-ops"}
# --progress shows the JIT's compile phases, which nx-compile has not.
JIT_ONLY_FLAGS = {"print-lowered", "separate-stages", "progress"}


def flag_name(arg):
    if not arg.startswith("-"):
        return None
    return arg.lstrip("-").split("=", 1)[0]


def emit(stdout, stderr):
    # In the order a runner prints them: results, then the error.
    sys.stdout.write(stdout)
    sys.stdout.flush()
    sys.stderr.write(stderr)
    sys.stderr.flush()


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


def normalized_stderr(text):
    text = re.sub(r"\b(nxrt-run|nx-runner)\b", "RUNNER", text)
    # Trace lines (--trace-callbacks, NXRT_TRACE) agree but for durations.
    return re.sub(r"^(nxrt: trace: .*: \w+), [0-9.]+ (ns|us|ms|s)\b",
                  r"\1, DURATION", text, flags=re.MULTILINE)


def thread_count(args):
    for i, arg in enumerate(args):
        name = flag_name(arg)
        if name in ("threads", "run-threads"):
            value = arg.split("=", 1)[1] if "=" in arg else (
                args[i + 1] if i + 1 < len(args) else "1")
            return int(value) if value.isdigit() else 1
    return 1


def cache_key(nx_compile, program, compile_args):
    """What the object depends on: the compiler binary (path, size and
    modification time), the program's bytes and the compile flags."""
    digest = hashlib.sha256()
    stat = os.stat(nx_compile)
    digest.update(f"{os.path.realpath(nx_compile)}:{stat.st_size}:"
                  f"{stat.st_mtime_ns}\0".encode())
    with open(program, "rb") as text:
        digest.update(text.read())
    for arg in compile_args:
        digest.update(b"\0" + arg.encode())
    return digest.hexdigest()


def compile_object(ours, program, compile_args, work):
    """(status, stdout, stderr, path of the object): from the cache when
    it holds one, else compiled (and kept there if it compiled)."""
    model = os.path.join(work, "model.so")
    cached = None
    if ours.object_cache and os.path.isfile(program):
        # Named model.so as in `work`: nxrt-run finds the object's exports
        # by the prefix its file name gives.
        directory = os.path.join(ours.object_cache,
                                 cache_key(ours.nx_compile, program,
                                           compile_args))
        cached = os.path.join(directory, "model.so")
        if os.path.exists(cached):
            return 0, "", "", cached
    compiled = run([ours.nx_compile, program, "-o", model] + compile_args)
    if compiled[0] == 0 and cached:
        # Another worker may store the same key at the same time: each
        # renames its own complete copy into place.
        os.makedirs(directory, exist_ok=True)
        partial = os.path.join(directory, f"model.so.{os.getpid()}.tmp")
        shutil.copyfile(model, partial)
        os.replace(partial, cached)
    return compiled + (model,)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nx-runner", required=True)
    parser.add_argument("--nx-compile", required=True)
    parser.add_argument("--nxrt-run", required=True)
    parser.add_argument("--object-cache")
    ours, args = parser.parse_known_args()
    if args[:1] == ["--"]:
        args = args[1:]

    jit = run([ours.nx_runner] + args)
    positional = [a for a in args if not a.startswith("-")]
    if any(flag_name(a) in JIT_ONLY_FLAGS for a in args) or len(positional) != 1:
        emit(jit[1], jit[2])
        return jit[0]

    compile_args = [a for a in args if flag_name(a) in COMPILE_FLAGS]
    run_args = [a for a in args
                if flag_name(a) not in COMPILE_FLAGS and a != positional[0]]
    with tempfile.TemporaryDirectory() as work:
        *compiled, model = compile_object(ours, positional[0], compile_args,
                                          work)
        if compiled[0] != 0:
            if jit[0] == 0:
                sys.stderr.write("nx-compile failed where nx-runner ran:\n" +
                                 compiled[2])
                return 1
            emit(jit[1], jit[2])
            return jit[0]
        aot = run([ours.nxrt_run, model] + run_args)

    threaded = thread_count(args) > 1
    timed = any(flag_name(a) == "timing" for a in args)
    def stdout_of(result):
        lines = result[1].splitlines(True)
        return sorted(lines) if threaded else lines
    problems = []
    if aot[0] != jit[0]:
        problems.append("exit status: nx-runner %d, nxrt-run %d" %
                        (jit[0], aot[0]))
    if stdout_of(aot) != stdout_of(jit):
        problems.append("stdout differs:\n" + "".join(difflib.unified_diff(
            stdout_of(jit), stdout_of(aot), "nx-runner", "nxrt-run")))
    if not threaded and not timed and normalized_stderr(aot[2]) != normalized_stderr(jit[2]):
        problems.append("stderr differs:\n" + "".join(difflib.unified_diff(
            normalized_stderr(jit[2]).splitlines(True),
            normalized_stderr(aot[2]).splitlines(True),
            "nx-runner", "nxrt-run")))
    if problems:
        sys.stderr.write("nx-runner and nxrt-run disagree on %s:\n%s\n" %
                         (" ".join(args), "\n".join(problems)))
        return 1
    # A --timing report names the JIT's phases, which nxrt-run has not.
    emit(aot[1], jit[2] if timed else
         re.sub(r"\bnxrt-run\b", "nx-runner", aot[2]))
    return aot[0]


if __name__ == "__main__":
    sys.exit(main())
