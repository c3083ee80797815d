"""Inputs for index-reductions.mlir, and the check of its results against
the serial loop the IR states (a strict comparison: the first of equal
elements wins, NaN never does, -0 equals +0; for tosa.argmax and JAX's
comparator, the first NaN wins and stays).

  index_reductions.py inputs DIR
  index_reductions.py check DIR RESULT_PREFIX...
"""
import math
import os
import sys

import numpy as np

ROWS, COLUMNS = 8, 256


def float_rows():
    x = np.random.default_rng(3).uniform(-1, 1, (ROWS, COLUMNS)).astype(np.float32)
    x[0, :] = 0.0
    x[0, 7::40] = 5.0                         # ties in several lanes
    x[1, 36] = x[1, 100] = x[1, 164] = 9.0    # ties in one lane
    x[2, 3] = np.nan                          # NaN before the maximum
    x[2, 90] = 2.0
    x[3, :] = -1.0
    x[3, 74] = 0.0                            # +0 after an equal -0
    x[3, 10] = -0.0
    x[4, :] = -np.inf                         # nothing beats the init
    x[5, :] = np.nan
    x[6, 255] = 3.0                           # the last element
    return x


def int_rows():
    x = np.random.default_rng(4).integers(-1000, 1000, (ROWS, COLUMNS)).astype(np.int32)
    x[0, 200] = x[0, 17] = -5000              # ties for the minimum
    x[1, :] = 7                               # all equal: the first wins
    return x


def column_rows():
    """16 rows of 2048 columns: ties down a column, NaNs, a column of -inf."""
    x = np.random.default_rng(5).uniform(-1, 1, (16, 2048)).astype(np.float32)
    x[3, 0] = x[9, 0] = 4.0
    x[5, 1] = np.nan
    x[0, 1] = 9.0
    x[:, 2] = -np.inf
    x[15, 2047] = 7.0
    return x


def serial(row, better, init_value, init_index):
    value, index = init_value, init_index
    for j, element in enumerate(row):
        if better(element, value):
            value, index = element, j
    return value, index


def expected():
    floats = [serial(r, lambda a, b: a > b, -np.inf, -1) for r in float_rows()]
    ints = [serial(r, lambda a, b: a < b, np.int32(2**31 - 1), -1)
            for r in int_rows()]
    # tosa.argmax (NaN propagated): from the lowest finite f32, at 0.
    lowest = np.finfo(np.float32).min
    def nan_first(a, b):
        return not math.isnan(b) and (a > b or math.isnan(a))
    tosa = [serial(r, nan_first, lowest, 0)[1] for r in float_rows()]
    columns = [serial(c, nan_first, lowest, 0)[1] for c in column_rows().T]
    jax = [jax_serial(r) for r in float_rows()]
    return floats, ints, tosa, columns, jax


def jax_serial(row):
    """JAX's argmax comparator, the accumulator first, from -inf at 0."""
    value, index = -np.inf, 0
    for j, element in enumerate(row):
        keep = value > element or math.isnan(value)
        keep_index = keep or (value == element and index < j)
        value, index = (value if keep else element,
                        index if keep_index else j)
    return index


def same(a, b):
    if isinstance(b, float) and math.isnan(b):
        return math.isnan(a)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


def main():
    command, directory = sys.argv[1], sys.argv[2]
    if command == "inputs":
        os.makedirs(directory, exist_ok=True)
        np.save(os.path.join(directory, "floats.npy"), float_rows())
        np.save(os.path.join(directory, "ints.npy"), int_rows())
        np.save(os.path.join(directory, "columns.npy"), column_rows())
        return
    floats, ints, tosa, columns, jax = expected()
    if jax != [int(i) for i in np.argmax(float_rows(), axis=1)]:
        sys.exit("the JAX comparator's serial loop disagrees with np.argmax")
    for prefix in sys.argv[3:]:
        values = np.load(f"{prefix}.values.npy")
        indices = np.load(f"{prefix}.indices.npy")
        minima = np.load(f"{prefix}.int-values.npy")
        argmins = np.load(f"{prefix}.int-indices.npy")
        tosa_indices = np.load(f"{prefix}.tosa.npy")
        ok = all(same(float(v), float(e[0])) and i == e[1]
                 for v, i, e in zip(values, indices, floats))
        ok = ok and all(v == e[0] and i == e[1]
                        for v, i, e in zip(minima, argmins, ints))
        column_indices = np.load(f"{prefix}.columns.npy")
        ok = ok and list(tosa_indices) == tosa
        ok = ok and list(column_indices) == columns
        jax_indices = np.load(f"{prefix}.jax.npy")
        ok = ok and list(jax_indices) == jax
        print(f"{os.path.basename(prefix)}: {'exact' if ok else 'WRONG'}"
              f" {list(indices)} {list(argmins)} {list(tosa_indices)}"
              f" {list(column_indices[:3])} {list(jax_indices)}")


if __name__ == "__main__":
    main()
