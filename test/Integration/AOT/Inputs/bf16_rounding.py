# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Inputs and reference of bf16-rounding.mlir.

    bf16_rounding.py make FILE     writes the f32 values to round: every
                                   special bit pattern below, then random
                                   bits
    bf16_rounding.py check IN OUT  compares OUT, the bf16 bits the program
                                   computed for IN, with rounding to
                                   nearest, ties to even; a NaN must stay a
                                   NaN. Prints one line
"""

import sys

import numpy as np

SPECIAL = [
    0x00000000, 0x80000000,  # zeros
    0x3F800000, 0x3F808000, 0x3F818000,  # 1, ties to even down and up
    0x3F807FFF, 0x3F808001,  # just below and above a tie
    0x7F7FFFFF, 0xFF7FFFFF,  # the largest finite f32: rounds to inf
    0x7F7F7FFF,  # the largest that stays finite
    0x00000001, 0x00008000, 0x00018000, 0x007FFFFF,  # subnormals
    0x7F800000, 0xFF800000,  # infinities
    0x7FC00000, 0xFFC00000,  # quiet NaNs
    0x7F800001, 0xFF800001,  # NaNs whose payload is all in the dropped half
    0x7FFFFFFF, 0xFFFFFFFF,  # NaNs the rounding would carry past the sign
    0x7FBFFFFF, 0x7F80FFFF,  # signalling NaNs
]

COUNT = 1 << 16


def make(path):
    rng = np.random.default_rng(5)
    bits = np.concatenate([
        np.array(SPECIAL, dtype=np.uint32),
        rng.integers(0, 1 << 32, size=COUNT - len(SPECIAL), dtype=np.uint32),
    ])
    np.save(path, bits.view(np.float32))


def expected_bits(values):
    bits = values.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def is_nan(bf16_bits):
    return ((bf16_bits & 0x7F80) == 0x7F80) & ((bf16_bits & 0x007F) != 0)


def check(input_path, output_path):
    values = np.load(input_path)
    result = np.load(output_path).view(np.uint16)
    nan_in = np.isnan(values)
    wrong_nans = int(np.count_nonzero(nan_in & ~is_nan(result)))
    numbers = ~nan_in
    wrong = int(np.count_nonzero(result[numbers] !=
                                 expected_bits(values[numbers])))
    print(f"{len(values)} values: {wrong} rounded wrong, "
          f"{wrong_nans} NaNs lost")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3])
