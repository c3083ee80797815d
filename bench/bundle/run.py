#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Times nx's benchmark bundle on this host, next to PyTorch and XLA.

Every model and op of bench/models, compiled ahead of time by nx-compile for
x86-64-v3 and x86-64-v4 (the bundle's objects/), runs under the bundled
nxrt-run at 1 thread (pinned to one core) and on every core this process may
use. PyTorch eager and XLA (JAX's jit) run the same cases on the same inputs
when they import. The sides take turns in --rounds interleaved rounds; each
figure is the median of --runs runs after the first, and a side's figure is
its best round. Every side's output is checked once against models.py's
NumPy reference in float64 before it is timed. nx's times are its compiled
entry's (nxrt-run --timing's "entry") on input buffers that every run
reads in place (--reuse-inputs), as PyTorch's and XLA's are their calls'
on tensors they hold. Prints Markdown tables: steady-state times and
ratios, each side's first run against its steady state, and nx's variants
(the same case compiled with other nx-compile flags, timed in the same
rounds) against nx's default.

    python3 run.py [--rounds 2] [--runs 30] [--cases mlp,transpose]
                   [--threads N] [--core N] [--no-peers] [--no-variants]

Needs Python 3 with NumPy; PyTorch and JAX are optional.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "models"))

import numpy as np  # noqa: E402

import models  # noqa: E402

LEVELS = {
    "x86-64-v4": {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl",
                  "avx2", "fma", "bmi2", "movbe"},
    "x86-64-v3": {"avx2", "fma", "bmi1", "bmi2", "f16c", "movbe"},
}
SIDES = ("nx", "xla", "torch")
TITLES = {"nx": "nx", "xla": "XLA", "torch": "PyTorch"}


def cpu_flags():
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def isa_level():
    """The highest level the bundle has objects for that this CPU runs."""
    flags = cpu_flags()
    for level, needs in LEVELS.items():
        if needs <= flags and os.path.isdir(os.path.join(HERE, "objects", level)):
            return level
    sys.exit("run.py: this CPU runs neither x86-64-v4 nor x86-64-v3 code")


# The instruction sets that pick libnxrt's kernels at run time (oneDNN's bf16
# and AMX kernels, F16C for f16 widening), named in the table's first line.
KERNEL_FLAGS = ("avx2", "f16c", "avx512f", "avx512_vnni", "avx512_bf16",
                "avx512_fp16", "amx_bf16", "amx_int8")


def kernel_flags():
    flags = cpu_flags()
    return " ".join(f for f in KERNEL_FLAGS if f in flags) or "none"


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def bundled_variants(level, cases):
    """The variants of `cases` compiled for `level`: [{case, flags, object}]."""
    listing = os.path.join(HERE, "objects", level, "variants.json")
    if not os.path.exists(listing):
        return []
    with open(listing) as f:
        return [v for v in json.load(f) if v["case"] in cases]


def bundled_cases(level, requested):
    """The cases asked for (default: every one compiled for `level`), each
    known to models.py and compiled for `level`."""
    objects = os.path.join(HERE, "objects", level)
    compiled = [name for name in models.MODELS
                if os.path.exists(os.path.join(objects, f"{name}.so"))]
    cases = requested.split(",") if requested else compiled
    for name in cases:
        models.model(name)
        if name not in compiled:
            sys.exit(f"run.py: the bundle has no {level} object for {name}")
    return cases


# The core 1-thread runs are pinned to: --core, or the last one this
# process may use. Virtual machines and many servers route device
# interrupts to core 0, whose timings are then the noisiest.
PINNED_CORE = None


def pin_to_one_core():
    """For a child at 1 thread: PINNED_CORE."""
    os.sched_setaffinity(0, {PINNED_CORE})


def write_inputs(cases, directory):
    for name in cases:
        os.makedirs(os.path.join(directory, name), exist_ok=True)
        for k, value in enumerate(models.model(name).inputs()):
            np.save(os.path.join(directory, name, f"arg{k}.npy"), value)


