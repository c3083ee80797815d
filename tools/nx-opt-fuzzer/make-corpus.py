#!/usr/bin/env python3
"""Seed corpus for nx-opt-fuzzer from the lit suite.

Every .mlir test is split at `// -----` and stripped of comment lines. Each
piece becomes one input per pipeline that fits it: the parse-only pipeline,
nx-lower-to-cpu, and every harness pipeline whose nx passes all appear in
the file's RUN lines. An input is the pipeline's index as one byte followed
by the text, which is what the harness reads.

    make-corpus.py --fuzzer build-fuzz/bin/nx-opt-fuzzer test/ OUT_DIR
"""

import argparse
import hashlib
import pathlib
import re
import subprocess
import sys

PASS_NAME = re.compile(r"(?:nx|convert-nx)-[a-z0-9-]+|convert-to-llvm|convert-linalg-to-openmp")


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fuzzer", required=True)
    parser.add_argument("--max-bytes", type=int, default=16384)
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
                entry = bytes([index]) + data
                name = hashlib.sha1(entry).hexdigest()
                (args.out / name).write_bytes(entry)
                count += 1
    print(f"{count} inputs from {args.tests} in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
