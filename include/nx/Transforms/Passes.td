//===- Passes.td - transforms generic to MLIR --------------*- tablegen -*-===//
//
// Part of the nx-mlir project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Passes that rewrite upstream dialects only (tensor, linalg, bufferization,
// func, tosa) and make no decision for one target: the TOSA front end, static
// bound checks, elementwise fusion, buffer lifetimes and function splitting.
// They live outside the nx dialect so that any MLIR pipeline can use them;
// their flags keep the nx- prefix of the project. The CPU back end's code
// generation passes are in nx/Codegen/CPU.
//
//===----------------------------------------------------------------------===//

#ifndef NX_TRANSFORMS_PASSES_TD
#define NX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NxLowerTosaPass : Pass<"nx-lower-tosa", "::mlir::ModuleOp"> {
  let summary = "Runs the TOSA to linalg/arith/tensor pipeline on modules that contain TOSA ops";
  let description = [{
    Runs upstream's TOSA front end (`addTosaToLinalgPasses`, then
    `tosa-to-arith` and `tosa-to-tensor`) as a dynamic pipeline, and only
    when the module contains a `tosa` op. The front end is a dozen passes
    that each walk the whole module: on a module without TOSA they change
    nothing but take about a tenth of `nx-lower-to-cpu`'s time. Since the
    front end canonicalizes the whole module, which makes a size static in
    an op it contradicts, the pass first reports what
    `nx-check-static-bounds` reports. Part of `nx-lower-to-cpu`.

    Before:

    ```mlir
    %0 = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
    ```

    After:

    ```mlir
    %e = tensor.empty() : tensor<4xf32>
    %0 = linalg.generic {...} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = math.absf %in : f32
      linalg.yield %a : f32
    } -> tensor<4xf32>
    ```
  }];
}

