//===- Passes.td - CPU code generation passes --------------*- tablegen -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CPU back end's code generation: passes over upstream dialects (linalg,
// vector, math, memref) whose choices are made for CPUs, such as vector
// widths, reduction splitting for SIMD lanes, cache-sized transpose tiles,
// convolutions as GEMMs and fusion that keeps products BLAS can take.
// nx-lower-to-cpu runs them; nothing here needs the nx dialect.
//
//===----------------------------------------------------------------------===//

#ifndef NX_CODEGEN_CPU_PASSES_TD
#define NX_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def NxCheckCpuInputPass : Pass<"nx-check-cpu-input", "::mlir::ModuleOp"> {
  let summary = "Rejects OpenMP ops in the input of nx-lower-to-cpu";
  let description = [{
    `nx-lower-to-cpu` parallelizes loops itself, after bufferization and
    buffer deallocation. A module that is already parallelized
    (`nx-linalg-to-openmp` run by hand, or OpenMP written by a front
    end) would have deallocation place its ownership values inside
    `omp.wsloop`, which then fails to verify at an op the user did not
    write. This pass reports the first OpenMP op instead, at its location.
    First pass of `nx-lower-to-cpu`.

    Input:

    ```mlir
    omp.parallel {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) { ... }
      }
      omp.terminator
    }
    ```

    Output: unchanged, or an error at the first OpenMP op:

    ```
    error: 'omp.parallel' op is already parallelized with OpenMP: nx-lower-to-cpu parallelizes loops itself (nx-linalg-to-openmp) and takes the program before that
    ```
  }];
}