def input_paths(directory, name):
    count = len(models.model(name).arguments)
    return [os.path.join(directory, name, f"arg{k}.npy") for k in range(count)]


def summarize(samples):
    """(first run, median of the others) in milliseconds."""
    return samples[0], statistics.median(samples[1:])


def checked(name, actual, side):
    """Whether `actual` agrees with NumPy's float64 reference."""
    m = models.model(name)
    expected = m.numpy(*[a.astype(np.float64) for a in m.inputs()])
    if actual.shape != expected.shape:
        print(f"{side} {name}: shape {actual.shape}, expected {expected.shape}",
              file=sys.stderr)
        return False
    scale = max(1.0, float(np.abs(expected).max()))
    error = float(np.abs(actual.astype(np.float64) - expected).max()) / scale
    if error > m.tolerance:
        print(f"{side} {name}: error {error:.3g} past {m.tolerance:g}",
              file=sys.stderr)
    return error <= m.tolerance


# ---------------------------------------------------------------------------
# nx: the bundled nxrt-run on the objects for this CPU
# ---------------------------------------------------------------------------

def nxrt_run(level, name, inputs, threads, extra, obj=None):
    """nxrt-run on the object of case `name` (or on `obj`, a variant's)."""
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(HERE, "lib"))
    command = [os.path.join(HERE, "bin", "nxrt-run"),
               os.path.join(HERE, "objects", level, f"{obj or name}.so"),
               f"--entry={name.replace('-', '_')}",
               f"--compute-threads={threads}", "--quiet"]
    command += [f"--input=@{path}" for path in input_paths(inputs, name)]
    return subprocess.run(command + extra, capture_output=True, text=True,
                          env=env, preexec_fn=pin_to_one_core
                          if threads == 1 else None)


def nx_check(level, name, inputs, obj=None):
    output = os.path.join(inputs, name, f"{obj or 'nx'}.npy")
    done = nxrt_run(level, name, inputs, 0, [f"--output={output}"], obj)
    if done.returncode != 0:
        print(f"nx {name}: {done.stderr.strip()}", file=sys.stderr)
        return False
    return checked(name, np.load(output), "nx")


def nx_times(level, name, inputs, threads, runs, obj=None):
    # Not fresh copies per run, which the runner writes from one core.
    done = nxrt_run(level, name, inputs, threads,
                    [f"--repeat={runs + 1}", "--timing", "--reuse-inputs"],
                    obj)
    if done.returncode != 0:
        print(f"nx {name}: {done.stderr.strip()}", file=sys.stderr)
        return None
    samples = [float(line.rsplit("(entry ", 1)[1].split()[0])
               for line in done.stderr.splitlines()
               if line.startswith("run ") and "(entry " in line]
    return summarize(samples)


# ---------------------------------------------------------------------------
# Peers: a child process of this script per framework and thread count
# ---------------------------------------------------------------------------

def peer_function(framework, m):
    """The framework's callable on the framework's own tensors, and the
    conversion of NumPy inputs to them."""
    if framework == "torch":
        import torch
        run = m.torch(torch)
        prepare = getattr(run, "prepare", lambda a: a)

        def convert(arrays):
            return prepare([torch.from_numpy(a).clone() for a in arrays])

        def call(args):
            with torch.no_grad():
                return run(*args)

        def fetch(out):
            if getattr(run, "to_nhwc", False):
                out = out.permute(0, 2, 3, 1)
            return out.contiguous().numpy()
        return convert, call, fetch
    import jax
    from jax import lax
    import jax.numpy as jnp
    compiled = {}

    def convert(arrays):
        args = [jax.device_put(a) for a in arrays]
        compiled["fn"] = jax.jit(m.jax(jnp, lax)).lower(*args).compile()
        return args

    def call(args):
        return compiled["fn"](*args).block_until_ready()
    return convert, call, np.asarray


