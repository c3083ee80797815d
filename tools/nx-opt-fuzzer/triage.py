#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Sorts the inputs a nx-opt-fuzzer run kept (crash-*, timeout-*, oom-*,
leak-*, slow-unit-*) into nx's failures and upstream MLIR's.

Each input is run again and its report read. A failure counts as nx's when
it happened while passes ran (an upstream crash reached through nx's
pipelines on IR nx accepted is nx's to prevent), in nx code, or is one of
the harness's own checks (invalid IR after a pass, an error without a
location, output that does not parse back). A crash inside the MLIR parser
with no nx frame is upstream's: the input never reached nx. So is a crash
whose stack the sanitizer could not unwind (a call through a null pointer
leaves only the faulting frame) when the input crashes the harness with
NX_FUZZ_PARSE_ONLY set too, which stops it after parsing.

Each line gives the verdict, the input, the pipeline it ran (its override
line's or its selector's) and what happened, with the innermost nx frame of
a sanitizer report; the summary counts the distinct failures of each kind,
so that many inputs for one upstream parser crash do not hide the rest.

Exits 1 when any input is nx's.

    triage.py --fuzzer build-fuzz/bin/nx-opt-fuzzer build-fuzz/crashes
"""

import argparse
import collections
import os
import pathlib
import re
import subprocess
import sys

KINDS = ("crash-", "timeout-", "oom-", "leak-", "slow-unit-")
OVERRIDE = b"// pipeline: "
FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ in (.*)$")
# Frames that are not the code under test: libFuzzer, the sanitizers, the
# harness's own abort, libc.
RUNTIME = ("fuzzer::", "__sanitizer", "__asan", "__ubsan", "__interceptor",
           "LLVMFuzzer", "fail(", "abort", "raise", "__pthread", "__libc",
           "_start", "main", "malloc", "calloc", "realloc", "free",
           "operator new", "operator delete")


def pipelines(fuzzer):
    out = subprocess.run([fuzzer, "-list_pipelines=1"], check=True,
                         capture_output=True, text=True).stdout
    return out.split("\n")[:-1]


def pipeline_of(data, names):
    """The pipeline the harness runs for an input."""
    text = data[1:]
    if text.startswith(OVERRIDE):
        return text[len(OVERRIDE):].split(b"\n", 1)[0].decode(errors="replace")
    return names[data[0] % len(names)] if data else ""


def nx_frame(report):
    """The innermost function in mlir::nx on the first stack of a report,
    else the innermost one compiled into the harness binary outside the
    runtimes (nx's anonymous namespaces)."""
    in_stack = False
    first = ""
    for line in report.splitlines():
        match = FRAME.match(line)
        if not match:
            if in_stack:
                break
            continue
        in_stack = True
        # "FUNCTION LOCATION [(BuildId: ...)]"; the location has no spaces.
        text = re.sub(r" \(BuildId: [0-9a-f]+\)$", "", match.group(1))
        function, _, location = text.rpartition(" ")
        if "mlir::nx::" in function:
            return function
        if (not first and function and not function.startswith(RUNTIME)
                and "/usr/" not in location and ".so" not in location
                and not location.startswith(("csu/", "nptl/", "signal/",
                                             "stdlib/"))):
            first = function
    return first


def harness_verdict(report):
    """The harness's own finding, e.g. "pass 'x' succeeded but left IR that
    does not verify"."""
    for line in report.splitlines():
        if line.startswith("nx-opt-fuzzer: ") and not line.startswith(
                ("nx-opt-fuzzer: diagnostic: ", "nx-opt-fuzzer: pipeline: ")):
            return line
    return ""


def first_frame(report, marker):
    """The number of the first stack frame mentioning `marker`, or None."""
    for line in report.splitlines():
        frame = re.match(r"\s*#(\d+) ", line)
        if frame and marker in line:
            return int(frame.group(1))
    return None


def classify(report):
    if harness_verdict(report):
        return "nx"
    if "PassManager::run" in report:
        return "nx"
    # MLIR's parser may crash below an nx op's own parse method, which hands
    # it an attribute dictionary: the crash is still the parser's.
    parser = first_frame(report, "mlir::detail::Parser::")
    nx = first_frame(report, "mlir::nx::")
    if parser is not None and (nx is None or parser < nx):
        return "upstream-parser"
    if nx is not None:
        return "nx"
    if "parseSourceString" in report or "parseSourceFile" in report:
        return "upstream-parser"
    return "nx"


def first_line(report, marker):
    for line in report.splitlines():
        if marker in line:
            return line.strip()
    return ""


def crashes_parsing(args, path):
    """Whether the input fails the harness when it only parses it."""
    run = subprocess.run(
        [args.fuzzer, f"-timeout={args.timeout}", "-rss_limit_mb=4096",
         str(path)], capture_output=True, text=True, errors="replace",
        env=dict(os.environ, NX_FUZZ_PARSE_ONLY="1"))
    return run.returncode != 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fuzzer", required=True)
    parser.add_argument("--timeout", type=int, default=10)
    parser.add_argument("artifacts", type=pathlib.Path)
    args = parser.parse_args()

    names = pipelines(args.fuzzer)
    inputs = sorted(p for p in args.artifacts.iterdir()
                    if p.is_file() and p.name.startswith(KINDS))
    ours = 0
    distinct = collections.defaultdict(set)
    for path in inputs:
        run = subprocess.run(
            [args.fuzzer, f"-timeout={args.timeout}", "-rss_limit_mb=4096",
             str(path)], capture_output=True, text=True, errors="replace")
        report = run.stdout + run.stderr
        if run.returncode == 0:
            verdict, what = "flaky", "passes when run alone"
        else:
            verdict = classify(report)
            if (verdict == "nx" and not harness_verdict(report)
                    and not nx_frame(report)
                    and "PassManager::run" not in report
                    and crashes_parsing(args, path)):
                verdict = "upstream-parser"
            what = (harness_verdict(report) or
                    first_line(report, "SUMMARY:") or
                    first_line(report, "ERROR:") or "no report")
            frame = nx_frame(report)
            if frame:
                what += f" [in {frame}]"
        ours += verdict == "nx"
        pipeline = pipeline_of(path.read_bytes(), names)
        # Failures differ by what happened where, not by address or input.
        distinct[verdict].add(re.sub(r"0x[0-9a-f]+|\d+", "N",
                                     what.split(":\n", 1)[0]))
        print(f"{verdict:16} {path.name} [{pipeline}]: {what}")
    summary = ", ".join(f"{len(kinds)} distinct {verdict}"
                        for verdict, kinds in sorted(distinct.items()))
    print(f"{len(inputs)} inputs, {ours} in nx"
          + (f" ({summary})" if summary else ""), file=sys.stderr)
    return 1 if ours else 0


if __name__ == "__main__":
    sys.exit(main())
