#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Seed corpus for nx-opt-fuzzer from the lit suite and hand-written seeds.

Every .mlir test is split at `// -----` and stripped of comment lines. Each
piece becomes one input per pipeline that fits it: the parse-only pipeline,
nx-lower-to-cpu, and every harness pipeline whose nx passes all appear in
the file's RUN lines. An input is the pipeline's index as one byte followed
by the text, which is what the harness reads.

The hand-written seeds (--seeds, tools/nx-opt-fuzzer/seeds) name their
pipelines: one input per `// fuzz-pipeline: P` line of the file, by index
when P is a harness pipeline and on a `// pipeline: P` override line (the
harness's, see Mutator.h) otherwise; `all` is every harness pipeline, less
those on `// fuzz-skip-pipeline: P` lines.

    make-corpus.py --fuzzer build-fuzz/bin/nx-opt-fuzzer \
        [--seeds tools/nx-opt-fuzzer/seeds] test/ OUT_DIR
"""

import argparse
import hashlib
import pathlib
import re
import subprocess
import sys

PASS_NAME = re.compile(r"(?:nx|convert-nx)-[a-z0-9-]+|convert-to-llvm|nx-linalg-to-openmp")
SEED_PIPELINE = re.compile(r"^// fuzz-pipeline: (.*)$", re.M)
SEED_SKIP = re.compile(r"^// fuzz-skip-pipeline: (.*)$", re.M)
OVERRIDE = "// pipeline: "


def pipelines(fuzzer):
    out = subprocess.run([fuzzer, "-list_pipelines=1"], check=True,
                         capture_output=True, text=True).stdout
    return out.split("\n")[:-1]


def pieces(text):
    for piece in re.split(r"^// -----\s*$", text, flags=re.M):
        lines = [l for l in piece.splitlines() if not l.lstrip().startswith("//")]
        body = "\n".join(lines).strip()
        if body:
            yield body + "\n"


def write(out, entry):
    (out / hashlib.sha1(entry).hexdigest()).write_bytes(entry)


def seed_inputs(path, names):
    """The inputs of one hand-written seed file: (selector, prefix) per
    pipeline its fuzz-pipeline lines name, parse-only included."""
    text = path.read_text(errors="replace")
    chosen = {(0, "")}
    for pipeline in (p.strip() for p in SEED_PIPELINE.findall(text)):
        if pipeline == "all":
            chosen.update((i, "") for i in range(len(names)))
        elif pipeline in names:
            chosen.add((names.index(pipeline), ""))
        else:
            chosen.add((0, OVERRIDE + pipeline + "\n"))
    for pipeline in (p.strip() for p in SEED_SKIP.findall(text)):
        chosen.discard((names.index(pipeline), ""))
    return text, sorted(chosen)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fuzzer", required=True)
    parser.add_argument("--max-bytes", type=int, default=16384)
    parser.add_argument("--seeds", type=pathlib.Path,
                        help="directory of hand-written seeds")
    parser.add_argument("tests", type=pathlib.Path)
    parser.add_argument("out", type=pathlib.Path)
    args = parser.parse_args()

    names = pipelines(args.fuzzer)
    lower = names.index("nx-lower-to-cpu")
    args.out.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted(args.tests.rglob("*.mlir")):
        text = path.read_text(errors="replace")
        runs = " ".join(re.findall(r"RUN:(.*)", text))
        chosen = {0, lower}
        for index, pipeline in enumerate(names):
            passes = set(PASS_NAME.findall(pipeline))
            if passes and all(p in runs for p in passes):
                chosen.add(index)
        for piece in pieces(text):
            data = piece.encode()
            if len(data) + 1 > args.max_bytes:
                continue
            for index in sorted(chosen):
                write(args.out, bytes([index]) + data)
                count += 1
    print(f"{count} inputs from {args.tests} in {args.out}", file=sys.stderr)
    if args.seeds:
        count = 0
        for path in sorted(args.seeds.rglob("*.mlir")):
            text, chosen = seed_inputs(path, names)
            for piece in pieces(text):
                for index, prefix in chosen:
                    entry = bytes([index]) + (prefix + piece).encode()
                    if len(entry) <= args.max_bytes:
                        write(args.out, entry)
                        count += 1
        print(f"{count} inputs from {args.seeds} in {args.out}",
              file=sys.stderr)


if __name__ == "__main__":
    main()