def peer_main(args):
    """Child: times each case with one framework; prints JSON."""
    if args.peer == "torch":
        import torch
        torch.set_num_threads(args.threads)
    results = {}
    for name in args.cases.split(","):
        m = models.model(name)
        try:
            convert, call, fetch = peer_function(args.peer, m)
            tensors = convert([np.load(p) for p in input_paths(args.inputs, name)])
            samples = []
            for _ in range(args.runs + 1):
                start = time.perf_counter()
                out = call(tensors)
                samples.append((time.perf_counter() - start) * 1e3)
            ok = checked(name, fetch(out), args.peer)
            results[name] = summarize(samples) if ok else None
        except Exception as error:  # a case the framework cannot run
            print(f"{args.peer} {name}: {error}", file=sys.stderr)
            results[name] = None
    json.dump(results, sys.stdout)


def peer_importable(framework):
    module = {"torch": "torch", "xla": "jax"}[framework]
    done = subprocess.run([sys.executable, "-c", f"import {module}"],
                          capture_output=True)
    return done.returncode == 0


def peer_times(framework, cases, inputs, threads, runs):
    env = dict(os.environ)
    # Set before the framework loads: its BLAS and OpenMP pools read them.
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                     "MKL_NUM_THREADS"):
        env[variable] = str(threads)
    # The host may have an accelerator: the comparison is with XLA's CPU
    # backend, which sizes its pool by this process's affinity.
    env["JAX_PLATFORMS"] = "cpu"
    command = [sys.executable, os.path.abspath(__file__),
               f"--peer={'jax' if framework == 'xla' else framework}",
               f"--threads={threads}", f"--runs={runs}",
               f"--cases={','.join(cases)}", f"--inputs={inputs}"]
    done = subprocess.run(command, capture_output=True, text=True, env=env,
                          preexec_fn=pin_to_one_core if threads == 1 else None)
    sys.stderr.write(done.stderr)
    if done.returncode != 0:
        return {}
    return json.loads(done.stdout)


# ---------------------------------------------------------------------------
# Rounds and tables
# ---------------------------------------------------------------------------

def one_round(sides, cases, variants, inputs, level, settings, runs, order):
    """{(side, threads): {case: (first, median)}} for one round; nx's
    variants under ("variant", threads), by object."""
    timings = {}
    for side in order:
        if side not in sides:
            continue
        for threads in settings:
            if side == "nx":
                timings[(side, threads)] = {
                    name: nx_times(level, name, inputs, threads, runs)
                    for name in cases}
                timings[("variant", threads)] = {
                    v["object"]: nx_times(level, v["case"], inputs, threads,
                                          runs, v["object"])
                    for v in variants}
            else:
                timings[(side, threads)] = peer_times(side, cases, inputs,
                                                      threads, runs)
    return timings


def best_of(rounds, key, name):
    """The round with the lowest median: (first, median), or None."""
    found = [r[key].get(name) for r in rounds if r.get(key, {}).get(name)]
    return min(found, key=lambda t: t[1]) if found else None


def cell(value):
    return f"{value:.3f}" if value is not None else "-"


def print_tables(rounds, cases, settings):
    head = ["case"] + [f"{TITLES[s]} {t}" for t in settings for s in SIDES]
    head += [f"nx / best, {t}" for t in settings]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for name in cases:
        row, ratios = [name], []
        for threads in settings:
            medians = {s: (best_of(rounds, (s, threads), name) or (0, None))[1]
                       for s in SIDES}
            row += [cell(medians[s]) for s in SIDES]
            peers = [medians[s] for s in SIDES[1:] if medians[s]]
            ratios.append(f"{medians['nx'] / min(peers):.2f}x"
                          if peers and medians["nx"] else "-")
        print("| " + " | ".join(row + ratios) + " |")
    print()
    print("First run against steady state (ms):")
    print()
    head = ["case"] + [f"{TITLES[s]} {t}: first / steady" for t in settings
                       for s in SIDES]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for name in cases:
        row = [name]
        for threads in settings:
            for side in SIDES:
                best = best_of(rounds, (side, threads), name)
                row.append(f"{best[0]:.3f} / {best[1]:.3f}" if best else "-")
        print("| " + " | ".join(row) + " |")


