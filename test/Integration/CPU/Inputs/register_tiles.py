# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Inputs and NumPy references of register-tiled-contractions.mlir.

    register_tiles.py make DIR    writes each entry's operands to DIR
    register_tiles.py check DIR   compares every DIR/ENTRY.*.npy result with
                                  the reference; prints one line per result
"""

import glob
import os
import sys

import numpy as np

RNG = np.random.default_rng(7)


def ints(shape, dtype, bound):
    return RNG.integers(-bound, bound + 1, size=shape).astype(dtype)


# Each entry: its operands, and its result from them. Integer products and
# products of small integers in f16 and bf16 are exact in any order; f32
# products are compared within a relative 1e-5 of their largest magnitude.
ENTRIES = {
    "matmul_i32": ([ints((37, 29), np.int32, 50), ints((29, 53), np.int32, 50)],
                   lambda a, b: a @ b),
    "matmul_i32_shared": ([ints((203, 96), np.int32, 20),
                           ints((96, 150), np.int32, 20)],
                          lambda a, b: a @ b),
    "matmul_i8": ([ints((70, 64), np.int8, 100), ints((64, 40), np.int8, 100)],
                  lambda a, b: a.astype(np.int32) @ b.astype(np.int32)),
    "matmul_f32": ([RNG.standard_normal((45, 33)).astype(np.float32),
                    RNG.standard_normal((33, 70)).astype(np.float32)],
                   lambda a, b: a.astype(np.float64) @ b.astype(np.float64)),
    "batch_matmul_f16": ([ints((3, 19, 23), np.float16, 2),
                          ints((3, 23, 35), np.float16, 2)],
                         lambda a, b: np.matmul(a.astype(np.float64),
                                                b.astype(np.float64))),
    "matmul_bf16_f32": ([ints((33, 40), np.float32, 8),
                         ints((40, 66), np.float32, 8)],
                        lambda a, b: a @ b),
    "matmul_transposed_a_i32": ([ints((29, 37), np.int32, 50),
                                 ints((29, 53), np.int32, 50)],
                                lambda a, b: a.T @ b),
    "matmul_transposed_b_i32": ([ints((37, 29), np.int32, 50),
                                 ints((53, 29), np.int32, 50)],
                                lambda a, b: a @ b.T),
    "vecmat_i32": ([ints((29,), np.int32, 50), ints((29, 77), np.int32, 50)],
                   lambda a, b: a @ b),
}


def make(directory):
    for entry, (operands, _) in ENTRIES.items():
        for i, operand in enumerate(operands):
            np.save(os.path.join(directory, f"{entry}.in{i}.npy"), operand)


def check(directory):
    for entry, (operands, reference) in ENTRIES.items():
        expected = np.asarray(reference(*operands), dtype=np.float64)
        results = sorted(glob.glob(os.path.join(directory, f"{entry}.out.*.npy")))
        if not results:
            print(f"{entry}: no result")
        for path in results:
            got = np.load(path).astype(np.float64)
            scale = max(1.0, float(np.abs(expected).max()))
            exact = entry != "matmul_f32"
            ok = got.shape == expected.shape and (
                np.array_equal(got, expected) if exact else
                float(np.abs(got - expected).max()) <= 1e-5 * scale)
            print(f"{os.path.basename(path)}: {'ok' if ok else 'WRONG'}")


if __name__ == "__main__":
    {"make": make, "check": check}[sys.argv[1]](sys.argv[2])