def NxCheckStaticBoundsPass : Pass<"nx-check-static-bounds"> {
  let summary = "Rejects linalg ops and reshapes whose known sizes contradict each other";
  let description = [{
    Upstream's verifiers check a linalg op's accesses against its operands
    only when every operand is static, and do not compare a
    `tensor.expand_shape`'s static `output_shape` with its type.
    Canonicalization (folding a `tensor.cast` into its user), bufferization
    (`memref.expand_shape` checks the shape) and tiling (`memref.subview`
    checks its bounds) then make those sizes static and build ops that do
    not verify, so a program that verified fails deep in a pipeline, at an
    op the user did not write.

    This pass reports the contradiction at the user's op instead, using
    every size that is known: static sizes, sizes behind casts, constant
    sizes of `tensor.empty` and `memref.alloc`, and a destination-style
    op's init. For each linalg op it checks that every loop gets one
    length from the operands it alone indexes, and that every linear index
    (a convolution's `h * stride + kh * dilation`) stays within
    `[0, size)` and int64. It rewrites nothing. It runs first in
    `nx-lower-to-cpu`, and the passes that tile (`nx-linalg-to-openmp`,
    `nx-linalg-to-blas`, `nx-vectorize-linalg`,
    `nx-convolutions-to-gemm`, `nx-tile-transposes`) apply the same check
    to what they are given.

    Before:

    ```mlir
    %i = tensor.cast %in : tensor<1x6x6x3xf32> to tensor<?x?x?x3xf32>
    %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
      ins(%i, %filter : tensor<?x?x?x3xf32>, tensor<3x3x3x4xf32>)
      outs(%o : tensor<?x4x4x4xf32>) -> tensor<?x4x4x4xf32>
    ```

    After: the IR is unchanged, and the pass fails with

    ```
    error: 'linalg.conv_2d_nhwc_hwcf' op accesses operand #0 at index 7
    along dimension 1, past its size 6
    ```
  }];
}

def NxExtractsToInputsPass : Pass<"nx-extracts-to-inputs"> {
  let summary = "Reads a tensor.extract at affine indices in a linalg.generic as an input operand of that map";
  let description = [{
    Front ends read elements inside a generic's body when their indexing
    maps cannot say which: `tosa.reverse` lowers to a generic that extracts
    its input at `size - 1 - j`. Every transformation that works on
    indexing maps is blind to such a read. A 2048x2048 reversal through
    `tosa.reverse` ran on threads only by upstream's tiling of the extract,
    stayed scalar, and took twice the time of a copy at one thread, where
    the same reversal as an indexing map (`jnp.flip` through StableHLO) is a
    view of negated strides (`nx-reversed-views`) that the vectorizer takes.

    This pass turns each `tensor.extract` of a generic's own block (one
    that runs on every iteration) into an input of the generic, when each
    index is a linear function of the loops (`linalg.index` ops, index
    constants, their sums and differences, and products by constants) and
    the tensor has a static shape that the index stays within on every
    iteration of static, non-empty loops. An index that could leave the
    tensor, data-dependent indices (a gather), extracts inside nested
    regions, tensors defined in the body or with an encoding, and dynamic
    loops are left as they are. Two extracts of one tensor at one map share
    an input. Part of `nx-lower-to-cpu`, after `nx-lower-tosa` and before
    fusion.

    Before:

    ```mlir
    %r = linalg.generic {indexing_maps = [#id],
                         iterator_types = ["parallel", "parallel"]}
        outs(%e : tensor<2048x2048xf32>) {
    ^bb0(%out: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %k = arith.subi %c2047, %j : index
      %v = tensor.extract %x[%i, %k] : tensor<2048x2048xf32>
      linalg.yield %v : f32
    } -> tensor<2048x2048xf32>
    ```

    After:

    ```mlir
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, -d1 + 2047)>, #id],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<2048x2048xf32>) outs(%e : tensor<2048x2048xf32>) {
    ^bb0(%v: f32, %out: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %k = arith.subi %c2047, %j : index
      linalg.yield %v : f32
    } -> tensor<2048x2048xf32>
    ```

    (The index arithmetic left unused goes at the next canonicalization.)
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numRead", "extracts-to-inputs",
              "Number of tensor.extract ops read as inputs of an indexing map">
  ];
}

def NxFuseElementwisePass : Pass<"nx-fuse-elementwise"> {
  let summary = "Turns trees of elementwise tensor ops into one linalg.generic each, in linear time";
  let description = [{
    Lowers `ElementwiseMappable` ops on tensors (`arith`, `math`) to
    `linalg.generic`, fusing as it goes. Upstream's
    `convert-elementwise-to-linalg` followed by `linalg-fuse-elementwise-ops`
    computes the same thing, but fuses one producer at a time: every step
    clones the whole body fused so far, so a chain of `k` ops costs `O(k^2)`
    (a 10,000-op chain takes about 30 s to compile). This pass clones each op
    once.

    An op is *eligible* when it is memory-effect free, has no regions, and
    all its operands and results are ranked tensors of one static shape.
    Walking each block bottom-up, an eligible op joins the group of its
    users when all of them are eligible ops of one group in the same block;
    otherwise it roots a group of its own. Each group therefore has a single
    output, the root's result, and becomes one `linalg.generic` at the
    root's position: identity indexing maps, parallel iterators, one input
    per distinct outside operand, a `tensor.empty` init, and a body holding
    the scalar form of every op of the group in program order. Ops that are
    not eligible (dynamic shapes, scalars mixed with tensors) are left to
    `convert-elementwise-to-linalg`. Part of `nx-lower-to-cpu`.

    Before:

    ```mlir
    %0 = arith.addf %x, %y : tensor<4xf32>
    %1 = arith.mulf %0, %0 : tensor<4xf32>
    %2 = math.exp %1 : tensor<4xf32>
    ```

    After:

    ```mlir
    %e = tensor.empty() : tensor<4xf32>
    %2 = linalg.generic {indexing_maps = [#id, #id, #id],
                         iterator_types = ["parallel"]}
        ins(%x, %y : tensor<4xf32>, tensor<4xf32>)
        outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s0 = arith.addf %a, %b : f32
      %s1 = arith.mulf %s0, %s0 : f32
      %s2 = math.exp %s1 : f32
      linalg.yield %s2 : f32
    } -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def NxHoistDeallocsPass : Pass<"nx-hoist-deallocs"> {
  let summary = "Frees each fresh buffer right after its last use instead of at its block's end";
  let description = [{
    `ownership-based-buffer-deallocation` frees a block's buffers at the
    block's end, so a straight-line function keeps every intermediate buffer
    alive until it returns: a chain of 1,000 host callbacks on 1 MiB tensors
    peaks at 1 GiB. This pass moves each `bufferization.dealloc` of a single
    fresh allocation without retained values (the form
    `buffer-deallocation-simplification` leaves, with `nx-split-deallocs`,
    for most buffers) to just after the buffer's last use in its block.

    A dealloc moves only when the buffer provably has no alias that could be
    used later: it is allocated in the dealloc's block, and none of its
    users (at any depth) is a terminator, has a memref or tensor result
    (a view, `bufferization.to_tensor`), stores it
    (`memref.store` of the buffer itself) or takes its address
    (`memref.extract_aligned_pointer_as_index`). The new position is after
    the last user's ancestor in the block and after the definition of the
    dealloc's condition. Positions are computed before anything moves, so
    the pass is linear in the size of the block. Run it after
    `buffer-deallocation-simplification` and before
    `bufferization-lower-deallocations`, as `nx-lower-to-cpu` does.

    Before:

    ```mlir
    %a = memref.alloc() : memref<4xf32>
    linalg.generic ... ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
    %b = memref.alloc() : memref<4xf32>
    nx.invoke elixir_call @f(%a) outs(%b) : (memref<4xf32>) -> (memref<4xf32>)
    "test.use"(%b) : (memref<4xf32>) -> ()
    bufferization.dealloc (%a : memref<4xf32>) if (%true)
    bufferization.dealloc (%b : memref<4xf32>) if (%true)
    return
    ```

    After:

    ```mlir
    %a = memref.alloc() : memref<4xf32>
    linalg.generic ... ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
    %b = memref.alloc() : memref<4xf32>
    nx.invoke elixir_call @f(%a) outs(%b) : (memref<4xf32>) -> (memref<4xf32>)
    bufferization.dealloc (%a : memref<4xf32>) if (%true)
    "test.use"(%b) : (memref<4xf32>) -> ()
    bufferization.dealloc (%b : memref<4xf32>) if (%true)
    return
    ```
  }];
  let statistics = [
    Statistic<"numHoisted", "deallocs-hoisted", "Number of deallocations moved to right after their buffer's last use">
  ];
}

def NxSplitDeallocsPass : Pass<"nx-split-deallocs"> {
  let summary = "Gives each fresh allocation its own bufferization.dealloc";
  let description = [{
    `ownership-based-buffer-deallocation` frees every buffer of a block with
    one `bufferization.dealloc` at the block's end, and
    `buffer-deallocation-simplification` then compares each pair of its
    memrefs for aliasing: quadratic in the number of buffers a block
    allocates (2,000 buffers in one function take over a second). This pass
    splits those deallocs in linear time using a fact the simplification
    would have to rediscover pair by pair: the result of an allocating op
    `%a = X` cannot alias a value that was defined before `X` ran.

    A memref of a `bufferization.dealloc` moves to a dealloc of its own
    (same condition) when it is the result of an op with an `Allocate`
    effect on it, it appears once in the list, and every other memref of
    the list is either such a fresh allocation too or properly dominates
    `X`. Retained values that properly dominate `X` are dropped from its
    dealloc (they cannot alias it); for the others, the updated ownership
    the original op returned is the `arith.ori` of what the pieces return.
    Run it between `ownership-based-buffer-deallocation` and
    `buffer-deallocation-simplification` (as `nx-lower-to-cpu` does), which
    then resolves each piece against its few retained values.

    Before (`%x` is a function argument, defined before both allocations):

    ```mlir
    %a = memref.alloc() : memref<4xf32>
    %b = memref.alloc() : memref<4xf32>
    %r = bufferization.dealloc (%x, %a, %b : memref<4xf32>, memref<4xf32>,
        memref<4xf32>) if (%cx, %true, %true) retain (%a : memref<4xf32>)
    ```

    After:

    ```mlir
    %a = memref.alloc() : memref<4xf32>
    %b = memref.alloc() : memref<4xf32>
    %0 = bufferization.dealloc (%x : memref<4xf32>) if (%cx)
        retain (%a : memref<4xf32>)
    %1 = bufferization.dealloc (%a : memref<4xf32>) if (%true)
        retain (%a : memref<4xf32>)
    bufferization.dealloc (%b : memref<4xf32>) if (%true)
    %r = arith.ori %0, %1 : i1
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def NxCollapseReductionDimsPass : Pass<"nx-collapse-reduction-dims"> {
  let summary = "Makes adjacent reduced dimensions of a linalg op one dimension";
  let description = [{
    A reduction over several adjacent dimensions (the sum of a whole
    matrix, a mean over an image's height and width) reduces one dimension
    after another: `nx-split-reductions` takes only ops with one reduction
    loop, and `nx-linalg-to-openmp` shares an op's outermost parallel loop
    or the rows of an outer reduction, so the sum of a 2048x2048 matrix ran
    on one thread of any team. This pass collapses each run of two or more
    adjacent reduction loops that every operand reads as one contiguous
    run of its dimensions (upstream's `collapseOpIterationDims`, on the op
    generalized) into one loop, with `tensor.collapse_shape` on the
    operands. The whole matrix's sum is then the sum of a vector, which
    `nx-split-reductions` splits into vector-wide partial sums whose rows
    `nx-linalg-to-openmp` shares among workers; an image's mean over height
    and width becomes a reduction over one middle axis.

    Left alone: ops on buffers, ops with `linalg.index`, non-permutation
    maps (convolutions, pooling), contractions (they go to BLAS), and runs
    some operand does not read contiguously.

    Before:

    ```mlir
    %s = linalg.reduce ins(%x : tensor<2048x2048xf32>)
        outs(%z : tensor<f32>) dimensions = [0, 1] ...
    ```

    After:

    ```mlir
    %c = tensor.collapse_shape %x [[0, 1]]
        : tensor<2048x2048xf32> into tensor<4194304xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                          affine_map<(d0) -> ()>],
                         iterator_types = ["reduction"]}
        ins(%c : tensor<4194304xf32>) outs(%z : tensor<f32>) ...
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numCollapsed", "collapsed-reductions",
              "Number of ops whose adjacent reduced dimensions became one">
  ];
}

def NxConvolutions1DTo2DPass : Pass<"nx-convolutions-1d-to-2d"> {
  let summary = "Rewrites 1-D convolutions on tensors as 2-D ones one row high";
  let description = [{
    `nx-linalg-to-dnnl` hands 2-D convolutions to oneDNN and
    `nx-convolutions-to-gemm` makes them matrix products; a 1-D convolution
    matched neither and ran as a loop nest. This pass rewrites
    `linalg.conv_1d_nwc_wcf`, `linalg.conv_1d_ncw_fcw` and
    `linalg.depthwise_conv_1d_nwc_wc` on tensors as
    `linalg.conv_2d_nhwc_hwcf`, `linalg.conv_2d_nchw_fchw` and
    `linalg.depthwise_conv_2d_nhwc_hwc` over an image and a kernel of
    height 1, with a stride and a dilation of 1 along it: each operand gets
    the unit dimension by a `tensor.expand_shape`, and the result loses it
    by a `tensor.collapse_shape`. Both are reshapes, which bufferize to
    views. A 4x1024x64 sequence by a 3x64x64 kernel took 22.5 ms as loops
    at one thread on an Intel Xeon with AMX (2 vCPUs).

    Before:

    ```mlir
    %y = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>,
                                 strides = dense<2> : tensor<1xi64>}
        ins(%x, %w : tensor<4x64x8xf32>, tensor<3x8x16xf32>)
        outs(%init : tensor<4x31x16xf32>) -> tensor<4x31x16xf32>
    ```

    After:

    ```mlir
    %x2 = tensor.expand_shape %x [[0, 1], [2], [3]] output_shape [4, 1, 64, 8]
        : tensor<4x64x8xf32> into tensor<4x1x64x8xf32>
    %w2 = tensor.expand_shape %w [[0, 1], [2], [3]] output_shape [1, 3, 8, 16]
        : tensor<3x8x16xf32> into tensor<1x3x8x16xf32>
    %init2 = tensor.expand_shape %init [[0, 1], [2], [3]] output_shape [4, 1, 31, 16]
        : tensor<4x31x16xf32> into tensor<4x1x31x16xf32>
    %y2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>,
                                    strides = dense<[1, 2]> : tensor<2xi64>}
        ins(%x2, %w2 : tensor<4x1x64x8xf32>, tensor<1x3x8x16xf32>)
        outs(%init2 : tensor<4x1x31x16xf32>) -> tensor<4x1x31x16xf32>
    %y = tensor.collapse_shape %y2 [[0, 1], [2], [3]]
        : tensor<4x1x31x16xf32> into tensor<4x31x16xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numRewritten", "rewritten-convolutions",
              "Number of 1-D convolutions rewritten as 2-D ones">
  ];
}

def NxConvolutions3DTo2DPass : Pass<"nx-convolutions-3d-to-2d"> {
  let summary = "Rewrites 3-D convolutions on tensors as sums of 2-D ones";
  let description = [{
    `nx-linalg-to-dnnl` hands 2-D convolutions to oneDNN and
    `nx-convolutions-to-gemm` makes them matrix products; a 3-D convolution
    matched neither and ran as a loop nest of seven loops (168 ms for a
    1x16x32x32x16 volume by a 3x3x3x16x32 kernel at one thread on an Intel
    Xeon with AMX, 2 vCPUs).

    A 3-D convolution is the sum, over the planes of its kernel, of 2-D
    ones: kernel plane `kd` meets image planes `kd * dilation + od *
    stride` for every output plane `od`. This pass rewrites
    `linalg.conv_3d_ndhwc_dhwcf` and `linalg.depthwise_conv_3d_ndhwc_dhwc`
    on tensors of static sizes whose kernel depth is at most
    `max-kernel-depth`
    as one `linalg.conv_2d_nhwc_hwcf` (or `linalg.depthwise_conv_2d_nhwc_hwc`)
    per kernel plane. Each takes those image planes through a
    `tensor.extract_slice` with the depth's stride, with the batch and the
    depth collapsed into one batch dimension, and the kernel plane through
    a rank-reducing `tensor.extract_slice`; each accumulates into the
    result of the one before, starting from the 3-D op's init. The height's
    and width's strides and dilations stay. The collapsed image planes are
    a view when they are one run of memory (a batch of 1 and a depth stride
    of 1) and a copy otherwise, which costs a small part of the products.
    `linalg.conv_3d_ncdhw_fcdhw` and `linalg.depthwise_conv_3d_ncdhw_cdhw`
    (PyTorch's layouts), whose depth is not next to the batch, are the same
    convolutions of NDHWC operands: their image, kernel (to DHWCF or DHWC)
    and init are transposed with `linalg.transpose` first, and the sum is
    transposed back. Three transposes cost a few passes over memory; the
    seven loops the op was left as took 27x PyTorch's time (83.7 ms against
    3.1 for a 1x16x16x32x32 volume by 32x16x3x3x3, one thread, on an Intel
    VM; 2.6 ms since). Dynamic sizes stay loops: the views of their
    collapsed batches crashed upstream's `expand-strided-metadata` (found by
    fuzzing).

    Before:

    ```mlir
    %y = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>,
                                     strides = dense<1> : tensor<3xi64>}
        ins(%x, %w : tensor<1x8x16x16x4xf32>, tensor<2x3x3x4x8xf32>)
        outs(%init : tensor<1x7x14x14x8xf32>) -> tensor<1x7x14x14x8xf32>
    ```

    After:

    ```mlir
    %acc0 = tensor.collapse_shape %init [[0, 1], [2], [3], [4]]
        : tensor<1x7x14x14x8xf32> into tensor<7x14x14x8xf32>
    %x0 = tensor.extract_slice %x[0, 0, 0, 0, 0] [1, 7, 16, 16, 4] [1, 1, 1, 1, 1]
        : tensor<1x8x16x16x4xf32> to tensor<1x7x16x16x4xf32>
    %b0 = tensor.collapse_shape %x0 [[0, 1], [2], [3], [4]]
        : tensor<1x7x16x16x4xf32> into tensor<7x16x16x4xf32>
    %w0 = tensor.extract_slice %w[0, 0, 0, 0, 0] [1, 3, 3, 4, 8] [1, 1, 1, 1, 1]
        : tensor<2x3x3x4x8xf32> to tensor<3x3x4x8xf32>
    %acc1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>,
                                      strides = dense<1> : tensor<2xi64>}
        ins(%b0, %w0 : tensor<7x16x16x4xf32>, tensor<3x3x4x8xf32>)
        outs(%acc0 : tensor<7x14x14x8xf32>) -> tensor<7x14x14x8xf32>
    // ... the same for plane 1: image planes 1 to 7, %w[1], into %acc1 ...
    %y = tensor.expand_shape %acc2 [[0, 1], [2], [3], [4]]
        output_shape [1, 7, 14, 14, 8]
        : tensor<7x14x14x8xf32> into tensor<1x7x14x14x8xf32>
    ```
  }];
  let options = [
    Option<"maxKernelDepth", "max-kernel-depth", "int64_t", "32",
           "Largest kernel depth rewritten: each plane is a 2-D convolution "
           "of its own">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numRewritten", "rewritten-convolutions",
              "Number of 3-D convolutions rewritten as sums of 2-D ones">
  ];
}

def NxCloneSharedFillsPass : Pass<"nx-clone-shared-fills"> {
  let summary = "Gives each op that writes into a filled tensor a fill of its own";
  let description = [{
    A front end that fills one `tensor.empty` with zeros and hands the
    result to several reductions as their `outs` (a layer norm's sum and
    sum of squares) makes One-Shot Bufferize copy: the first reduction
    writes over the zeros, which the second still needs, so bufferization
    fills one buffer and copies it into a fresh one for the first. The
    copy stands between that reduction and the op before it, so
    `nx-linalg-to-openmp` cannot run both in one team, and the reduction
    runs serially: the final step of a row sum split by
    `nx-split-reductions`, 512x64 points in a transformer's layer norm,
    ran on one thread of sixteen.

    This pass gives every use of such a fill as an `outs` operand of a
    destination-style op a `tensor.empty` and `linalg.fill` of its own,
    right after the original, so that each buffer is filled and written
    once, with no copy. A fill that only one op uses, a fill into anything
    but a `tensor.empty`, and uses that only read the fill are left as
    they are: the original stays for its readers, or for the first writer
    when all its uses write.

    Before:

    ```mlir
    %e = tensor.empty() : tensor<512xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
    %sum = linalg.reduce ins(%x : tensor<512x256xf32>) outs(%z : tensor<512xf32>) dimensions = [1] ...
    %sq = linalg.generic {...} ins(%y : tensor<512x256xf32>) outs(%z : tensor<512xf32>) ...
    ```

    After:

    ```mlir
    %e = tensor.empty() : tensor<512xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
    %e1 = tensor.empty() : tensor<512xf32>
    %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512xf32>) -> tensor<512xf32>
    %sum = linalg.reduce ins(%x : tensor<512x256xf32>) outs(%z : tensor<512xf32>) dimensions = [1] ...
    %sq = linalg.generic {...} ins(%y : tensor<512x256xf32>) outs(%z1 : tensor<512xf32>) ...
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numCloned", "cloned-fills",
              "Number of fills made for one more op that writes into them">
  ];
}

def NxDecomposeAggregatedOpsPass : Pass<"nx-decompose-aggregated-ops"> {
  let summary = "Replaces linalg ops defined by other linalg ops (linalg.softmax) by that definition";
  let description = [{
    Some linalg ops are compositions of others: `linalg.softmax` is a
    maximum, an exponential of the difference, a sum and a division. They
    implement `AggregatedOpInterface` but not `LinalgOp`, so One-Shot
    Bufferize, the library calls and the loop lowering see none of them,
    and such an op used to reach the LLVM translation inside casts between
    tensors and memrefs. This pass replaces each by the ops its
    `decomposeOperation` builds, before fusion and the reductions' split,
    which then treat them like a front end's own. An op on buffers, or
    with elements other than f16, bf16, f32 and f64 (upstream's
    decomposition builds exponentials and infinities, and crashed on an i1
    softmax that fuzzing found), is reported at the op.

    Before:

    ```mlir
    %e = tensor.empty() : tensor<2x16xf32>
    %s = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>)
        outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
    ```

    After:

    ```mlir
    %e = tensor.empty() : tensor<2x16xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%r : tensor<2xf32>) -> tensor<2xf32>
    %max = linalg.generic {...reduction...} ins(%x) outs(%m0)      // maxnumf
    %exp = linalg.generic {...parallel...} ins(%x, %max) outs(%e)  // exp(x - max)
    %s0 = linalg.fill ins(%zero : f32) outs(%r : tensor<2xf32>) -> tensor<2xf32>
    %sum = linalg.generic {...reduction...} ins(%exp) outs(%s0)    // addf
    %s = linalg.generic {...parallel...} ins(%exp, %sum) outs(%exp) // divf
    ```

    Upstream's decompositions build tensors: an aggregated op on buffers,
    or one whose decomposition fails, is reported at its location, and the
    pass fails.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numDecomposed", "decomposed-ops",
              "Number of aggregated ops replaced by their definition">
  ];
}

def NxReuseInputsAsOutputsPass : Pass<"nx-reuse-inputs-as-outputs"> {
  let summary = "Lets elementwise linalg ops write into an input they are the last user of";
  let description = [{
    An elementwise `linalg.generic` on tensors computes into its `outs`
    operand; front ends and `nx-fuse-elementwise` make that a
    `tensor.empty`, so One-Shot Bufferize gives every such op a new buffer.
    In a loop that carries a tensor, that is one heap allocation per
    iteration. When an input has the output's type and indexing map, and
    this op is its only user, the op may write its result over that input
    instead: this pass makes the input the `outs` operand, and bufferization
    then updates the buffer in place. The payload never reads the output's
    block argument (the pass checks), so the result is unchanged.

    Inputs that are arguments of a function's entry block are left alone:
    they are the caller's tensors.

    Before:

    ```mlir
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<f32>) {
      %e = tensor.empty() : tensor<f32>
      %next = linalg.generic {indexing_maps = [#id, #id], iterator_types = []}
          ins(%acc : tensor<f32>) outs(%e : tensor<f32>) {
        ^bb0(%in: f32, %out: f32):
          %s = arith.addf %in, %one : f32
          linalg.yield %s : f32
      } -> tensor<f32>
      scf.yield %next : tensor<f32>
    }
    ```

    After:

    ```mlir
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<f32>) {
      %next = linalg.generic {indexing_maps = [#id, #id], iterator_types = []}
          ins(%acc : tensor<f32>) outs(%acc : tensor<f32>) {
        ^bb0(%in: f32, %out: f32):
          %s = arith.addf %in, %one : f32
          linalg.yield %s : f32
      } -> tensor<f32>
      scf.yield %next : tensor<f32>
    }
    ```
  }];
  let statistics = [
    Statistic<"numReused", "reused-inputs",
              "Number of outputs that now write over an input">
  ];
}

def NxSplitFunctionsPass : Pass<"nx-split-functions", "::mlir::ModuleOp"> {
  let summary = "Outlines runs of a large function's ops into private functions of bounded size";
  let description = [{
    A function pass visits every op of its function, and a nested pipeline
    runs all its passes on one function before the next: when a function is
    small, its IR stays in the cache from one pass to the next; when it is
    large (100,000 ops are about 100 MB of IR), every pass streams it from
    memory again, and compile time grows faster than the program. This pass
    bounds the size of what the later passes see. In every function with a
    single-block body of more than `max-ops` ops (counting nested ones), it
    cuts the top-level ops into consecutive runs of at most `max-ops` ops
    and moves each run of at least `max-ops / 2` ops into a new private
    function, called where the run was: values the run uses become
    arguments, values used after it become results. The pieces are also
    independent units for a multi-threaded pass manager. Functions with
    several blocks, and functions whose body does not end in a known
    terminator (an unregistered op may end one), are left alone.

    It is meant for buffers: `nx-lower-to-cpu` runs it right after One-Shot
    Bufferize, before buffer deallocation, and the pieces are shaped so that
    deallocation needs no copies and frees every buffer where it would have
    without the split. A piece never returns a buffer it does not own, so
    some top-level ops stay in the function and end the current run:

    * ops that allocate in the function's frame (an `Allocate` effect on
      the automatic allocation scope, such as `memref.alloca`, at any depth
      outside a nested allocation scope): the memory would be freed when the
      piece returns;
    * ops returning a buffer they did not allocate (a view, a global, a
      loop-carried buffer), and allocations with operands; calls are not
      affected (the caller owns what a call returns).

    Constants (`ConstantLike`, no operands) stay too and are cloned into each
    piece that uses them. An operand-less allocation (`memref.alloc()`)
    moves into its piece unless its buffer is used after the run; then it
    stays in front of the call, so the caller owns it and can free it right
    after its last use.

    Before (`max-ops=3`):

    ```mlir
    func.func @f(%a: memref<4xf32>) -> memref<4xf32> {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      %z = arith.mulf %y, %y : f32
      %b = memref.alloc() : memref<4xf32>
      memref.store %z, %b[%c0] : memref<4xf32>
      return %b : memref<4xf32>
    }
    ```

    After:

    ```mlir
    func.func @f(%a: memref<4xf32>) -> memref<4xf32> {
      %z = call @f_part0(%a) : (memref<4xf32>) -> f32
      %b = memref.alloc() : memref<4xf32>
      call @f_part1(%z, %b) : (f32, memref<4xf32>) -> ()
      return %b : memref<4xf32>
    }
    func.func private @f_part0(%a: memref<4xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      %z = arith.mulf %y, %y : f32
      return %z : f32
    }
    func.func private @f_part1(%z: f32, %b: memref<4xf32>) {
      %c0 = arith.constant 0 : index
      memref.store %z, %b[%c0] : memref<4xf32>
      return
    }
    ```
  }];
  let options = [
    Option<"maxOps", "max-ops", "int64_t", /*default=*/"2048",
           "Largest number of ops (counting nested ones) of a function "
           "left whole, and of each piece">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numPieces", "pieces", "Number of pieces outlined">
  ];
}

def NxInlinePiecesPass : Pass<"nx-inline-pieces", "::mlir::ModuleOp"> {
  let summary = "Inlines the pieces nx-split-functions outlined back into their callers";
  let description = [{
    Moves the body of every function marked `nx.piece` (the pieces
    `nx-split-functions` outlines) back in place of its single call and
    erases the piece. `nx-lower-to-cpu` splits functions before One-Shot
    Bufferize as well as after it: One-Shot's analysis of an operand visits
    every use of every alias of the operand's value, so a tensor read by `n`
    ops of one function costs `O(n^2)` (a function argument read by each of
    1,000 fused chains), while in pieces each function reads it a bounded
    number of times. This pass then restores the bufferized function, so
    that deallocation and the later split see it whole. Every piece must be
    called exactly once, not from itself (directly or through other
    pieces), and have one block ending in `func.return`.

    Before:

    ```mlir
    func.func @f(%a: memref<4xf32>) -> f32 {
      %0 = call @f_part0(%a) : (memref<4xf32>) -> f32
      return %0 : f32
    }
    func.func private @f_part0(%a: memref<4xf32>) -> f32 attributes {nx.piece} {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<4xf32>
      return %x : f32
    }
    ```

    After:

    ```mlir
    func.func @f(%a: memref<4xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<4xf32>
      return %x : f32
    }
    ```
  }];
  let statistics = [
    Statistic<"numInlined", "pieces-inlined", "Number of pieces inlined back into their callers">
  ];
}

#endif // NX_TRANSFORMS_PASSES_TD
