#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes nx's benchmark bundle: one .tar.xz that times nx on any x86-64
Linux host, next to PyTorch and XLA where they are installed.

    python3 bench/bundle/make_bundle.py --build-dir build --output nx-bench.tar.xz
        [--cases mlp,transpose] [--levels x86-64-v3,x86-64-v4]
        [--variant transpose:--stream-unread-outputs=false ...]

(`./dev.sh bench-bundle` runs it on the build tree.)

It holds nxrt-run, libnxrt and every library they load that is not the C
library itself (the host may have no LLVM, oneDNN or OpenBLAS), each model
and op of bench/models compiled by nx-compile for each level, models.py
(inputs, NumPy references, the PyTorch and JAX versions) and run.py, the
one script to run there: `python3 nx-bench/run.py`.

It also compiles variants of some cases, each with other nx-compile flags
(VARIANTS, or --variant CASE:FLAG[:FLAG...]), listed in each level's
variants.json: run.py times them beside the case itself, so that one run
on a host answers whether nx's default is the faster choice there.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS_DIR = os.path.join(os.path.dirname(HERE), "models")
sys.path.insert(0, MODELS_DIR)

import models  # noqa: E402

# The C library and the dynamic loader: the host's own must serve.
SYSTEM = re.compile(r"^(ld-linux.*|libc|libm|libpthread|libdl|librt|"
                    r"libresolv|libutil)\.so")


def shared_libraries(binary):
    """(soname, path) of every library `binary` loads, as ldd resolves it."""
    out = subprocess.run(["ldd", binary], check=True, capture_output=True,
                         text=True).stdout
    found = []
    for line in out.splitlines():
        match = re.match(r"\s*(\S+) => (\S+) \(", line)
        if match and not SYSTEM.match(match.group(1)):
            found.append((match.group(1), match.group(2)))
    return found


def copy_libraries(binaries, lib):
    os.makedirs(lib, exist_ok=True)
    for binary in binaries:
        for soname, path in shared_libraries(binary):
            target = os.path.join(lib, soname)
            if not os.path.exists(target):
                shutil.copy2(os.path.realpath(path), target)
    # oneDNN and OpenBLAS ask for GCC's libgomp.so.1: libnxrt answers with
    # libomp, the one OpenMP runtime, as in the build tree.
    gomp = os.path.join(lib, "libgomp.so.1")
    if os.path.exists(os.path.join(lib, "libomp.so.5")):
        if os.path.lexists(gomp):
            os.remove(gomp)
        os.symlink("libomp.so.5", gomp)


# nx's own choices that no 2-core development machine can settle for a
# server: streamed stores for a transpose's output, and the library against
# register tiles for the products of narrow types.
VARIANTS = {
    "transpose": [["--stream-unread-outputs=false"]],
    "matmul-i8": [["--blas=false"]],
    "matmul-bf16": [["--blas=false"]],
    "matmul-f16": [["--blas=false"]],
}


def parse_variants(specs, cases):
    """{case: [flags, ...]} from --variant CASE:FLAG[:FLAG...] (default:
    VARIANTS), for the cases in the bundle."""
    if not specs:
        return {name: flags for name, flags in VARIANTS.items()
                if name in cases}
    variants = {}
    for spec in specs:
        name, _, flags = spec.partition(":")
        if name not in cases or not flags:
            sys.exit(f"make_bundle.py: --variant={spec}: expected CASE:FLAG"
                     f"[:FLAG...] for a case of the bundle")
        variants.setdefault(name, []).append(flags.split(":"))
    return variants


def nx_compile_case(nx_compile, name, level, output, flags=()):
    source = os.path.join(MODELS_DIR, f"{name}.mlir")
    print(" ".join(["nx-compile", f"--mcpu={level}", *flags, f"{name}.mlir"]),
          flush=True)
    subprocess.run([nx_compile, source, "-o", output, f"--mcpu={level}",
                    *flags], check=True)


def compile_objects(nx_compile, cases, variants, levels, objects):
    for level in levels:
        directory = os.path.join(objects, level)
        os.makedirs(directory, exist_ok=True)
        listed = []
        for name in cases:
            nx_compile_case(nx_compile, name, level,
                            os.path.join(directory, f"{name}.so"))
            for index, flags in enumerate(variants.get(name, [])):
                stem = f"{name}.variant{index}"
                nx_compile_case(nx_compile, name, level,
                                os.path.join(directory, f"{stem}.so"), flags)
                listed.append({"case": name, "flags": flags, "object": stem})
        with open(os.path.join(directory, "variants.json"), "w") as out:
            json.dump(listed, out, indent=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--output", required=True,
                        help="the .tar.xz to write, or a directory to fill "
                             "with the bundle's files (no compression)")
    parser.add_argument("--cases", default=",".join(models.MODELS))
    parser.add_argument("--levels", default="x86-64-v3,x86-64-v4")
    parser.add_argument("--variant", action="append", default=[],
                        help="CASE:FLAG[:FLAG...], a variant of CASE compiled "
                             "with these nx-compile flags too (repeatable; "
                             "default: the bundle's own list)")
    args = parser.parse_args()
    cases = args.cases.split(",")
    for name in cases:
        models.model(name)
    variants = parse_variants(args.variant, cases)
    tools = os.path.join(args.build_dir, "bin")
    with tempfile.TemporaryDirectory() as staging:
        root = os.path.join(staging, "nx-bench")
        os.makedirs(os.path.join(root, "bin"))
        os.makedirs(os.path.join(root, "models"))
        shutil.copy2(os.path.join(tools, "nxrt-run"), os.path.join(root, "bin"))
        compile_objects(os.path.join(tools, "nx-compile"), cases, variants,
                        args.levels.split(","), os.path.join(root, "objects"))
        first = os.path.join(root, "objects", args.levels.split(",")[0],
                             f"{cases[0]}.so")
        copy_libraries([os.path.join(root, "bin", "nxrt-run"), first],
                       os.path.join(root, "lib"))
        shutil.copy2(os.path.join(MODELS_DIR, "models.py"),
                     os.path.join(root, "models"))
        shutil.copy2(os.path.join(HERE, "run.py"), root)
        if not args.output.endswith(".tar.xz"):
            shutil.rmtree(args.output, ignore_errors=True)
            shutil.copytree(root, args.output, symlinks=True)
            print(f"wrote {args.output}: python3 {args.output}/run.py")
            return
        with tarfile.open(args.output, "w:xz") as bundle:
            bundle.add(root, arcname="nx-bench")
    size = os.path.getsize(args.output) / (1 << 20)
    print(f"wrote {args.output} ({size:.1f} MiB): on the host, "
          f"tar xf {os.path.basename(args.output)} && python3 nx-bench/run.py")


if __name__ == "__main__":
    main()
