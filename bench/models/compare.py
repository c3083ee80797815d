#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Times the models of bench/models, and its single ops, with nx and with
PyTorch eager in one run, and prints Markdown tables of the ratios.

    python3 bench/models/compare.py --nx-bench build/bin/nx-bench-models

The two sides take turns: each of --rounds rounds runs nx-bench-models once
(Google Benchmark, one timing of every model and op) and then `models.py
time` once per thread setting, and every figure printed is the median over
the rounds, for nx and PyTorch alike. This VM's speed drifts over minutes,
so timing one side after the other would hand the drift to one of them.
nx-bench-models also times each single op's kernel library (oneDNN for
convolutions and pooling, OpenBLAS for batched matmuls, C for transposes and
reductions: BM_Baseline) and a pass that only reads the reductions' input
(BM_ReadBound), in the same process as nx. PyTorch runs at 1 thread and at
one thread per core. Its matmuls run on OpenBLAS, whose threads PyTorch's
thread setting does not limit: at 1 thread both are limited
(OMP_NUM_THREADS, OPENBLAS_NUM_THREADS), and at all cores the fastest of
three ways of using them is taken in each round. Run it on an otherwise
idle machine. PyTorch is imported from the interpreter that runs this
script (Debian's python3-torch: run it with /usr/bin/python3).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = ("mlp", "cnn", "transformer")
OPS = ("conv", "conv-strided", "conv-dilated", "conv-nchw", "conv-fhwc",
       "conv-grouped",
       "depthwise-conv", "depthwise-conv-strided", "max-pool", "avg-pool",
       "batch-matmul", "batch-matmul-transposed", "batch-matmul-transposed-a",
       "masked-attention", "transpose", "column-sum", "row-sum", "middle-max",
       "conv1d", "conv3d", "conv3d-ncdhw", "concat", "pad", "reverse",
       "full-sum",
       "matvec", "softmax", "argmax", "dot")


def nx_times(bench, min_time):
    """One timing of every benchmark of nx-bench-models, by name."""
    out = subprocess.run(
        [bench, "--benchmark_format=json", f"--benchmark_min_time={min_time}"],
        check=True, capture_output=True, text=True).stdout
    return {b["name"]: b["real_time"] for b in json.loads(out)["benchmarks"]}


def torch_run(intra_op, blas, min_time):
    """PyTorch's times with `intra_op` threads of its own and `blas` threads
    in the OpenBLAS it calls for matmuls (which ignores set_num_threads)."""
    env = dict(os.environ, OMP_NUM_THREADS=str(intra_op),
               OPENBLAS_NUM_THREADS=str(blas))
    out = subprocess.run(
        [sys.executable, os.path.join(HERE, "models.py"), "time",
         f"--threads={intra_op}", "--repetitions=1",
         f"--min-time={min_time}", *MODELS, *OPS],
        check=True, capture_output=True, text=True, env=env).stdout
    return {b["name"].split("/")[1]: b["real_time"]
            for b in json.loads(out)["benchmarks"]}


def torch_times(cores, min_time):
    """PyTorch eager on 1 thread (its own and OpenBLAS's), and on all cores:
    the fastest, per model, of the three ways to spend them (the cores on
    OpenBLAS only, which is PyTorch's default on this machine, on its
    intra-op threads only, or on both)."""
    one = torch_run(1, 1, min_time)
    configs = [torch_run(t, b, min_time)
               for t, b in ((1, cores), (cores, 1), (cores, cores))]
    return {1: one,
            0: {m: min(c[m] for c in configs) for m in MODELS + OPS}}


def require_torch():
    """Stops with what to install when PyTorch does not import, rather than
    with models.py's traceback in the middle of the first round."""
    try:
        import torch  # noqa: F401
    except ImportError as error:
        sys.exit(f"compare.py: PyTorch does not import in {sys.executable} "
                 f"({error}); install Debian's python3-torch (./dev.sh bench "
                 f"does) and run this script with /usr/bin/python3")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nx-bench", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.5)
    args = parser.parse_args()
    require_torch()

    cores = os.cpu_count()
    nx_rounds, torch_rounds = [], []
    for _ in range(args.rounds):
        nx_rounds.append(nx_times(args.nx_bench, args.min_time))
        torch_rounds.append(torch_times(cores, args.min_time))
    nx = {name: statistics.median(r[name] for r in nx_rounds)
          for name in nx_rounds[0]}
    torch = {threads: {name: statistics.median(r[threads][name]
                                               for r in torch_rounds)
                       for name in MODELS + OPS}
             for threads in (1, 0)}
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
    print()
    print("| op | threads | nx (us) | kernel library (us) | nx / library "
          "| PyTorch eager (us) | nx / PyTorch |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for op in OPS:
        for threads in (1, 0):
            mine = nx[f"BM_Op/{op}/threads:{threads}/real_time"]
            library = nx.get(f"BM_Baseline/{op}/threads:{threads}/real_time")
            peer = torch[threads][op] * 1e3
            shown = threads if threads else f"{cores} (all)"
            versus = (f"{library:.0f} | {mine / library:.2f}x" if library
                      else "- | -")
            print(f"| {op} | {shown} | {mine:.0f} | {versus} | {peer:.0f} | "
                  f"{mine / peer:.2f}x |")
    bound = nx.get("BM_ReadBound/2048x2048/threads:1/real_time")
    if bound:
        print()
        print(f"Reading the reductions' 2048x2048 f32 input once, and nothing "
              f"else (BM_ReadBound), took {bound:.0f} us at 1 thread.")


if __name__ == "__main__":
    main()