def print_variants(rounds, variants, settings):
    """Each variant's steady state against nx's default, in the same rounds."""
    if not variants:
        return
    print()
    print("nx's variants against its default (ms; below 1.00x, the variant "
          "is faster):")
    print()
    head = ["case", "nx-compile flags"]
    for threads in settings:
        head += [f"nx {threads}", f"variant {threads}",
                 f"variant / nx, {threads}"]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for v in variants:
        row = [v["case"], " ".join(f"`{flag}`" for flag in v["flags"])]
        for threads in settings:
            default = (best_of(rounds, ("nx", threads), v["case"])
                       or (0, None))[1]
            variant = (best_of(rounds, ("variant", threads), v["object"])
                       or (0, None))[1]
            ratio = (f"{variant / default:.2f}x" if default and variant
                     else "-")
            row += [cell(default), cell(variant), ratio]
        print("| " + " | ".join(row) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--cases",
                        help="comma-separated models and ops (default: "
                             "every one the bundle has objects for)")
    parser.add_argument("--threads", type=int, default=0,
                        help="threads of the all-cores setting (0: every "
                             "core this process may use)")
    parser.add_argument("--core", type=int,
                        help="the core of the 1-thread runs (default: the "
                             "last core this process may use)")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--no-variants", action="store_true",
                        help="time no variant of nx's cases")
    parser.add_argument("--peer", help=argparse.SUPPRESS)
    parser.add_argument("--inputs", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.runs < 1 or args.rounds < 1:
        sys.exit("run.py: --runs and --rounds must be at least 1")
    if args.peer:
        return peer_main(args)
    global PINNED_CORE
    allowed = os.sched_getaffinity(0)
    PINNED_CORE = max(allowed) if args.core is None else args.core
    if PINNED_CORE not in allowed:
        sys.exit(f"run.py: --core={PINNED_CORE} is not a core this process "
                 f"may use ({min(allowed)}-{max(allowed)})")
    level = isa_level()
    cases = bundled_cases(level, args.cases)
    variants = [] if args.no_variants else bundled_variants(level, cases)
    cores = args.threads or len(os.sched_getaffinity(0))
    settings = (1, cores)
    sides = ["nx"] + ([] if args.no_peers else
                      [s for s in SIDES[1:] if peer_importable(s)])
    print(f"{cpu_model()}; {cores} cores (1 thread on core {PINNED_CORE}); "
          f"nx objects for {level}; CPU flags {kernel_flags()}; "
          f"sides: {', '.join(TITLES[s] for s in sides)}; medians of "
          f"{args.runs} runs after the first, best of {args.rounds} rounds; "
          f"milliseconds")
    print()
    with tempfile.TemporaryDirectory() as inputs:
        write_inputs(cases, inputs)
        wrong = [name for name in cases if not nx_check(level, name, inputs)]
        wrong += [f"{v['case']} ({' '.join(v['flags'])})" for v in variants
                  if not nx_check(level, v["case"], inputs, v["object"])]
        if wrong:
            sys.exit(f"run.py: nx's results are wrong for {', '.join(wrong)}")
        rounds = []
        for r in range(args.rounds):
            order = sides[r % len(sides):] + sides[:r % len(sides)]
            rounds.append(one_round(sides, cases, variants, inputs, level,
                                    settings, args.runs, order))
    print_tables(rounds, cases, settings)
    print_variants(rounds, variants, settings)


if __name__ == "__main__":
    main()
