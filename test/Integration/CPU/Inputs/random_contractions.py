# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Random contractions against NumPy, for random-contractions.mlir.

    random_contractions.py --tools=DIR --dir=DIR [--seed=N] [--cases=N]
                           [--library] [--flag=NX_COMPILE_FLAG...]

Writes one module of --cases products as linalg.generic (element types i8
to i64, f16 to f64, i8 and f16 widened to i32 and f32 in the body; a batch
or none; shapes that leave partial register tiles, a single row, column or
step, and long reductions; either operand transposed), compiles it once
with nx-compile --blas=false (register tiles) or, with --library, as
nx-compile does by default (the products libnxrt takes call it: f32, f64,
f16 into f32 and i8 into i32) and runs each product with nxrt-run at one
and three threads. Operands are small integers, so every result is exact
in any order of summation (f16 sums stay below 2048). Prints one line per
product and run, and a last line with the number of wrong ones.
"""

import argparse
import os
import random
import subprocess

import numpy as np

TYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
         "f16": np.float16, "f32": np.float32, "f64": np.float64}


def tensor(shape, element):
    return f"tensor<{'x'.join(map(str, shape))}x{element}>"


def make_case(rng, index):
    element = rng.choice(list(TYPES))
    result = element
    if element == "i8" and rng.random() < 0.7:
        result = "i32"
    if element == "f16" and rng.random() < 0.5:
        result = "f32"
    batch = rng.choice([0, 0, 1, 3])
    m = rng.choice([1, 2, 7, 8, 9, 15, 33, 64, 70])
    n = rng.choice([1, 3, 16, 31, 32, 33, 65, 100])
    k = rng.choice([1, 2, 5, 17, 64, 300])
    if element == "f16" and result == "f16":
        k = min(k, 64)  # sums of up to 64 * 9 stay exact in f16
    transpose_a, transpose_b = rng.random() < 0.3, rng.random() < 0.2
    b = "b, " if batch else ""
    shape_a = ([batch] if batch else []) + ([k, m] if transpose_a else [m, k])
    shape_b = ([batch] if batch else []) + ([n, k] if transpose_b else [k, n])
    shape_c = ([batch] if batch else []) + [m, n]
    floating = element.startswith("f")
    widen = ""
    x, y = "%x", "%y"
    if result != element:
        op = "arith.extf" if floating else "arith.extsi"
        widen = (f"    %wx = {op} %x : {element} to {result}\n"
                 f"    %wy = {op} %y : {element} to {result}\n")
        x, y = "%wx", "%wy"
    mul, add = ("arith.mulf", "arith.addf") if floating else ("arith.muli", "arith.addi")
    iterators = ['"parallel"'] * (4 if batch else 3)
    iterators[-1] = '"reduction"'
    source = f"""
func.func @case{index}(%a: {tensor(shape_a, element)}, %b: {tensor(shape_b, element)}) -> {tensor(shape_c, result)} {{
  %zero = arith.constant {"0.0" if floating else "0"} : {result}
  %e = tensor.empty() : {tensor(shape_c, result)}
  %z = linalg.fill ins(%zero : {result}) outs(%e : {tensor(shape_c, result)}) -> {tensor(shape_c, result)}
  %r = linalg.generic {{indexing_maps = [
        affine_map<({b}m, n, k) -> ({b}{"k, m" if transpose_a else "m, k"})>,
        affine_map<({b}m, n, k) -> ({b}{"n, k" if transpose_b else "k, n"})>,
        affine_map<({b}m, n, k) -> ({b}m, n)>],
      iterator_types = [{", ".join(iterators)}]}}
      ins(%a, %b : {tensor(shape_a, element)}, {tensor(shape_b, element)})
      outs(%z : {tensor(shape_c, result)}) {{
  ^bb0(%x: {element}, %y: {element}, %acc: {result}):
{widen}    %p = {mul} {x}, {y} : {result}
    %s = {add} %acc, %p : {result}
    linalg.yield %s : {result}
  }} -> {tensor(shape_c, result)}
  return %r : {tensor(shape_c, result)}
}}
"""
    bound = 3 if floating else (5 if element == "i8" else 50)
    draw = np.random.default_rng(index)
    a = draw.integers(-bound, bound + 1, size=shape_a).astype(TYPES[element])
    bm = draw.integers(-bound, bound + 1, size=shape_b).astype(TYPES[element])
    left = np.swapaxes(a.astype(np.float64), -1, -2) if transpose_a else a.astype(np.float64)
    right = np.swapaxes(bm.astype(np.float64), -1, -2) if transpose_b else bm.astype(np.float64)
    expected = (left @ right).astype(TYPES[result])
    return source, a, bm, expected


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=24)
    parser.add_argument("--library", action="store_true",
                        help="let libnxrt compute the products it takes")
    parser.add_argument("--flag", action="append", default=[],
                        help="an nx-compile flag (--mcpu=x86-64-v3, ...)")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    rng = random.Random(args.seed)
    cases = [make_case(rng, i) for i in range(args.cases)]
    module = os.path.join(args.dir, "products.mlir")
    with open(module, "w") as f:
        f.write("".join(source for source, *_ in cases))
    library = os.path.join(args.dir, "products.so")
    tiles = [] if args.library else ["--blas=false"]
    subprocess.run([os.path.join(args.tools, "nx-compile"), module, "-o", library,
                    "--prefix=products"] + tiles + args.flag, check=True)
    wrong = 0
    for i, (_, a, b, expected) in enumerate(cases):
        for threads in (1, 3):
            paths = [os.path.join(args.dir, f"case{i}.{name}.npy") for name in ("a", "b", f"out{threads}")]
            np.save(paths[0], a)
            np.save(paths[1], b)
            done = subprocess.run([os.path.join(args.tools, "nxrt-run"), library,
                                   "--prefix=products", f"--entry=case{i}",
                                   f"--input=@{paths[0]}", f"--input=@{paths[1]}",
                                   f"--compute-threads={threads}", "--quiet",
                                   f"--output={paths[2]}"], capture_output=True, text=True)
            ok = done.returncode == 0 and np.array_equal(np.load(paths[2]), expected)
            wrong += not ok
            print(f"case{i} {a.dtype}->{expected.dtype} {a.shape} x {b.shape} at {threads}: "
                  f"{'ok' if ok else 'WRONG ' + done.stderr[-200:]}")
    print(f"{wrong} wrong")


if __name__ == "__main__":
    main()
