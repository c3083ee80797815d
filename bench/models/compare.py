#!/usr/bin/env python3
"""Times the models of bench/models with nx and with PyTorch eager in one
run, and prints a Markdown table of the ratios.

    python3 bench/models/compare.py --nx-bench build/bin/nx-bench-models

nx's times come from nx-bench-models (Google Benchmark, the median of
--repetitions runs); PyTorch's from `models.py time` (the best of as many
runs), each at 1 thread and at one thread per core. Run it on an otherwise
idle machine. PyTorch is imported from the interpreter that runs this
script (Debian's python3-torch: run it with /usr/bin/python3).
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = ("mlp", "cnn", "transformer")


def nx_times(bench, repetitions, min_time):
    out = subprocess.run(
        [bench, "--benchmark_format=json",
         f"--benchmark_repetitions={repetitions}",
         f"--benchmark_min_time={min_time}"],
        check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median" or (
                repetitions == 1 and b.get("run_type") == "iteration"):
            name = b["run_name"] if "run_name" in b else b["name"]
            times[name] = b["real_time"]
    return times


def torch_times(threads, repetitions, min_time):
    out = subprocess.run(
        [sys.executable, os.path.join(HERE, "models.py"), "time",
         f"--threads={threads}", f"--repetitions={repetitions}",
         f"--min-time={min_time}", *MODELS],
        check=True, capture_output=True, text=True).stdout
    return {b["name"].split("/")[1]: b["real_time"]
            for b in json.loads(out)["benchmarks"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nx-bench", required=True)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.5)
    args = parser.parse_args()

    nx = nx_times(args.nx_bench, args.repetitions, args.min_time)
    cores = os.cpu_count()
    torch = {1: torch_times(1, args.repetitions, args.min_time),
             0: torch_times(cores, args.repetitions, args.min_time)}
    print("| model | threads | nx (ms) | with callbacks (ms) | PyTorch eager (ms) "
          "| nx / PyTorch | compile (ms) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for model in MODELS:
        for threads in (1, 0):
            key = f"BM_Model/{model}/threads:{threads}/real_time"
            keyc = f"BM_Model/{model}-callbacks/threads:{threads}/real_time"
            mine, callbacks = nx[key], nx[keyc]
            peer = torch[threads][model]
            compile_ms = nx.get(f"BM_Compile/{model}/iterations:3", 0.0)
            shown = threads if threads else f"{cores} (all)"
            print(f"| {model} | {shown} | {mine:.2f} | {callbacks:.2f} | "
                  f"{peer:.2f} | {mine / peer:.2f}x | {compile_ms:.0f} |")


if __name__ == "__main__":
    main()
