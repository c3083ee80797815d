#!/usr/bin/env python3
"""Sorts the inputs a nx-opt-fuzzer run kept (crash-*, timeout-*, oom-*,
leak-*, slow-unit-*) into nx's failures and upstream MLIR's.

Each input is run again and its report read. A failure counts as nx's when
it happened while passes ran (an upstream crash reached through nx's
pipelines on IR nx accepted is nx's to prevent), in nx code, or is one of
the harness's own checks (invalid IR after a pass, an error without a
location, output that does not parse back). A crash inside the MLIR parser
with no nx frame is upstream's: the input never reached nx.

Exits 1 when any input is nx's.

    triage.py --fuzzer build-fuzz/bin/nx-opt-fuzzer build-fuzz/crashes
"""

import argparse
import pathlib
import subprocess
import sys

KINDS = ("crash-", "timeout-", "oom-", "leak-", "slow-unit-")


def harness_verdict(report):
    """The harness's own finding, e.g. "pass 'x' succeeded but left IR that
    does not verify"."""
    for line in report.splitlines():
        if line.startswith("nx-opt-fuzzer: ") and not line.startswith(
                "nx-opt-fuzzer: diagnostic: "):
            return line
    return ""


def classify(report):
    if harness_verdict(report):
        return "nx"
    if "PassManager::run" in report or "mlir::nx::" in report:
        return "nx"
    if "parseSourceString" in report or "parseSourceFile" in report:
        return "upstream-parser"
    return "nx"


def first_line(report, marker):
    for line in report.splitlines():
        if marker in line:
            return line.strip()
    return ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fuzzer", required=True)
    parser.add_argument("--timeout", type=int, default=10)
    parser.add_argument("artifacts", type=pathlib.Path)
    args = parser.parse_args()

    inputs = sorted(p for p in args.artifacts.iterdir()
                    if p.is_file() and p.name.startswith(KINDS))
    ours = 0
    for path in inputs:
        run = subprocess.run(
            [args.fuzzer, f"-timeout={args.timeout}", "-rss_limit_mb=4096",
             str(path)], capture_output=True, text=True, errors="replace")
        report = run.stdout + run.stderr
        if run.returncode == 0:
            verdict, what = "flaky", "passes when run alone"
        else:
            verdict = classify(report)
            what = (harness_verdict(report) or
                    first_line(report, "SUMMARY:") or
                    first_line(report, "ERROR:") or "no report")
        ours += verdict == "nx"
        print(f"{verdict:16} {path.name}: {what}")
    print(f"{len(inputs)} inputs, {ours} in nx", file=sys.stderr)
    return 1 if ours else 0


if __name__ == "__main__":
    sys.exit(main())