def NxFuseLinalgPass : Pass<"nx-fuse-linalg"> {
  let summary = "Fuses elementwise linalg.generic producers into their consumers where no work is repeated";
  let description = [{
    Upstream's `linalg-fuse-elementwise-ops` with a cost model. That pass
    fuses an elementwise producer into any `linalg.generic` consumer, and
    propagates `tensor.expand_shape` / `collapse_shape` through every linalg
    op by rewriting it as a `linalg.generic` of more loops. In a model, both
    go wrong on contractions: the bias and GELU of one dense layer end up
    computed inside the next layer's matmul, once per output column
    (`k`-fold the work), and a reshaped `linalg.matmul` becomes a generic of
    two row dimensions that BLAS cannot take.

    Here a producer fuses into a consumer only when the consumer reads each
    of the producer's elements once: its indexing map for that operand is a
    permutation of all its loops (elementwise consumers, and reductions that
    read the producer as it is laid out). Reshapes move only across ops
    without reduction loops. Otherwise the patterns are upstream's:
    elementwise fusion, reshape propagation by expansion, constant folding
    (of results up to 2^20 elements: upstream's folding holds every element
    as an `APFloat` or `APInt` and has no limit of its own) and the linalg
    and reshape canonicalizations. Part of `nx-lower-to-cpu`.

    Before:

    ```mlir
    %h = linalg.generic {indexing_maps = [#id, #id],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) {
    ^bb0(%v: f32, %out: f32):
      %g = math.erf %v : f32
      linalg.yield %g : f32
    } -> tensor<64x32xf32>
    %y = linalg.generic {indexing_maps = [#mk, #kn, #mn],
        iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%h, %w : tensor<64x32xf32>, tensor<32x16xf32>)
        outs(%c : tensor<64x16xf32>) { ... mulf, addf ... }
    %r = linalg.generic {indexing_maps = [#id, #id],
                         iterator_types = ["parallel", "parallel"]}
        ins(%y : tensor<64x16xf32>) outs(%e2 : tensor<64x16xf32>) {
    ^bb0(%v: f32, %out: f32):
      %m = arith.maximumf %v, %zero : f32
      linalg.yield %m : f32
    } -> tensor<64x16xf32>
    %s = linalg.generic {indexing_maps = [#id, #row],
                         iterator_types = ["parallel", "reduction"]}
        ins(%r : tensor<64x16xf32>) outs(%acc : tensor<64xf32>) {
    ^bb0(%v: f32, %a: f32):
      %t = arith.addf %v, %a : f32
      linalg.yield %t : f32
    } -> tensor<64xf32>
    ```

    After: the erf stays a loop of its own, since the contraction would
    compute it 16 times per element; the ReLU, read once per element by the
    row sum, is computed inside it.

    ```mlir
    %h = linalg.generic ... math.erf ...
    %y = linalg.generic ... ins(%h, %w ...) ... mulf, addf ...
    %s = linalg.generic {indexing_maps = [#id, #row],
                         iterator_types = ["parallel", "reduction"]}
        ins(%y : tensor<64x16xf32>) outs(%acc : tensor<64xf32>) {
    ^bb0(%v: f32, %a: f32):
      %m = arith.maximumf %v, %zero : f32
      %t = arith.addf %m, %a : f32
      linalg.yield %t : f32
    } -> tensor<64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numRefused", "refused-fusions",
              "Number of producer-consumer pairs left unfused because the consumer would compute the producer more than once per element">
  ];
}

def NxReassociateReductionsPass : Pass<"nx-reassociate-reductions"> {
  let summary = "Lets the combiners of linalg reductions reassociate, so reductions vectorize";
  let description = [{
    A floating-point reduction written as a loop is one serial chain: each
    step waits for the previous sum, and no compiler may split it into
    vector lanes without permission to reassociate. This pass gives that
    permission where a `linalg` op reduces: in the payload of every linalg
    op with a reduction iterator, each floating-point `arith` op that reads
    an output's block argument (the running value: `addf`, `mulf`,
    `maximumf`, ...) gets the `reassoc` fast-math flag. LLVM's loop
    vectorizer then keeps several partial results in vector registers and
    combines them at the end. `maximumf` and `minimumf` combiners also get
    `nsz`: the maximum of +0 and -0 may be either zero (NaNs still
    propagate). IEEE's ordered zeros cost x86 a sign test and a blend per
    step, which made a 2x2 max pooling 1.5x slower than oneDNN's; PyTorch's
    max pooling does not order them either.

    In a contraction (two inputs, a multiply-add body: products that
    `nx-vectorize-linalg` tiles for registers when no library takes them),
    the combiner `addf` and the `mulf` whose product it adds also get
    `contract`: LLVM then makes them one fused multiply-add, which rounds
    once instead of twice. A product's register tile then takes half the
    instructions; a 512x512 f32 product with `blas=false` took 3.4 ms
    without it and 2.4 with it on the development VM, as oneDNN's GEMM.

    The result may differ from the serial order's in the last bits, as
    with XLA's and every BLAS's reductions. `nx-lower-to-cpu` runs this
    pass unless `strict-reductions` is set.

    Before:

    ```mlir
    linalg.reduce ins(%x : memref<1024xf32>) outs(%acc : memref<f32>)
        dimensions = [0]
      (%in: f32, %sum: f32) {
        %0 = arith.addf %in, %sum : f32
        linalg.yield %0 : f32
      }
    ```

    After:

    ```mlir
    linalg.reduce ins(%x : memref<1024xf32>) outs(%acc : memref<f32>)
        dimensions = [0]
      (%in: f32, %sum: f32) {
        %0 = arith.addf %in, %sum fastmath<reassoc> : f32
        linalg.yield %0 : f32
      }
    ```

    A contraction's body, after:

    ```mlir
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %p = arith.mulf %a, %b fastmath<contract> : f32
      %s = arith.addf %acc, %p fastmath<reassoc,contract> : f32
      linalg.yield %s : f32
    ```
  }];
  let statistics = [
    Statistic<"numCombiners", "combiners",
              "Number of reduction combiners marked reassoc (and nsz)">,
    Statistic<"numContracted", "contracted-products",
              "Number of contraction products marked contract with their "
              "sums">
  ];
}

def NxReciprocalDivisorsPass : Pass<"nx-reciprocal-divisors"> {
  let summary = "Divides once per divisor that a linalg.generic broadcasts, and multiplies every point by the reciprocal";
  let description = [{
    A softmax divides every element of a row by the row's sum. A vector
    division costs several times a multiplication (a 512-bit `vdivps`
    issues once every 8-16 cycles on Intel cores, `vmulps` twice a cycle):
    on an Intel VM the division loop took a quarter of a softmax kernel's
    samples in `perf`. PyTorch's kernel multiplies by the sum's reciprocal.

    In a `linalg.generic` on tensors, an f32 input whose block argument is
    used only as the divisor of `arith.divf` ops, and whose indexing map is
    a projection that drops loops covering at least 8 points per element (or
    a dynamic loop), is replaced by its reciprocals: a generic of the input's
    own shape (or, for a scalar, one `arith.divf`) computes `1 / d` first,
    and the divisions become `arith.mulf`. Both keep the divisions' common
    fast-math flags. The generics `nx-fuse-linalg` already fused stay as
    they are: this pass runs after it, so the reciprocal is not fused back
    into its consumer, where it would be computed for every point.

    `x * (1 / d)` is within 2 ulp of `x / d` (the two roundings of a
    reciprocal and a product) for every `d` whose reciprocal is a normal
    number; zeros, infinities and NaNs give the quotient's result. Where
    `|d|` is above 2^126 the reciprocal is subnormal and the product loses
    bits, and where it is below 2^-128 the reciprocal overflows. Inputs
    that serve few points (a divisor per element, or fewer than 8 points
    each) and divisors read in other ways too are left alone.
    `nx-lower-to-cpu` runs this pass unless `libm-math` is set, like the
    multiplications by reciprocals of constants in `nx-approximate-math`.

    Before (a softmax's last step):

    ```mlir
    %p = linalg.generic {indexing_maps = [#id, #row, #id],
                         iterator_types = ["parallel", "parallel"]}
        ins(%e, %sum : tensor<2048x1024xf32>, tensor<2048xf32>)
        outs(%out : tensor<2048x1024xf32>) {
    ^bb0(%v: f32, %s: f32, %o: f32):
      %q = arith.divf %v, %s : f32
      linalg.yield %q : f32
    } -> tensor<2048x1024xf32>
    ```

    After:

    ```mlir
    %one = arith.constant 1.000000e+00 : f32
    %empty = tensor.empty() : tensor<2048xf32>
    %inverse = linalg.generic {indexing_maps = [#id1, #id1],
                               iterator_types = ["parallel"]}
        ins(%sum : tensor<2048xf32>) outs(%empty : tensor<2048xf32>) {
    ^bb0(%s: f32, %o: f32):
      %r = arith.divf %one, %s : f32
      linalg.yield %r : f32
    } -> tensor<2048xf32>
    %p = linalg.generic {indexing_maps = [#id, #row, #id],
                         iterator_types = ["parallel", "parallel"]}
        ins(%e, %inverse : tensor<2048x1024xf32>, tensor<2048xf32>)
        outs(%out : tensor<2048x1024xf32>) {
    ^bb0(%v: f32, %r: f32, %o: f32):
      %q = arith.mulf %v, %r : f32
      linalg.yield %q : f32
    } -> tensor<2048x1024xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numReciprocals", "reciprocal-divisors",
              "Number of generic inputs replaced by their reciprocals, their divisions by multiplications">
  ];
}

def NxReversedViewsPass : Pass<"nx-reversed-views"> {
  let summary = "Reads and writes the reversed operands of linalg.generic ops on buffers through views of negated strides, reading forward";
  let description = [{
    A reversal (`jnp.flip`, StableHLO's `reverse`, `tosa.reverse` through
    `nx-extracts-to-inputs`) is a `linalg.generic` whose input map has a
    result `c - d`. Upstream's tiling takes an operand's slice to span from
    its index at a tile's first iteration to the one at its last, which a
    decreasing index breaks (the slice becomes one element), so
    `nx-linalg-to-openmp` keeps such ops on one thread; and the vectorizer
    takes only projected permutations, so they stay scalar loops.

    First, the innermost loop `d`, of static extent `n`, runs backwards
    where more inputs walk memory backwards than forwards along it (the sum
    of the static strides of the dimensions they read at `d`, less those
    they read at `n - 1 - d`, is negative): every map's `d` becomes
    `n - 1 - d` (and `n - 1 - d` becomes `d`), and the body's
    `linalg.index` of `d` becomes `n - 1 - index`. Its inputs then read
    increasing addresses, which hardware prefetchers follow better than
    decreasing ones, and its outputs are written in reverse instead. Every
    operand indexed by `d` must index it as `d` or `n - 1 - d` along a
    dimension of size `n`. Outer loops keep their direction: they only
    choose the rows the inner loop streams.

    Then each operand read or written at `c - d` along a dimension, where
    loop `d` runs a static `n` times and `c` lies in `[n - 1, size)` of the
    dimension's static size, is accessed through a `memref.reinterpret_cast`
    of its base instead: the offset moves to element `c`, and that
    dimension's stride is negated and its size is `n`. The map's result
    becomes `d`, so a reversal is a copy into or from the view that threads
    share and `nx-vectorize-linalg` vectorizes. Its 1-D vector reads and
    writes of a view whose innermost stride is -1 then access the same
    lanes in memory order and reverse them with one `vector.shuffle`
    (`populateReversedRowPatterns`); without that, the LLVM lowering
    accesses each lane on its own. Generics with reduction loops (whose
    contractions would reach GEMM calls, which take no negative strides),
    other operands, dynamic extents and named ops are left alone. Part of
    `nx-lower-to-cpu`, after bufferization.

    Before:

    ```mlir
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 2047 - j)>,
                                     affine_map<(i, j) -> (i, j)>],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<2048x2048xf32>) outs(%y : memref<2048x2048xf32>) {
    ^bb0(%v: f32, %o: f32):
      linalg.yield %v : f32
    }
    ```

    After: the column loop runs backwards, so `%x` is read in order and
    `%y` is written through a view of negated column stride.

    ```mlir
    %base, %offset, %sizes:2, %strides:2 =
        memref.extract_strided_metadata %y : memref<2048x2048xf32> -> ...
    %view = memref.reinterpret_cast %base to offset: [2047],
        sizes: [2048, 2048], strides: [2048, -1]
        : memref<f32> to memref<2048x2048xf32, strided<[2048, -1], offset: 2047>>
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                     affine_map<(i, j) -> (i, j)>],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<2048x2048xf32>)
        outs(%view : memref<2048x2048xf32, strided<[2048, -1], offset: 2047>>) {
    ^bb0(%v: f32, %o: f32):
      linalg.yield %v : f32
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numReversed", "reversed-views",
              "Number of generic operands read or written through a view of negated strides">,
    Statistic<"numBackwardLoops", "backward-loops",
              "Number of generics whose loops now run backwards, so that their inputs read forward">
  ];
}

def NxSplitReductionsPass : Pass<"nx-split-reductions"> {
  let summary = "Splits innermost tensor reductions into vector-wide partial results and a short final reduction";
  let description = [{
    A reduction along an op's innermost loop (a row sum, the sum of a whole
    tensor) gives a vectorizer one running value: each vector of inputs
    would be reduced across its lanes at every step. This pass uses
    upstream's `linalg::splitReduction` (with `innerParallel`) so that it
    keeps one partial result per vector lane instead:

    - the reduced dimension K is split into `K / ratio` (still a reduction)
      and `ratio` (parallel, innermost);
    - the op reduces into an intermediate tensor with an extra innermost
      dimension of `ratio` elements, filled with the combiner's neutral
      element;
    - a second op reduces those `ratio` partial results into the original
      output.

    The first op's innermost loop is now parallel, so `nx-vectorize-linalg`
    turns it into vector arithmetic on `ratio / lanes` vector accumulators
    after bufferization. `ratio` is four vectors of the widest element type
    (four independent accumulators hide the latency of the combining
    instruction) when K is a multiple of that and at least twice it, else
    one vector under the same conditions; otherwise the op is left alone,
    as are ops on buffers, dynamic K, ops with several reductions or
    outputs, `linalg.index`, non-permutation maps, reductions that are not
    contiguous innermost in memory, contractions with a row or column
    dimension (they go to BLAS; dot products are split as sums are) and
    combiners with no known neutral element.

    A reduction that only combines what it reads (its body is one
    operation of its two arguments: a sum, a maximum) does one operation
    per element loaded, so its loads bound it: its vectors have
    `reduction-vector-bits` when that is set (`nx-lower-to-cpu` passes its
    own flag, which is the vector width unless the user sets it), like
    `nx-vectorize-linalg`'s for the same op.

    A reduction along an op's outermost loop (a column sum) is left to
    `nx-linalg-to-openmp`, which shares its rows among workers, each with a
    row of partial results (`split-outer-reductions`).

    The partial results are combined in a different order from the serial
    loop, so floating-point results may differ in the last bits.
    `nx-lower-to-cpu` runs this pass unless `strict-reductions` is set.

    Before (`vector-bits=512`):

    ```mlir
    %r = linalg.reduce ins(%x : tensor<8x1024xf32>)
                       outs(%init : tensor<8xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    ```

    After:

    ```mlir
    %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [8, 16, 64]
        : tensor<8x1024xf32> into tensor<8x16x64xf32>
    %zero = linalg.fill ins(%cst0 : f32)
        outs(tensor.empty() : tensor<8x64xf32>) -> tensor<8x64xf32>
    %partial = linalg.generic {
        indexing_maps = [(d0, d1, d2) -> (d0, d1, d2), (d0, d1, d2) -> (d0, d2)],
        iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%e : tensor<8x16x64xf32>) outs(%zero : tensor<8x64xf32>) {...}
    %r = linalg.generic {
        indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0)],
        iterator_types = ["parallel", "reduction"]}
        ins(%partial : tensor<8x64xf32>) outs(%init : tensor<8xf32>) {...}
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "Width of the host's vector registers in bits">,
    Option<"reductionVectorBits", "reduction-vector-bits", "int64_t",
           /*default=*/"0",
           "Vector width in bits of reductions that only combine what they "
           "read (a sum, a maximum), whose loads bound them (0: vector-bits)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numSplit", "split", "Number of innermost reductions split">
  ];
}

def NxSplitIndexReductionsPass : Pass<"nx-split-index-reductions"> {
  let summary = "Splits innermost argmax and argmin reductions on tensors into vector lanes of (value, index) pairs, exactly";
  let description = [{
    An argmax along an op's innermost loop (a front end's reduction of the
    maximum and its position, a `linalg.generic` with two outputs and
    `linalg.index`) keeps one running pair: every step waits for the
    comparison and the two selections before it, and no vectorizer takes
    such a combiner. The rows of a 2048x2048 argmax took 17-18 ms at one
    thread on an Intel Xeon with AMX (2 vCPUs), where a read of the same
    16 MiB takes about 0.6.

    This pass takes a static op on tensors with one input read along the
    reduced loop as its innermost dimension, two outputs (the value, and
    an integer index wide enough for every position) and the body

    ```mlir
    %j = linalg.index <reduced loop> ; possibly through arith.index_cast
    %better = arith.cmpf ogt, %in, %value   ; or olt, or arith.cmpi
                                            ; sgt, slt, ugt, ult
    yield select(%better, %in, %value), select(%better, %j, %index)
    ```

    with its two results in either order, or the body `tosa.argmax`'s
    lowering writes, which takes NaN as the best value (the first NaN
    wins, and stays):

    ```mlir
    %gt = arith.cmpf ugt, %in, %value     ; or ult
    %ordered = arith.cmpf ord, %value, %value
    %better = arith.andi %gt, %ordered
    ```

    or the body of JAX's argmax and argmin, StableHLO's reduction of the
    values and an iota lowered to linalg (the iota fused as `linalg.index`),
    which keeps the accumulator unless the input beats it, and its index
    also on a tie at a later position:

    ```mlir
    %gt = arith.cmpf ogt, %value, %in     ; olt for argmin; arith.cmpi
    %nan = arith.cmpf une, %value, %value ; (none for integers)
    %keep = arith.ori %gt, %nan
    %eq = arith.cmpf oeq, %value, %in
    %earlier = arith.cmpi slt, %index, %j
    %keepIndex = arith.ori %keep, (arith.andi %eq, %earlier)
    yield select(%keep, %value, %in), select(%keepIndex, %index, %j)
    ```

    That body keeps the first best element, NaN the best, as the
    `tosa.argmax` form does, when the index starts at a constant of at most
    0 (a later start would win ties with the elements before it) and
    nothing reads the value (a tie replaces it by the later element: -0 for
    +0); otherwise it is left alone. A 2048x2048 argmax in this form took
    28 ms at one thread on the Zen 4 VM, and 0.64 ms split. The pass
    splits the reduced loop of K into `K / ratio` and `ratio`:

    - the first op keeps `ratio` pairs per output element (a new innermost,
      parallel dimension, each pair starting from the output's own), lane
      `l` taking the elements at `k * ratio + l` in order, with the body of
      the first form (or the `tosa.argmax` one) whatever the form matched;
    - with four vectors of lanes, a second op combines them into one
      vector of pairs, an op over (..., 4, lanes) whose innermost loop is
      parallel (`nx-vectorize-linalg` vectorizes both, their tiles being
      elementwise once their unit reduction loops are dropped);
    - the last combines the lanes in order into the outputs: a better
      value is taken, an equal one only at a smaller index (two NaNs are
      equal where NaN is the best value). That is the larger pair in the
      order of values, then of indices reversed, so the pairs may be
      combined in any grouping.

    A strict comparison keeps the first of equal elements in each lane, so
    the result is the serial loop's for any input, NaN and signed zeros
    included; the pass therefore runs with `strict-reductions` too. On the
    same VM the 2048x2048 argmax then took 1.3-2.5 ms at one thread. `ratio`
    is chosen as `nx-split-reductions`' is: four vectors of the widest
    element type when the loop holds at least twice as many, else one.
    Non-strict comparisons (`oge`, which keeps the last of equal
    elements), unordered ones and any other body are left alone.

    Before (`vector-bits=512`):

    ```mlir
    %r:2 = linalg.generic {
        indexing_maps = [(i, j) -> (i, j), (i, j) -> (i), (i, j) -> (i)],
        iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<8x1024xf32>)
        outs(%max, %arg : tensor<8xf32>, tensor<8xi32>) {
    ^bb0(%in: f32, %value: f32, %index: i32):
      %j = linalg.index 1 : index
      %ji = arith.index_cast %j : index to i32
      %better = arith.cmpf ogt, %in, %value : f32
      %v = arith.select %better, %in, %value : f32
      %i = arith.select %better, %ji, %index : i32
      linalg.yield %v, %i : f32, i32
    } -> (tensor<8xf32>, tensor<8xi32>)
    ```

    After:

    ```mlir
    %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [8, 16, 64]
        : tensor<8x1024xf32> into tensor<8x16x64xf32>
    %max64 = linalg.broadcast ins(%max : tensor<8xf32>)
        outs(%e0 : tensor<8x64xf32>) dimensions = [1]
    %arg64 = linalg.broadcast ins(%arg : tensor<8xi32>)
        outs(%e1 : tensor<8x64xi32>) dimensions = [1]
    %lanes:2 = linalg.generic {
        indexing_maps = [(i, k, l) -> (i, k, l), (i, k, l) -> (i, l),
                         (i, k, l) -> (i, l)],
        iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%e : tensor<8x16x64xf32>) outs(%max64, %arg64 : ...) {
      // the same body, with %j = k * 64 + l
    }
    // %lanes expanded to 8x4x16 and combined into %vector:2 (8x16 pairs,
    // from %max and %arg broadcast to 8x16) by the body below
    %r:2 = linalg.generic {
        indexing_maps = [(i, l) -> (i, l), (i, l) -> (i, l), (i, l) -> (i),
                         (i, l) -> (i)],
        iterator_types = ["parallel", "reduction"]}
        ins(%vector#0, %vector#1 : tensor<8x16xf32>, tensor<8x16xi32>)
        outs(%max, %arg : tensor<8xf32>, tensor<8xi32>) {
    ^bb0(%v: f32, %vi: i32, %value: f32, %index: i32):
      %better = arith.cmpf ogt, %v, %value : f32
      %equal = arith.cmpf oeq, %v, %value : f32
      %earlier = arith.cmpi slt, %vi, %index : i32
      %tie = arith.andi %equal, %earlier : i1
      %take = arith.ori %better, %tie : i1
      // select %take for both, yielded
    }
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "Width of the host's vector registers in bits">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numSplit", "split", "Number of index reductions split">
  ];
}

def NxApproximateMathPass : Pass<"nx-approximate-math"> {
  let summary = "Replaces f32 math functions by upstream's polynomial approximations, which vectorize, and divisions by constants by multiplications";
  let description = [{
    Applies MLIR's `populateMathPolynomialApproximationPatterns`: `math.exp`,
    `log`, `log1p`, `tanh`, `erf`, `sin`, `cos`, `atan` and the others it
    covers, on f32 (and on f16 / bf16, computed in f32), become arithmetic
    only (polynomials, bit casts, selects) instead of libm calls. A libm
    call is opaque to the loop vectorizer; the arithmetic vectorizes to the
    host's vector width. Accuracy is that of the upstream approximations
    (a few ulp in f32). f64 calls stay libm's. An f32 `arith.divf` by a
    constant (or a splat of one) whose reciprocal is a normal number
    becomes a multiplication by that reciprocal: within 2 ulp of the
    quotient (exact for powers of two) at a fraction of a vector
    division's cost. Only math on scalars and
    vectors is rewritten; math on tensors is left alone (`nx-lower-to-cpu`
    turns it into `linalg.generic` bodies on scalars first, with
    `nx-fuse-elementwise`). `nx-lower-to-cpu` runs this pass unless
    `libm-math` is set.

    Before:

    ```mlir
    %y = math.exp %x : f32
    ```

    After (abbreviated: clamping, range reduction by ln(2), a polynomial,
    and the exponent written into the result's bits):

    ```mlir
    %k = math.floor (math.fma %x, 1.44269502, 0.5)
    %r = math.fma %k, -0.693359375, %x
    %p = math.fma (math.fma %r, 1.98756912E-4, 0.00139819994), %r, ...
    %bits = arith.shli (arith.addi (arith.fptosi %k), 127), 23 : i32
    %y = arith.mulf %p, (arith.bitcast %bits : i32 to f32)
    ```

    A division by a constant, before:

    ```mlir
    %nine = arith.constant dense<9.0> : vector<16xf32>
    %q = arith.divf %x, %nine : vector<16xf32>
    ```

    After:

    ```mlir
    %ninth = arith.constant dense<0.111111112> : vector<16xf32>
    %q = arith.mulf %x, %ninth : vector<16xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def NxExpandBf16Pass : Pass<"nx-expand-bf16"> {
  let summary = "Computes bf16 arithmetic in f32 and converts between bf16 and f32 with integer operations";
  let description = [{
    x86 has no bf16 arithmetic before AVX-512 BF16, and converts f32 to bf16
    only with it. Elsewhere LLVM rounds each f32 result to bf16 by calling
    `__truncsfbf2`, which the compiler runtime of Debian bookworm (GCC 12)
    does not have: an object compiled for `x86-64-v3` or `x86-64-v4` with
    one bf16 operation did not link, and a JIT on such a CPU could not
    resolve it. This pass first computes every `arith` operation on bf16 in
    f32, with an `arith.extf` of its operands and an `arith.truncf` of its
    result (upstream's unsupported-float emulation; the result is the
    same, since each f32 operation on two bf16 values is rounded once to
    bf16 either way), then rewrites those extensions as shifts of the bits
    (upstream's bf16 expansion) and the truncations of f32 as
    round-to-nearest-even on the bits, a NaN replaced by the quiet NaN
    first. That replacement is a select of f32, which x86 blends in one
    instruction; upstream's expansion selects after narrowing to i16,
    which LLVM turns into a select of bf16 that x86 without AVX-512 BF16
    lowers lane by lane (30% of a 512^3 bf16 product's time, its f32
    operands rounded to bf16 in the program, in an object for
    `x86-64-v4`). Scalars and vectors alike. `nx-lower-to-cpu` runs it
    after vectorization.

    Before:

    ```mlir
    %s = arith.addf %a, %b : vector<16xbf16>
    ```

    After (abbreviated):

    ```mlir
    %ai = arith.bitcast %a : vector<16xbf16> to vector<16xi16>
    %af = arith.bitcast (arith.shli (arith.extui %ai : ... to vector<16xi32>),
                         %sixteen) : vector<16xi32> to vector<16xf32>
    // ... %bf from %b the same way
    %sf = arith.addf %af, %bf : vector<16xf32>
    // rounding: NaNs replaced by a quiet NaN, then the bits plus 0x7fff
    // plus the lowest kept bit, shifted right by 16
    %s = arith.bitcast (arith.trunci %rounded : ... to vector<16xi16>)
        : vector<16xi16> to vector<16xbf16>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def NxTileTransposesPass : Pass<"nx-tile-transposes"> {
  let summary = "Tiles permuting copies on buffers into square blocks that stay in the cache";
  let description = [{
    A linalg op on buffers without reduction loops that reads an input
    transposed (the loop that walks the input's contiguous dimension is not
    the one that walks the output's) touches a new cache line per element of
    one side when run as plain loops: a 2048x2048 `linalg.transpose` reads
    its input column by column. This pass tiles such an op with upstream's
    `TilingInterface` tiling into `tile-size` x `tile-size` blocks of those
    two loops (every other loop by 1), so each block reads and writes
    `tile-size` rows of `tile-size` elements: both sides' cache lines are
    used whole while they are in the L1 cache.

    The blocks are grouped into outer blocks of `outer-block-size` x
    `outer-block-size` (along each of the two loops that is longer and a
    multiple of it; every other loop by 1). A block reads a short piece of
    each of `tile-size` input rows, each row in a page of its own, and a
    walk along all of a 2048-wide output row visits 2048 pages of the input
    for 128 bytes each, more than a TLB holds: every visit then walks the
    page tables, and no prefetcher follows reads a page apart. The pages of
    an outer block of 256 x 256 fit the TLB, and each is read for 1 KiB. A
    2048x2048 f32 transpose in C on the Zen 3 development VM took 4.9-6.2
    ms at one thread with 32-row strips of blocks and 2.2-2.4 ms with
    outer blocks of 256.

    Inside an outer block, the loop of blocks that walks the input's
    contiguous dimension is the inner one: consecutive blocks continue
    along the same `tile-size` input rows, each read for the outer block's
    whole width in one sequential run that the prefetchers follow. On an
    Intel Xeon with AMX (2 vCPUs) that order took a 2048x2048 f32
    transpose in C from 1.9-2.0 ms to 1.45-1.67 at one thread, and the
    compiled one, with outer blocks of 512 (runs of 2 KiB), from 1.68-1.81
    ms with 256 to 1.49-1.65.

    The loops of the other dimensions and the outer and inner block loops
    become `scf.for` loops around the op on the block, which
    `convert-linalg-to-loops` lowers.

    Runs after `nx-linalg-to-openmp` in `nx-lower-to-cpu`, on the op in
    each thread's tile. That pass gives a transposing op's threads strips
    of whole rows of the input where it can (the columns of the output
    they write, whole cache lines wide), else at least `tile-size` rows of
    the output each, and up to 256 while 16 tiles remain. Ops with one of
    the two loops shorter than a block, or of dynamic extent, are left
    alone.

    Before (`tile-size=32`, `outer-block-size=512`):

    ```mlir
    linalg.transpose ins(%x : memref<2048x1024xf32>)
                     outs(%y : memref<1024x2048xf32>) permutation = [1, 0]
    ```

    After:

    ```mlir
    scf.for %i = %c0 to %c1024 step %c512 {
      scf.for %j = %c0 to %c2048 step %c512 {
        %in = memref.subview %x[%j, %i] [512, 512] [1, 1] : ...
        %out = memref.subview %y[%i, %j] [512, 512] [1, 1] : ...
        scf.for %k = %c0 to %c512 step %c32 {
          scf.for %l = %c0 to %c512 step %c32 {
            %inBlock = memref.subview %in[%k, %l] [32, 32] [1, 1] : ...
            %outBlock = memref.subview %out[%l, %k] [32, 32] [1, 1] : ...
            linalg.transpose
                ins(%inBlock : memref<32x32xf32, strided<[1024, 1], ...>>)
                outs(%outBlock : memref<32x32xf32, strided<[2048, 1], ...>>)
                permutation = [1, 0]
          }
        }
      }
    }
    ```
  }];
  let options = [
    Option<"tileSize", "tile-size", "int64_t", /*default=*/"32",
           "Elements of each side of a block">,
    Option<"outerBlockSize", "outer-block-size", "int64_t",
           /*default=*/"512",
           "Elements of each side of the outer blocks the blocks are grouped "
           "into, so that the pages they touch stay in the TLB (at least "
           "tile-size)">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numTiled", "tiled", "Number of permuting ops tiled into blocks">
  ];
}

def NxVectorizeLinalgPass : Pass<"nx-vectorize-linalg"> {
  let summary = "Tiles linalg ops on buffers to the vector width and vectorizes each tile";
  let description = [{
    For each linalg op on buffers whose innermost loop is parallel
    (elementwise ops, broadcasts, reductions over outer dimensions), with
    projected-permutation indexing maps and element types of 8 to 64 bits:

    1. tiles it with upstream's `TilingInterface` tiling (`scf.for`): every
       outer loop by 1, the innermost by as many elements as fit
       `vector-bits` (16 f32 for 512 bits), or by its whole static extent
       when that is smaller; a reduction that only combines what it reads
       (its body one operation of its two arguments: a sum, a maximum), so
       that its loads bound it, by as many as fit `reduction-vector-bits`
       when that is set;
    2. peels the innermost tile loop, so every tile but the last has the
       static vector shape;
    3. vectorizes each full tile with upstream's linalg vectorizer into
       plain `vector.transfer_read` / `transfer_write` and arithmetic on
       vectors; the last, partial tile of a dynamic extent stays a linalg
       op for `convert-linalg-to-loops`. A reduction's combiner, which the
       vectorizer builds anew, gets the fast-math flags of the op's own
       combiner back when the body has one op of its kind
       (`nx-reassociate-reductions`' `nsz` on maxima, without which LLVM
       orders the zeros of each vector maximum with two more blends);
    4. drops the unit dimensions of the resulting vectors, so they lower to
       plain loads and stores of one vector register, and folds the tiles'
       subviews into the transfers' indices;
    5. for a reduction over an outer loop (column sums, and the partial
       step of a split row reduction not taken as a whole, see below),
       unrolls a tile loop of at
       most four tiles and hoists each accumulator's read and write out of
       the reduction loop (after LICM, canonicalization and CSE make the
       indices comparable), so up to four vector accumulators stay in
       registers as the loop's `iter_args`. A longer row of accumulators
       (column sums of a wide matrix) stays in memory and the input is read
       row by row: blocking the columns so the accumulators fit registers
       reads the input with a stride of a row, and measured twice as slow.
       Instead, four rows are combined in one pass over the accumulators
       when four divides the rows' static count, and transfer forwarding
       leaves one read and one write of each accumulator per four rows.
       When the combiner may reassociate (`reassoc`, or an exact integer
       combiner) the four are one row of each quarter of the rows, so that
       each quarter is read as one sequential stream (a maximum over the
       middle axis of 64x256x256 took half the time at one thread on AMD
       Zen 3); otherwise upstream's `scf` unroll-and-jam adds four
       adjacent rows in their order (not for NaN-propagating maxima and
       minima, whose in-order combinations of adjacent rows were slower
       than the memory traffic they save). Unlike upstream's
       `hoistRedundantVectorTransfers`, which this pass runs too, a buffer
       with views elsewhere (a partial-sum buffer that a later op reads in
       OpenMP tiles) qualifies, as long as no view of it is used inside the
       loop. Like the rest of this pass, this assumes that an op's outputs
       do not alias its inputs through another buffer value, as after
       bufferization.

    A transposing copy of static shape (no reductions; inputs read
    contiguously along the output's innermost loop or along one other loop,
    both extents multiples of the lanes) is tiled instead into blocks of
    those two loops: lanes output rows by lanes columns, or by a cache
    line's worth (64 bytes) where a row of lanes is shorter and the
    extent divides into lines (16 f32 columns at 256 bits), so that each
    output row of a block is one whole line stored back to back. Each block
    becomes a read of whole input rows, a `vector.transpose` cut into
    lanes x lanes squares, and a write of whole output rows. A square of
    eight 32-bit lanes becomes three rounds of eight two-input
    `vector.shuffle`s (x86's UNPCKLPS/UNPCKHPS, SHUFPS and VPERM2F128);
    `nx-lower-to-cpu` lowers a square of 16 with its 16x16 shuffle network
    and any other as LLVM's lowering of `vector.transpose` does.
    `nx-tile-transposes` makes the 32x32 blocks this takes:

    ```mlir
    // Before (vector-bits=256), a 32x32 block:
    linalg.transpose ins(%in : memref<32x32xf32, strided<[1024, 1], ...>>)
                     outs(%out : memref<32x32xf32, strided<[2048, 1], ...>>)
                     permutation = [1, 0]
    // After, for each block of 8 output rows by 16 columns:
    %rows = vector.transfer_read %x[%r, %c], %pad {in_bounds = [true, true]}
        : memref<2048x1024xf32>, vector<16x8xf32>
    %r0 = vector.extract %rows[0] : vector<8xf32> from vector<16x8xf32>
    %r1 = vector.extract %rows[1] : vector<8xf32> from vector<16x8xf32>
    %t0 = vector.shuffle %r0, %r1 [0, 8, 1, 9, 4, 12, 5, 13]
        : vector<8xf32>, vector<8xf32>
    ... // 23 more shuffles per square, two squares
    %block = vector.insert_strided_slice %square1, %half
        {offsets = [0, 8], strides = [1, 1]}
        : vector<8x8xf32> into vector<8x16xf32>
    vector.transfer_write %block, %y[%c, %r] {in_bounds = [true, true]}
        : vector<8x16xf32>, memref<1024x2048xf32>
    ```

    Last, a write of a 1-D or 2-D vector (a copy's or an elementwise op's
    row, a transpose's square) into an output that nothing reads before
    the function returns it is made one non-temporal store per row, which
    writes whole cache lines without first reading them: the output must
    be an allocation of a public function of at least 4 MiB, aligned to a
    vector row, that is otherwise only returned or freed, and the write's
    column a provable multiple of the row (a constant, or loop induction
    variables stepping by it). Ordinary stores would read every line they
    replace, a third of a transpose's or a concatenation's memory traffic.
    Each loop nest that streamed ends with `llvm.fence seq_cst`, since
    x86 orders non-temporal stores with other threads' loads only through
    a fence or a locked instruction; in an OpenMP team, each thread fences
    once, after its `omp.wsloop`, not in every iteration (a fence waits
    until the thread's streamed lines have left it). `stream-unread-outputs=false` keeps such writes in
    the cache, for a host that reads the result at once:

    ```mlir
    // Before (a square of a transpose into %y, returned):
    vector.transfer_write %t, %y[%i, %j] {in_bounds = [true, true]}
        : vector<16x16xf32>, memref<1024x2048xf32>
    // After, 16 times:
    %row = vector.extract %t[0] : vector<16xf32> from vector<16x16xf32>
    vector.store %row, %y[%i, %j] {alignment = 64 : i64, nontemporal = true}
        : memref<1024x2048xf32>, vector<16xf32>
    ```

    A copy of windows of its input (an im2col patch copy: outer dimensions
    indexed by sums of loops, the innermost loop read and written as the
    contiguous innermost dimension) is tiled the same way; each tile is
    one vector read and one vector write, since upstream's vectorizer takes
    only projected permutations.

    A static NHWC depthwise convolution (`depthwise_conv_2d_nhwc_hwc`) or
    max, min or sum pooling (`pooling_nhwc_max`, `_min`, `_sum`) is tiled
    into one output row of up to 8 columns by one vector of channels, one
    filter (window) row per iteration of the innermost tile loop; each tile
    is rewritten as its 1-D form (`depthwise_conv_1d_nwc_wc`,
    `pooling_nwc_*`) on rank-reduced views and vectorized by upstream's
    convolution vectorizer into multiply-adds (maxima, minima, sums) on 8
    vector accumulators, which the filter-row loop keeps in registers. The
    vectorizer builds the combiners anew; they get the op's own combiner's
    fast-math flags back (`nx-reassociate-reductions`' `nsz` on maxima).
    Such a window's neighbors move into its tiles: a `linalg.fill` of its
    output right before it becomes the accumulators' first value, and an
    elementwise `linalg.generic` right after it that only rewrites its
    output in place (an average pooling's division, a ReLU) is applied to
    the accumulators before they are stored. Each would otherwise be a pass
    over the output of its own:

    ```mlir
    // Before:
    linalg.fill ins(%zero : f32) outs(%y : memref<1x4x8x32xf32>)
    linalg.pooling_nhwc_sum {strides = dense<2> : tensor<2xi64>, ...}
        ins(%x, %w : memref<1x8x16x32xf32>, memref<2x2xf32>)
        outs(%y : memref<1x4x8x32xf32>)
    linalg.generic {... iterator_types = ["parallel", ...]}
        ins(%y : memref<1x4x8x32xf32>) outs(%y : memref<1x4x8x32xf32>) {
    ^bb0(%v: f32, %o: f32):
      %d = arith.divf %v, %four : f32
      linalg.yield %d : f32
    }
    // After, per tile of 8 columns by 16 channels:
    %sums = scf.for %kh = %c0 to %c2 step %c1
        iter_args(%acc = %zeros) -> (vector<8x16xf32>) {
      // ... the window row's sums
    }
    %avg = arith.divf %sums, %fours : vector<8x16xf32>
    vector.transfer_write %avg, %y[%c0, %row, %c0, %c] ...
    ```

    What `nx-split-reductions` makes of a row reduction whose body is one
    combiner (a sum, a maximum), once on buffers, is taken as a whole: a
    `linalg.fill` of the partial results, the partial step (loops: the
    rows' parallel ones, then reduction, parallel) into them and the final
    step (the rows' loops, then reduction) out of them with the same
    combiner, in one block (an
    OpenMP tile of rows, or the function), with the partial results in an
    allocation nothing else uses. Rows may be indexed by several loops
    (heads and rows of an attention's softmax), and their number may be
    dynamic (a short last OpenMP tile). Each row becomes one loop over the
    steps
    whose accumulators start from the fill's value, are combined with each
    other after it and reduced across their lanes (`vector.reduction`) into
    the row's output element; the allocation goes. Vectorized op by op, the
    accumulators would be loaded from the partial results at each row's
    start, stored back at its end and read again by the final step:

    ```mlir
    // Before (reduction-vector-bits=256):
    linalg.fill ins(%zero : f32) outs(%partial : memref<16x32xf32>)
    linalg.generic {... iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%x : memref<16x64x32xf32>) outs(%partial : memref<16x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %out fastmath<reassoc> : f32
      linalg.yield %s : f32
    }
    linalg.generic {... iterator_types = ["parallel", "reduction"]}
        ins(%partial : memref<16x32xf32>) outs(%y : memref<16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %out fastmath<reassoc> : f32
      linalg.yield %s : f32
    }
    // After:
    scf.for %row = %c0 to %c16 step %c1 {
      %a:4 = scf.for %step = %c0 to %c64 step %c1
          iter_args(%a0 = %zeros, %a1 = %zeros, %a2 = %zeros, %a3 = %zeros)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
        %v0 = vector.transfer_read %x[%row, %step, %c0], %pad
            : memref<16x64x32xf32>, vector<8xf32>
        %s0 = arith.addf %v0, %a0 fastmath<reassoc> : vector<8xf32>
        // ... the same at 8, 16 and 24
        scf.yield %s0, %s1, %s2, %s3 : ...
      }
      // %t: the four accumulators added together
      %start = memref.load %y[%row] : memref<16xf32>
      %sum = vector.reduction <add>, %t, %start fastmath<reassoc>
          : vector<8xf32> into f32
      memref.store %sum, %y[%row] : memref<16xf32>
    }
    ```

    A contraction that no library took (a product of integers other than i8
    into i32, of f16 or bf16 into themselves, or of any type with
    `nx-linalg-to-blas` off: two inputs, a multiply-add body,
    projected-permutation maps) whose output's contiguous columns one input
    (B) reads contiguously and the other (A) does not read is tiled into
    register tiles: two vectors of columns (32 f32 or i32 at 512 bits; f16
    and bf16 count as f32, which x86 computes them in) by as many rows as
    leave registers for a row of B and a broadcast (8 rows at 512 bits, 6 at
    256), by one step of each reduction loop, the reduction loops innermost;
    every other parallel loop (a batch) by one. The column and row tile
    loops are peeled, so every tile of a static op has a static shape. Each
    tile becomes one tile per row, vectorized: a broadcast element of A
    times B's row, added to the row's accumulator; elementwise ops on the
    operands (extensions of i8 or bf16) move before the broadcast. Once
    hoisted, the accumulators stay in registers as the reduction loop's
    `iter_args`, and LLVM loads B's row once per step for all rows. A
    product whose B is read across its rows (transposed) would gather its
    columns and is left to the loops; so is a tile of dynamic shape (the
    last rows of a short OpenMP tile). Before (`vector-bits=512`):

    ```mlir
    linalg.matmul ins(%a, %b : memref<16x8xi32>, memref<8x64xi32>)
                  outs(%c : memref<16x64xi32>)
    ```

    After (two tiles of columns, two of rows):

    ```mlir
    scf.for %n = %c0 to %c64 step %c32 {
      scf.for %m = %c0 to %c16 step %c8 {
        %c0v = vector.transfer_read %c[%m, %n], %pad
            : memref<16x64xi32>, vector<32xi32>
        // ... the other 7 rows' accumulators
        %acc:8 = scf.for %k = %c0 to %c8 step %c1
            iter_args(%r0 = %c0v, ...) -> (vector<32xi32>, ...) {
          %e0 = memref.load %a[%m, %k] : memref<16x8xi32>
          %row = vector.transfer_read %b[%k, %n], %pad
              : memref<8x64xi32>, vector<32xi32>
          %s0 = vector.broadcast %e0 : i32 to vector<32xi32>
          %p0 = arith.muli %s0, %row : vector<32xi32>
          %t0 = arith.addi %r0, %p0 : vector<32xi32>
          // ... the same for the other 7 rows
          scf.yield %t0, ... : vector<32xi32>, ...
        }
        vector.transfer_write %acc#0, %c[%m, %n]
            : vector<32xi32>, memref<16x64xi32>
        // ... and the other 7
      }
    }
    ```

    A generic whose reductions are all outer loops but whose combiner
    upstream's vectorizer takes as no reduction (an argmax's comparison
    and two selections, as `nx-split-index-reductions` leaves it) is tiled
    the same way; each tile, whose reduction loops run once, becomes an
    elementwise generic without them over rank-reduced views of its
    operands, and vectorizes. Its accumulators are hoisted as a column
    sum's are.

    Other ops whose innermost loop is a reduction are left to
    `convert-linalg-to-loops`: one tile of this pass would reduce across
    its lanes at every step. `nx-split-reductions`, on tensors, turns the
    ones it can into a vector-wide partial reduction this pass takes, and
    the reassociable combiners (`nx-reassociate-reductions`) let LLVM's
    loop vectorizer handle the rest. So are ops this pass cannot vectorize;
    they stay correct. `nx-lower-to-cpu` runs this pass with the
    host's vector width unless `vectorize=false`.

    Before (`vector-bits=512`):

    ```mlir
    linalg.generic {indexing_maps = [#id, #id],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<8x100xf32>) outs(%y : memref<8x100xf32>) {
    ^bb0(%in: f32, %out: f32):
      %e = math.exp %in : f32
      linalg.yield %e : f32
    }
    ```

    After:

    ```mlir
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c96 step %c16 {
        %v = vector.transfer_read %x[%i, %j], %pad {in_bounds = [true]}
            : memref<8x100xf32>, vector<16xf32>
        %e = math.exp %v : vector<16xf32>
        vector.transfer_write %e, %y[%i, %j] {in_bounds = [true]}
            : vector<16xf32>, memref<8x100xf32>
      }
      // The last 4 columns: the same on vector<4xf32> at %c96 (a static
      // op has a static last tile).
    }
    ```

    A column sum of `memref<64x64xf32>` into `memref<64xf32>` becomes:

    ```mlir
    %a0 = vector.transfer_read %y[%c0], %pad : memref<64xf32>, vector<16xf32>
    // ... %a1, %a2, %a3 at 16, 32, 48
    %r:4 = scf.for %i = %c0 to %c64 step %c1
        iter_args(%s0 = %a0, %s1 = %a1, %s2 = %a2, %s3 = %a3) -> (...) {
      %x0 = vector.transfer_read %x[%i, %c0], %pad
          : memref<64x64xf32>, vector<16xf32>
      %t0 = arith.addf %s0, %x0 : vector<16xf32>
      // ... the same for the other three
      scf.yield %t0, %t1, %t2, %t3 : ...
    }
    vector.transfer_write %r#0, %y[%c0] : vector<16xf32>, memref<64xf32>
    // ... and the other three
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "Width of the host's vector registers in bits">,
    Option<"reductionVectorBits", "reduction-vector-bits", "int64_t",
           /*default=*/"0",
           "Vector width in bits of reductions that only combine what they "
           "read (a sum, a maximum), whose loads bound them (0: vector-bits)">,
    Option<"streamUnreadOutputs", "stream-unread-outputs", "bool",
           /*default=*/"true",
           "Write large outputs that nothing reads before the function "
           "returns them with non-temporal stores; otherwise through the "
           "cache">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
  let statistics = [
    Statistic<"numVectorized", "vectorized",
              "Number of linalg ops tiled and vectorized">,
    Statistic<"numLeft", "left-to-loops",
              "Number of linalg ops on buffers left to the loop lowering">,
    Statistic<"numRowReductions", "row-reductions-in-registers",
              "Number of split row reductions whose partial results stay "
              "in registers">,
    Statistic<"numContractions", "contractions-in-registers",
              "Number of contractions tiled into register tiles whose "
              "accumulators stay in registers">,
    Statistic<"numStreamed", "streamed-writes",
              "Number of 1-D and 2-D vector writes into large outputs that "
              "are only returned, made non-temporal stores">
  ];
}

def NxConvolutionsToGemmPass : Pass<"nx-convolutions-to-gemm"> {
  let summary = "Lowers 2-D convolutions on f32/f64 buffers to im2col and linalg.matmul";
  let description = [{
    Rewrites `linalg.conv_2d_nhwc_hwcf`, `linalg.conv_2d_nhwc_fhwc` and
    `linalg.conv_2d_nchw_fchw` on buffers of static shape, with one element
    type, f32 or f64, into `linalg.matmul` ops on two-dimensional views of
    the buffers, which `nx-linalg-to-blas` then hands to the optimized
    BLAS. Any stride and dilation is taken; padding is whatever the input
    buffer holds (a `tensor.pad` before the convolution becomes a padded
    buffer in bufferization).

    For NHWC the product is `patch [N*OH*OW, KH*KW*C] x filter [KH*KW*C, F]`
    into the output seen as `[N*OH*OW, F]` (for FHWC the filter is the
    transposed view of `[F, KH*KW*C]`, which BLAS reads as column-major).
    For NCHW it is, per image, `filter [F, C*KH*KW] x patch [C*KH*KW,
    OH*OW]` into `[F, OH*OW]`. A 1x1 convolution of stride 1 needs no patch
    matrix: the input itself is the matrix (when its layout can be
    collapsed). Otherwise the patch matrix is filled by an im2col
    `linalg.generic`, a copy whose input map reads `oh * stride + kh *
    dilation` (the channel of NHWC innermost, so it vectorizes), in blocks
    of whole output rows of at most `row-block` patch rows (for NHWC, whole
    images when an image fits): the block's patch stays in cache between
    the copy and the product. One buffer holds the patch block; it is
    allocated before the block loops and freed after them.

    Like the convolution, the product accumulates into the output. Ops on
    tensors, dynamic shapes, other element types or layouts, depthwise
    convolutions, and outputs or filters whose layout cannot be viewed as a
    matrix are left alone. Part of `nx-lower-to-cpu` with `blas`.

    Before:

    ```mlir
    linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>,
                              strides = dense<1> : tensor<2xi64>}
        ins(%in, %filter : memref<1x58x58x64xf32>, memref<3x3x64x64xf32>)
        outs(%out : memref<1x56x56x64xf32>)
    ```

    After (`row-block=512`: blocks of 8 output rows, 448 patch rows):

    ```mlir
    %patch = memref.alloc() {alignment = 64 : i64} : memref<448x576xf32>
    %patch6 = memref.expand_shape %patch [[0, 1, 2], [3, 4, 5]]
        output_shape [1, 8, 56, 3, 3, 64] : memref<448x576xf32> into memref<1x8x56x3x3x64xf32>
    %filter2 = memref.collapse_shape %filter [[0, 1, 2], [3]]
        : memref<3x3x64x64xf32> into memref<576x64xf32>
    scf.for %oh = %c0 to %c56 step %c8 {
      %rows = memref.subview %in[0, %oh, 0, 0] [1, 10, 58, 64] [1, 1, 1, 1]
      linalg.generic {indexing_maps = [
            affine_map<(oh, n, ow, kh, kw, c) -> (n, oh + kh, ow + kw, c)>,
            affine_map<(oh, n, ow, kh, kw, c) -> (n, oh, ow, kh, kw, c)>],
          iterator_types = [parallel x 6]}
          ins(%rows : memref<1x10x58x64xf32, strided<...>>)
          outs(%patch6 : memref<1x8x56x3x3x64xf32>) {...copy...}
      %block = memref.subview %out[0, %oh, 0, 0] [1, 8, 56, 64] [1, 1, 1, 1]
      %out2 = memref.collapse_shape %block [[0, 1, 2], [3]]
      linalg.matmul ins(%patch, %filter2 : memref<448x576xf32>, memref<576x64xf32>)
                    outs(%out2 : memref<448x64xf32, strided<[64, 1], offset: ?>>)
    }
    memref.dealloc %patch : memref<448x576xf32>
    ```
  }];
  let options = [
    Option<"rowBlock", "row-block", "int64_t", /*default=*/"512",
           "Most rows of the patch matrix filled and multiplied at a time">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numConvolutions", "convolutions",
              "Number of convolutions lowered to matrix products">,
    Statistic<"numIm2Col", "im2col",
              "Number of those that fill a patch matrix (not a 1x1 stride-1 convolution)">
  ];
}

#endif // NX_CODEGEN_CPU_PASSES_TD
