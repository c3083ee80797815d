# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Inputs and NumPy references of transpose-squares.mlir.

    transpose_squares.py make DIR    writes each entry's input to DIR
    transpose_squares.py check DIR   compares every DIR/ENTRY.out*.npy result
                                     with its input permuted; prints one line
                                     per result
"""

import glob
import os
import sys

import numpy as np

RNG = np.random.default_rng(11)


def floats(shape, dtype):
    return RNG.standard_normal(shape).astype(dtype)


def ints(shape, dtype):
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max, size=shape, endpoint=True,
                        dtype=dtype)


# Each entry: its input and the permutation of its result. A transpose
# moves every element unchanged, so results must equal NumPy's exactly.
ENTRIES = {
    "transpose_f32": (floats((1024, 1024), np.float32), (1, 0)),
    "transpose_f32_small": (floats((96, 64), np.float32), (1, 0)),
    "transpose_f32_ragged": (floats((72, 40), np.float32), (1, 0)),
    "transpose_f64": (floats((96, 64), np.float64), (1, 0)),
    "transpose_i16": (ints((96, 64), np.int16), (1, 0)),
    "transpose_i8": (ints((128, 64), np.int8), (1, 0)),
    "transpose_f64_strips": (floats((512, 1024), np.float64), (1, 0)),
    "transpose_i8_strips": (ints((1024, 640), np.int8), (1, 0)),
    "permute_f32": (floats((2, 96, 64), np.float32), (0, 2, 1)),
}


def make(directory):
    for entry, (operand, _) in ENTRIES.items():
        np.save(os.path.join(directory, f"{entry}.in.npy"), operand)


def check(directory):
    for path in sorted(glob.glob(os.path.join(directory, "*.out*.npy"))):
        entry = os.path.basename(path).split(".")[0]
        operand, permutation = ENTRIES[entry]
        result = np.load(path)
        expected = np.transpose(operand, permutation)
        wrong = (int(np.count_nonzero(result != expected))
                 if result.shape == expected.shape else "shape")
        print(f"{os.path.basename(path)}: {wrong} wrong")


if __name__ == "__main__":
    {"make": make, "check": check}[sys.argv[1]](sys.argv[2])
