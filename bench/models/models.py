#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The benchmark models' inputs, references and PyTorch baselines.

Each model in bench/models/<name>.mlir, and each single op of the classes
models are made of (convolutions, pooling, batched matmuls, masked
attention, transposes, reductions; OPS below), has here:
  - its arguments (shapes, and the scale of their random values: weights are
    uniform in +-1/sqrt(fan-in), as a trained network's are in magnitude);
  - a NumPy reference in float64, written independently of nx's lowering;
  - the same model in PyTorch eager (float32), the peer it is timed against.

Commands (NumPy is required; PyTorch only for `time` and for `check`'s
second reference):
  models.py inputs MODEL DIR          write arg<k>.npy into DIR
  models.py check MODEL OUT.npy       compare nx's output with the references
  models.py run MODEL --nx-runner=PATH --dir=DIR [--flag=FLAG...]
                                      inputs, nx-runner on bench/models/
                                      MODEL.mlir with the FLAGs, then check
  models.py time [--threads N] [--min-time S] [MODEL...]
                                      time PyTorch eager; prints JSON in
                                      Google Benchmark's format
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time

import numpy as np

# Relative tolerance of nx's float32 output against the float64 reference,
# measured against the output's largest magnitude (softmax outputs are in
# [0, 1]; the transformer's are O(1)).
TOLERANCE = 1e-4

HERE = os.path.dirname(os.path.abspath(__file__))


def uniform(rng, shape, scale):
    return rng.uniform(-scale, scale, size=shape).astype(np.float32)


class Model:
    """Arguments are (name, shape, scale) in the order of the MLIR function."""
    name = None
    arguments = []
    tolerance = TOLERANCE

    def inputs(self, seed=0):
        rng = np.random.default_rng(seed)
        return [uniform(rng, shape, scale) for _, shape, scale in self.arguments]


# ---------------------------------------------------------------------------
# NumPy building blocks (float64)
# ---------------------------------------------------------------------------

def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_relu(x):
    return np.maximum(x, 0.0)


def np_conv2d_nhwc_hwcf(x, w, padding=0, stride=1, dilation=1):
    if padding:
        x = np.pad(x, ((0, 0), (padding, padding), (padding, padding), (0, 0)))
    n, h, wd, c = x.shape
    kh, kw, _, f = w.shape
    oh = (h - dilation * (kh - 1) - 1) // stride + 1
    ow = (wd - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, oh, ow, f))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, i * dilation:i * dilation + stride * (oh - 1) + 1:stride,
                      j * dilation:j * dilation + stride * (ow - 1) + 1:stride, :]
            out += patch @ w[i, j]
    return out


def np_depthwise_nhwc_hwc(x, w, padding=0, stride=1):
    if padding:
        x = np.pad(x, ((0, 0), (padding, padding), (padding, padding), (0, 0)))
    n, h, wd, c = x.shape
    kh, kw, _ = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, oh, ow, c))
    for i in range(kh):
        for j in range(kw):
            out += x[:, i:i + stride * (oh - 1) + 1:stride,
                     j:j + stride * (ow - 1) + 1:stride, :] * w[i, j]
    return out


def np_conv3d_ndhwc(x, w, strides=(1, 1, 1), dilations=(1, 1, 1)):
    """A 3-D NDHWC convolution by DHWCF weights, or a depthwise one by DHWC
    weights, without padding: a sum over the kernel's taps."""
    depthwise = w.ndim == 4
    kernel = w.shape[:3]
    out_shape = [(size - d * (k - 1) - 1) // s + 1 for size, k, s, d in
                 zip(x.shape[1:4], kernel, strides, dilations)]
    out = np.zeros([x.shape[0]] + out_shape + [w.shape[-1]])
    for tap in np.ndindex(*kernel):
        window = tuple(slice(t * d, t * d + s * (o - 1) + 1, s) for t, s, d, o
                       in zip(tap, strides, dilations, out_shape))
        patch = x[(slice(None),) + window]
        out += patch * w[tap] if depthwise else patch @ w[tap]
    return out


def np_max_pool_2x2(x):
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def np_layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def np_gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


# ---------------------------------------------------------------------------
# The models
# ---------------------------------------------------------------------------

class Mlp(Model):
    name = "mlp"
    arguments = [
        ("x", (256, 784), 1.0),
        ("w1", (784, 512), 1 / math.sqrt(784)), ("b1", (512,), 0.1),
        ("w2", (512, 512), 1 / math.sqrt(512)), ("b2", (512,), 0.1),
        ("w3", (512, 10), 1 / math.sqrt(512)), ("b3", (10,), 0.1),
    ]

    def numpy(self, x, w1, b1, w2, b2, w3, b3):
        h = np_relu(x @ w1 + b1)
        h = np_relu(h @ w2 + b2)
        return np_softmax(h @ w3 + b3)

    def torch(self, torch):
        F = torch.nn.functional

        def run(x, w1, b1, w2, b2, w3, b3):
            h = F.relu(torch.addmm(b1, x, w1))
            h = F.relu(torch.addmm(b2, h, w2))
            return torch.softmax(torch.addmm(b3, h, w3), dim=1)
        return run

    def jax(self, jnp, lax):
        relu = lambda t: jnp.maximum(t, 0.0)

        def run(x, w1, b1, w2, b2, w3, b3):
            h = relu(x @ w1 + b1)
            h = relu(h @ w2 + b2)
            logits = h @ w3 + b3
            e = jnp.exp(logits - logits.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        return run


class Cnn(Model):
    name = "cnn"
    arguments = [
        ("x", (8, 32, 32, 3), 1.0),
        ("w1", (3, 3, 3, 32), 1 / math.sqrt(27)), ("b1", (32,), 0.1),
        ("w2", (3, 3, 32, 64), 1 / math.sqrt(288)), ("b2", (64,), 0.1),
        ("w3", (4096, 10), 1 / math.sqrt(4096)), ("b3", (10,), 0.1),
    ]

    def numpy(self, x, w1, b1, w2, b2, w3, b3):
        h = np_max_pool_2x2(np_relu(np_conv2d_nhwc_hwcf(x, w1, padding=1) + b1))
        h = np_max_pool_2x2(np_relu(np_conv2d_nhwc_hwcf(h, w2, padding=1) + b2))
        return np_softmax(h.reshape(8, 4096) @ w3 + b3)

    def torch(self, torch):
        F = torch.nn.functional

        def run(x, w1, b1, w2, b2, w3, b3):
            # NHWC data as PyTorch holds it: NCHW views in channels-last
            # memory, which its oneDNN convolutions take directly.
            h = x.permute(0, 3, 1, 2)
            h = F.max_pool2d(F.relu(F.conv2d(h, w1, b1, padding=1)), 2)
            h = F.max_pool2d(F.relu(F.conv2d(h, w2, b2, padding=1)), 2)
            h = h.permute(0, 2, 3, 1).reshape(8, 4096)
            return torch.softmax(torch.addmm(b3, h, w3), dim=1)

        def prepare(args):
            x, w1, b1, w2, b2, w3, b3 = args
            # HWCF weights to PyTorch's FCHW, in channels-last memory.
            fchw = lambda w: w.permute(3, 2, 0, 1).contiguous(
                memory_format=torch.channels_last)
            return [x, fchw(w1), b1, fchw(w2), b2, w3, b3]
        run.prepare = prepare
        return run

    def jax(self, jnp, lax):
        def block(h, w, b):
            h = jnp.maximum(jax_conv(lax, h, w, padding=1) + b, 0.0)
            return jax_pool(lax, h, lax.max, -jnp.inf, 2, 2)

        def run(x, w1, b1, w2, b2, w3, b3):
            h = block(block(x, w1, b1), w2, b2).reshape(8, 4096)
            logits = h @ w3 + b3
            e = jnp.exp(logits - logits.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        return run


class Transformer(Model):
    """A pre-norm encoder block: batch 4, 128 tokens, width 256, 4 heads."""
    name = "transformer"
    B, S, D, H, F = 4, 128, 256, 4, 1024
    arguments = [
        ("x", (4, 128, 256), 1.0),
        ("ln1_g", (256,), 1.0), ("ln1_b", (256,), 0.1),
        ("wq", (256, 256), 1 / 16), ("bq", (256,), 0.1),
        ("wk", (256, 256), 1 / 16), ("bk", (256,), 0.1),
        ("wv", (256, 256), 1 / 16), ("bv", (256,), 0.1),
        ("wo", (256, 256), 1 / 16), ("bo", (256,), 0.1),
        ("ln2_g", (256,), 1.0), ("ln2_b", (256,), 0.1),
        ("w1", (256, 1024), 1 / 16), ("b1", (1024,), 0.1),
        ("w2", (1024, 256), 1 / 32), ("b2", (256,), 0.1),
    ]

    def numpy(self, x, ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo,
              ln2_g, ln2_b, w1, b1, w2, b2):
        B, S, D, H = self.B, self.S, self.D, self.H
        heads = lambda t: t.reshape(B, S, H, D // H).transpose(0, 2, 1, 3)
        a = np_layer_norm(x, ln1_g, ln1_b)
        q, k, v = heads(a @ wq + bq), heads(a @ wk + bk), heads(a @ wv + bv)
        p = np_softmax(q @ k.transpose(0, 1, 3, 2) / math.sqrt(D // H))
        o = (p @ v).transpose(0, 2, 1, 3).reshape(B, S, D)
        x1 = x + o @ wo + bo
        h = np_gelu(np_layer_norm(x1, ln2_g, ln2_b) @ w1 + b1)
        return x1 + h @ w2 + b2

    def torch(self, torch):
        F = torch.nn.functional
        B, S, D, H = self.B, self.S, self.D, self.H

        def run(x, ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo,
                ln2_g, ln2_b, w1, b1, w2, b2):
            heads = lambda t: t.view(B, S, H, D // H).transpose(1, 2)
            a = F.layer_norm(x, (D,), ln1_g, ln1_b)
            q, k, v = heads(a @ wq + bq), heads(a @ wk + bk), heads(a @ wv + bv)
            p = torch.softmax(q @ k.transpose(2, 3) / math.sqrt(D // H), dim=-1)
            o = (p @ v).transpose(1, 2).reshape(B, S, D)
            x1 = x + o @ wo + bo
            h = F.gelu(F.layer_norm(x1, (D,), ln2_g, ln2_b) @ w1 + b1)
            return x1 + h @ w2 + b2
        return run

    def jax(self, jnp, lax):
        B, S, D, H = self.B, self.S, self.D, self.H

        def layer_norm(t, g, b):
            mean = t.mean(axis=-1, keepdims=True)
            var = ((t - mean) ** 2).mean(axis=-1, keepdims=True)
            return (t - mean) * lax.rsqrt(var + 1e-5) * g + b

        def softmax(t):
            e = jnp.exp(t - t.max(axis=-1, keepdims=True))
            return e / e.sum(axis=-1, keepdims=True)

        def run(x, ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo,
                ln2_g, ln2_b, w1, b1, w2, b2):
            heads = lambda t: t.reshape(B, S, H, D // H).transpose(0, 2, 1, 3)
            a = layer_norm(x, ln1_g, ln1_b)
            q, k, v = heads(a @ wq + bq), heads(a @ wk + bk), heads(a @ wv + bv)
            p = softmax(q @ k.transpose(0, 1, 3, 2) / math.sqrt(D // H))
            o = (p @ v).transpose(0, 2, 1, 3).reshape(B, S, D)
            x1 = x + o @ wo + bo
            u = layer_norm(x1, ln2_g, ln2_b) @ w1 + b1
            g = 0.5 * u * (1.0 + lax.erf(u / math.sqrt(2.0)))
            return x1 + g @ w2 + b2
        return run


# ---------------------------------------------------------------------------
# Single ops, one of each class the models are made of
# ---------------------------------------------------------------------------

def nhwc_to_torch(torch, x):
    """An NHWC array as PyTorch's NCHW view of channels-last memory."""
    return x.permute(0, 3, 1, 2)


def hwcf_to_torch(torch, w):
    """HWCF weights as PyTorch's FCHW, in channels-last memory."""
    return w.permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)


def jax_conv(lax, x, w, padding=0, stride=1, dilation=1, groups=1):
    """An NHWC convolution with HWIO (nx's HWCF) weights, in JAX."""
    return lax.conv_general_dilated(
        x, w, (stride, stride), ((padding, padding), (padding, padding)),
        rhs_dilation=(dilation, dilation), feature_group_count=groups,
        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def jax_pool(lax, x, op, init, window, stride):
    """An NHWC pooling of square windows without padding, in JAX."""
    return lax.reduce_window(x, init, op, (1, window, window, 1),
                             (1, stride, stride, 1), "VALID")


class Conv(Model):
    name = "conv"
    arguments = [("x", (1, 56, 56, 64), 1.0), ("w", (3, 3, 64, 64), 1 / 24)]

    def numpy(self, x, w):
        return np_relu(np_conv2d_nhwc_hwcf(x, w, padding=1))

    def torch(self, torch):
        F = torch.nn.functional

        def run(x, w):
            return F.relu(F.conv2d(nhwc_to_torch(torch, x), w, padding=1))
        run.prepare = lambda a: [a[0], hwcf_to_torch(torch, a[1])]
        run.to_nhwc = True
        return run

    def jax(self, jnp, lax):
        return lambda x, w: jnp.maximum(jax_conv(lax, x, w, padding=1), 0.0)


class ConvStrided(Model):
    name = "conv-strided"
    arguments = [("x", (1, 56, 56, 64), 1.0), ("w", (3, 3, 64, 128), 1 / 24)]

    def numpy(self, x, w):
        return np_conv2d_nhwc_hwcf(x, w, padding=1, stride=2)

    def torch(self, torch):
        F = torch.nn.functional

        def run(x, w):
            return F.conv2d(nhwc_to_torch(torch, x), w, padding=1, stride=2)
        run.prepare = lambda a: [a[0], hwcf_to_torch(torch, a[1])]
        run.to_nhwc = True
        return run

    def jax(self, jnp, lax):
        return lambda x, w: jax_conv(lax, x, w, padding=1, stride=2)


class DepthwiseConv(Model):
    name = "depthwise-conv"
    arguments = [("x", (1, 56, 56, 128), 1.0), ("w", (3, 3, 128), 1 / 3)]

    def numpy(self, x, w):
        return np_relu(np_depthwise_nhwc_hwc(x, w, padding=1))

    def torch(self, torch):
        F = torch.nn.functional

        def run(x, w):
            return F.relu(F.conv2d(nhwc_to_torch(torch, x), w, padding=1,
                                   groups=128))
        # HWC weights to PyTorch's (C, 1, H, W), in channels-last memory.
        run.prepare = lambda a: [a[0], a[1].permute(2, 0, 1).unsqueeze(1)
                                 .contiguous(memory_format=torch.channels_last)]
        run.to_nhwc = True
        return run

    def jax(self, jnp, lax):
        return lambda x, w: jnp.maximum(
            jax_conv(lax, x, w.reshape(3, 3, 1, 128), padding=1, groups=128),
            0.0)


class ConvNchw(Model):
    name = "conv-nchw"
    arguments = [("x", (1, 64, 56, 56), 1.0), ("w", (64, 64, 3, 3), 1 / 24)]

    def numpy(self, x, w):
        nhwc = np_conv2d_nhwc_hwcf(x.transpose(0, 2, 3, 1),
                                   w.transpose(2, 3, 1, 0), padding=1)
        return nhwc.transpose(0, 3, 1, 2)

    def torch(self, torch):
        F = torch.nn.functional
        return lambda x, w: F.conv2d(x, w, padding=1)

    def jax(self, jnp, lax):
        return lambda x, w: lax.conv_general_dilated(
            x, w, (1, 1), ((1, 1), (1, 1)),
            dimension_numbers=("NCHW", "OIHW", "NCHW"))


class ConvFhwc(Model):
    name = "conv-fhwc"
    arguments = [("x", (2, 28, 28, 32), 1.0), ("w", (64, 3, 3, 32), 1 / 17)]

    def numpy(self, x, w):
        return np_conv2d_nhwc_hwcf(x, w.transpose(1, 2, 3, 0), padding=1,
                                   stride=2)

    def torch(self, torch):
        F = torch.nn.functional

        def run(x, w):
            return F.conv2d(nhwc_to_torch(torch, x), w, padding=1, stride=2)
        # FHWC weights to PyTorch's FCHW, in channels-last memory.
        run.prepare = lambda a: [a[0], a[1].permute(0, 3, 1, 2).contiguous(
            memory_format=torch.channels_last)]
        run.to_nhwc = True
        return run

    def jax(self, jnp, lax):
        return lambda x, w: lax.conv_general_dilated(
            x, w, (2, 2), ((1, 1), (1, 1)),
            dimension_numbers=("NHWC", "OHWI", "NHWC"))


class DepthwiseConvStrided(Model):
    name = "depthwise-conv-strided"
    arguments = [("x", (1, 56, 56, 128), 1.0), ("w", (3, 3, 128), 1 / 3)]

    def numpy(self, x, w):
        return np_depthwise_nhwc_hwc(x, w, padding=1, stride=2)

    def torch(self, torch):
        F = torch.nn.functional

        def run(x, w):
            return F.conv2d(nhwc_to_torch(torch, x), w, padding=1, stride=2,
                            groups=128)
        run.prepare = lambda a: [a[0], a[1].permute(2, 0, 1).unsqueeze(1)
                                 .contiguous(memory_format=torch.channels_last)]
        run.to_nhwc = True
        return run

    def jax(self, jnp, lax):
        return lambda x, w: jax_conv(lax, x, w.reshape(3, 3, 1, 128),
                                     padding=1, stride=2, groups=128)


class ConvDilated(Model):
    name = "conv-dilated"
    arguments = [("x", (1, 28, 28, 32), 1.0), ("w", (3, 3, 32, 32), 1 / 17)]

    def numpy(self, x, w):
        return np_conv2d_nhwc_hwcf(x, w, padding=2, dilation=2)

    def torch(self, torch):
        F = torch.nn.functional

        def run(x, w):
            return F.conv2d(nhwc_to_torch(torch, x), w, padding=2, dilation=2)
        run.prepare = lambda a: [a[0], hwcf_to_torch(torch, a[1])]
        run.to_nhwc = True
        return run

    def jax(self, jnp, lax):
        return lambda x, w: jax_conv(lax, x, w, padding=2, dilation=2)


class ConvGrouped(Model):
    """A grouped 3x3 convolution, as in a ResNeXt block: 8 groups of 16
    channels in NHWGC (linalg.conv_2d_nhwgc_gfhwc), GFHWC weights."""
    name = "conv-grouped"
    arguments = [("x", (1, 56, 56, 8, 16), 1.0),
                 ("w", (8, 16, 3, 3, 16), 1 / 12)]

    def numpy(self, x, w):
        out = np.zeros((1, 54, 54, 8, 16))
        for ky in range(3):
            for kx in range(3):
                out += np.einsum("nhwgc,gfc->nhwgf",
                                 x[:, ky:ky + 54, kx:kx + 54], w[:, :, ky, kx])
        return out

    def torch(self, torch):
        F = torch.nn.functional

        def run(x, w):
            images = x.reshape(1, 56, 56, 128).permute(0, 3, 1, 2)
            out = F.conv2d(images, w, groups=8)
            return out.permute(0, 2, 3, 1).reshape(1, 54, 54, 8, 16)
        # GFHWC as PyTorch's (G*F)CHW, in channels-last memory.
        run.prepare = lambda a: [a[0], a[1].reshape(128, 3, 3, 16).permute(
            0, 3, 1, 2).contiguous(memory_format=torch.channels_last)]
        return run

    def jax(self, jnp, lax):
        def run(x, w):
            hwio = w.reshape(128, 3, 3, 16).transpose(1, 2, 3, 0)
            out = jax_conv(lax, x.reshape(1, 56, 56, 128), hwio, groups=8)
            return out.reshape(1, 54, 54, 8, 16)
        return run


class MaxPool(Model):
    name = "max-pool"
    arguments = [("x", (1, 112, 112, 64), 1.0)]

    def numpy(self, x):
        return np_max_pool_2x2(x)

    def torch(self, torch):
        F = torch.nn.functional

        def run(x):
            return F.max_pool2d(nhwc_to_torch(torch, x), 2)
        run.to_nhwc = True
        return run

    def jax(self, jnp, lax):
        return lambda x: jax_pool(lax, x, lax.max, -jnp.inf, 2, 2)


class AvgPool(Model):
    """3x3 windows of stride 2, no padding."""
    name = "avg-pool"
    arguments = [("x", (1, 112, 112, 64), 1.0)]

    def numpy(self, x):
        out = np.zeros((1, 55, 55, 64))
        for i in range(3):
            for j in range(3):
                out += x[:, i:i + 109:2, j:j + 109:2, :]
        return out / 9.0

    def torch(self, torch):
        F = torch.nn.functional

        def run(x):
            return F.avg_pool2d(nhwc_to_torch(torch, x), 3, 2)
        run.to_nhwc = True
        return run

    def jax(self, jnp, lax):
        return lambda x: jax_pool(lax, x, lax.add, 0.0, 3, 2) / 9.0


class BatchMatmul(Model):
    name = "batch-matmul"
    arguments = [("a", (16, 128, 64), 1.0), ("b", (16, 64, 128), 1 / 8)]

    def numpy(self, a, b):
        return a @ b

    def torch(self, torch):
        return lambda a, b: torch.bmm(a, b)

    def jax(self, jnp, lax):
        return lambda a, b: a @ b


class BatchMatmulTransposed(Model):
    name = "batch-matmul-transposed"
    arguments = [("q", (16, 128, 64), 1.0), ("k", (16, 128, 64), 1 / 8)]

    def numpy(self, q, k):
        return q @ k.transpose(0, 2, 1)

    def torch(self, torch):
        return lambda q, k: q @ k.transpose(1, 2)

    def jax(self, jnp, lax):
        return lambda q, k: q @ k.transpose(0, 2, 1)


class BatchMatmulTransposedA(Model):
    name = "batch-matmul-transposed-a"
    arguments = [("a", (16, 64, 128), 1.0), ("b", (16, 64, 128), 1 / 8)]

    def numpy(self, a, b):
        return a.transpose(0, 2, 1) @ b

    def torch(self, torch):
        return lambda a, b: a.transpose(1, 2) @ b

    def jax(self, jnp, lax):
        return lambda a, b: a.transpose(0, 2, 1) @ b


class MaskedAttention(Model):
    """Causal attention of 16 heads: softmax(mask(q k^T / 8)) v, with the
    scores of keys after their query set to -inf."""
    name = "masked-attention"
    arguments = [("q", (16, 128, 64), 1.0), ("k", (16, 128, 64), 1.0),
                 ("v", (16, 128, 64), 1.0)]

    def numpy(self, q, k, v):
        s = q @ k.transpose(0, 2, 1) / 8
        future = np.triu(np.ones((128, 128), dtype=bool), k=1)
        return np_softmax(np.where(future, -np.inf, s)) @ v

    def torch(self, torch):
        future = torch.triu(torch.ones(128, 128, dtype=torch.bool), diagonal=1)

        def run(q, k, v):
            s = (q @ k.transpose(1, 2) / 8).masked_fill(future, float("-inf"))
            return torch.softmax(s, dim=-1) @ v
        return run

    def jax(self, jnp, lax):
        future = jnp.triu(jnp.ones((128, 128), dtype=bool), k=1)

        def run(q, k, v):
            s = jnp.where(future, -jnp.inf, q @ k.transpose(0, 2, 1) / 8)
            e = jnp.exp(s - s.max(axis=-1, keepdims=True))
            return (e / e.sum(axis=-1, keepdims=True)) @ v
        return run


class Transpose(Model):
    name = "transpose"
    arguments = [("x", (2048, 2048), 1.0)]

    def numpy(self, x):
        return x.T

    def torch(self, torch):
        return lambda x: x.t().contiguous()

    def jax(self, jnp, lax):
        return lambda x: x.T


class ColumnSum(Model):
    name = "column-sum"
    arguments = [("x", (2048, 2048), 1.0)]

    def numpy(self, x):
        return x.sum(axis=0)

    def torch(self, torch):
        return lambda x: x.sum(0)

    def jax(self, jnp, lax):
        return lambda x: x.sum(axis=0)


class BatchSum(ColumnSum):
    """Column sums of few, wide rows: the sum over a small batch."""
    name = "batch-sum"
    arguments = [("x", (16, 524288), 1.0)]


class RowSum(Model):
    name = "row-sum"
    arguments = [("x", (2048, 2048), 1.0)]

    def numpy(self, x):
        return x.sum(axis=1)

    def torch(self, torch):
        return lambda x: x.sum(1)

    def jax(self, jnp, lax):
        return lambda x: x.sum(axis=1)


def np_bfloat16(x):
    """x (float32) rounded to the nearest bfloat16, ties to even, as f32."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32)


class MatmulI8(Model):
    """A product of i8 operands (truncated from f32), summed in i32."""
    name = "matmul-i8"
    arguments = [("a", (512, 512), 100.0), ("b", (512, 512), 100.0)]

    def numpy(self, a, b):
        return np.trunc(a) @ np.trunc(b)

    def torch(self, torch):
        return lambda a, b: torch.mm(a.to(torch.int8).to(torch.int32),
                                     b.to(torch.int8).to(torch.int32)).float()

    def jax(self, jnp, lax):
        return lambda a, b: jnp.matmul(
            a.astype(jnp.int8), b.astype(jnp.int8),
            preferred_element_type=jnp.int32).astype(jnp.float32)


class MatmulBf16(Model):
    """A product of bf16 operands (rounded from f32), summed in f32.
    PyTorch's bf16 product returns bf16, a relative 2^-9 of each element
    off: the tolerance is that."""
    name = "matmul-bf16"
    arguments = [("a", (512, 512), 1.0), ("b", (512, 512), 1.0)]
    tolerance = 2.0 ** -8

    def numpy(self, a, b):
        return (np_bfloat16(a).astype(np.float64) @
                np_bfloat16(b).astype(np.float64))

    def torch(self, torch):
        return lambda a, b: torch.mm(a.bfloat16(), b.bfloat16()).float()

    def jax(self, jnp, lax):
        return lambda a, b: jnp.matmul(
            a.astype(jnp.bfloat16), b.astype(jnp.bfloat16),
            preferred_element_type=jnp.float32)


class MatmulF16(Model):
    """A product of f16 operands summed in f32. PyTorch returns its f16
    product rounded to f16, a relative 2^-11 of each element off (the
    tolerance); PyTorch 1.13 has no f16 product on CPUs, and there a
    PyTorch user widens the operands first."""
    name = "matmul-f16"
    arguments = [("a", (512, 512), 1.0), ("b", (512, 512), 1.0)]
    tolerance = 2.0 ** -10

    def numpy(self, a, b):
        return (a.astype(np.float16).astype(np.float64) @
                b.astype(np.float16).astype(np.float64))

    def torch(self, torch):
        try:
            torch.mm(torch.ones(2, 2).half(), torch.ones(2, 2).half())
        except RuntimeError:
            return lambda a, b: torch.mm(a.half().float(), b.half().float())
        return lambda a, b: torch.mm(a.half(), b.half()).float()

    def jax(self, jnp, lax):
        return lambda a, b: jnp.matmul(
            a.astype(jnp.float16), b.astype(jnp.float16),
            preferred_element_type=jnp.float32)


class MiddleMax(Model):
    name = "middle-max"
    arguments = [("x", (64, 256, 256), 1.0)]

    def numpy(self, x):
        return x.max(axis=1)

    def torch(self, torch):
        return lambda x: x.amax(1)

    def jax(self, jnp, lax):
        return lambda x: x.max(axis=1)


class Conv1d(Model):
    """A 1-D convolution of four 1024-step sequences of 64 channels (NWC)
    with 64 filters 3 steps wide (WCF), as in an audio or text model."""
    name = "conv1d"
    arguments = [("x", (4, 1024, 64), 1.0), ("w", (3, 64, 64), 1 / 14)]

    def numpy(self, x, w):
        kw = w.shape[0]
        steps = x.shape[1] - kw + 1
        return sum(np.einsum("nwc,cf->nwf", x[:, k:k + steps, :], w[k])
                   for k in range(kw))

    def torch(self, torch):
        return lambda x, w: torch.nn.functional.conv1d(
            x.permute(0, 2, 1), w.permute(2, 1, 0)).permute(0, 2, 1)

    def jax(self, jnp, lax):
        return lambda x, w: lax.conv_general_dilated(
            x, w, (1,), "VALID", dimension_numbers=("NWC", "WIO", "NWC"))


class Conv3d(Model):
    """A 3-D convolution of a 16x32x32 volume of 16 channels (NDHWC) with
    32 filters 3x3x3 (DHWCF), as in a video or volumetric model."""
    name = "conv3d"
    arguments = [("x", (1, 16, 32, 32, 16), 1.0),
                 ("w", (3, 3, 3, 16, 32), 1 / 21)]
    strides = (1, 1, 1)
    dilations = (1, 1, 1)

    def numpy(self, x, w):
        return np_conv3d_ndhwc(x, w, self.strides, self.dilations)

    def torch(self, torch):
        def run(x, w):
            out = torch.nn.functional.conv3d(
                x.permute(0, 4, 1, 2, 3), w.permute(4, 3, 0, 1, 2),
                stride=self.strides, dilation=self.dilations)
            return out.permute(0, 2, 3, 4, 1)
        return run

    def jax(self, jnp, lax):
        return lambda x, w: lax.conv_general_dilated(
            x, w, self.strides, "VALID", rhs_dilation=self.dilations,
            dimension_numbers=("NDHWC", "DHWIO", "NDHWC"))


class Conv3dStrided(Conv3d):
    """A 3-D convolution of a batch of two, strided along the depth and the
    width and dilated along the height: its image planes are no one run of
    memory, so the batch of planes each kernel plane meets is a copy."""
    name = "conv3d-strided"
    arguments = [("x", (2, 9, 20, 20, 8), 1.0), ("w", (3, 3, 3, 8, 16), 1 / 15)]
    strides = (2, 1, 2)
    dilations = (1, 2, 1)


class DepthwiseConv3d(Model):
    """A depthwise 3-D convolution (NDHWC by DHWC) of 32 channels."""
    name = "depthwise-conv3d"
    arguments = [("x", (1, 8, 16, 16, 32), 1.0), ("w", (3, 3, 3, 32), 1 / 5)]

    def numpy(self, x, w):
        return np_conv3d_ndhwc(x, w)

    def torch(self, torch):
        def run(x, w):
            out = torch.nn.functional.conv3d(
                x.permute(0, 4, 1, 2, 3), w.permute(3, 0, 1, 2)[:, None],
                groups=x.shape[-1])
            return out.permute(0, 2, 3, 4, 1)
        return run

    def jax(self, jnp, lax):
        return lambda x, w: lax.conv_general_dilated(
            x, w[:, :, :, None, :], (1, 1, 1), "VALID",
            feature_group_count=x.shape[-1],
            dimension_numbers=("NDHWC", "DHWIO", "NDHWC"))


class Conv3dNcdhw(Model):
    """conv3d's convolution in PyTorch's layouts: an NCDHW volume by FCDHW
    filters, which nx transposes to NDHWC first."""
    name = "conv3d-ncdhw"
    arguments = [("x", (1, 16, 16, 32, 32), 1.0),
                 ("w", (32, 16, 3, 3, 3), 1 / 21)]

    def numpy(self, x, w):
        y = np_conv3d_ndhwc(x.transpose(0, 2, 3, 4, 1),
                            w.transpose(2, 3, 4, 1, 0))
        return y.transpose(0, 4, 1, 2, 3)

    def torch(self, torch):
        return lambda x, w: torch.nn.functional.conv3d(x, w)

    def jax(self, jnp, lax):
        return lambda x, w: lax.conv_general_dilated(
            x, w, (1, 1, 1), "VALID",
            dimension_numbers=("NCDHW", "OIDHW", "NCDHW"))


class DepthwiseConv3dNcdhw(Model):
    """depthwise-conv3d's convolution in PyTorch's layouts (NCDHW by CDHW),
    strided along the depth."""
    name = "depthwise-conv3d-ncdhw"
    arguments = [("x", (1, 32, 8, 16, 16), 1.0), ("w", (32, 3, 3, 3), 1 / 5)]
    strides = (2, 1, 1)

    def numpy(self, x, w):
        y = np_conv3d_ndhwc(x.transpose(0, 2, 3, 4, 1), w.transpose(1, 2, 3, 0),
                            self.strides)
        return y.transpose(0, 4, 1, 2, 3)

    def torch(self, torch):
        return lambda x, w: torch.nn.functional.conv3d(
            x, w[:, None], stride=self.strides, groups=x.shape[1])

    def jax(self, jnp, lax):
        return lambda x, w: lax.conv_general_dilated(
            x, w[:, None], self.strides, "VALID",
            feature_group_count=x.shape[1],
            dimension_numbers=("NCDHW", "OIDHW", "NCDHW"))


class Concat(Model):
    """Two 2048x1024 matrices side by side (tensor.concat): 16 MiB copied."""
    name = "concat"
    arguments = [("x", (2048, 1024), 1.0), ("y", (2048, 1024), 1.0)]
    tolerance = 0.0  # a copy: every element exact

    def numpy(self, x, y):
        return np.concatenate([x, y], axis=1)

    def torch(self, torch):
        return lambda x, y: torch.cat([x, y], 1)

    def jax(self, jnp, lax):
        return lambda x, y: jnp.concatenate([x, y], axis=1)


class Pad(Model):
    """A zero border of one pixel around a 1x112x112x64 NHWC image
    (tensor.pad), as before a 3x3 convolution a library does not pad."""
    name = "pad"
    arguments = [("x", (1, 112, 112, 64), 1.0)]
    tolerance = 0.0  # a copy: every element exact

    def numpy(self, x):
        return np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))

    def torch(self, torch):
        return lambda x: torch.nn.functional.pad(x, (0, 0, 1, 1, 1, 1))

    def jax(self, jnp, lax):
        return lambda x: jnp.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))


class Reverse(Model):
    """A 2048x2048 matrix with its columns in reverse order (tosa.reverse
    along the last axis): 16 MiB read and written in opposite orders."""
    name = "reverse"
    arguments = [("x", (2048, 2048), 1.0)]
    tolerance = 0.0  # a copy: every element exact

    def numpy(self, x):
        return x[:, ::-1]

    def torch(self, torch):
        return lambda x: torch.flip(x, [1])

    def jax(self, jnp, lax):
        return lambda x: jnp.flip(x, axis=1)


class FullSum(Model):
    """The sum of every element of a matrix (linalg.reduce over both
    dimensions), as a loss or a norm ends."""
    name = "full-sum"
    arguments = [("x", (2048, 2048), 1.0)]
    # One f32 running sum of 2^22 elements (--strict-reductions) is 1e-4 of
    # the result off on these inputs; the split sums are ten times closer.
    tolerance = 1e-3

    def numpy(self, x):
        return np.asarray(x.sum())

    def torch(self, torch):
        return lambda x: x.sum()

    def jax(self, jnp, lax):
        return lambda x: x.sum()


class Matvec(Model):
    """A matrix-vector product (linalg.matvec): a dense layer at batch 1,
    64 MiB of weights read once."""
    name = "matvec"
    arguments = [("a", (4096, 4096), 1 / 64), ("x", (4096,), 1.0)]

    def numpy(self, a, x):
        return a @ x

    def torch(self, torch):
        return lambda a, x: torch.mv(a, x)

    def jax(self, jnp, lax):
        return lambda a, x: a @ x


class Softmax(Model):
    """linalg.softmax, the named op, over the rows of a matrix."""
    name = "softmax"
    arguments = [("x", (2048, 1024), 4.0)]

    def numpy(self, x):
        return np_softmax(x.astype(np.float64), axis=1)

    def torch(self, torch):
        return lambda x: torch.softmax(x, 1)

    def jax(self, jnp, lax):
        def run(x):
            e = jnp.exp(x - x.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        return run


class Argmax(Model):
    """The position of each row's maximum in a 2048x2048 matrix, as a
    classifier's or a greedy decoder's last step: a linalg.generic of two
    results with linalg.index."""
    name = "argmax"
    arguments = [("x", (2048, 2048), 1.0)]
    tolerance = 0.0  # positions: every one exact

    def numpy(self, x):
        return np.argmax(x, axis=1).astype(np.int32)

    def torch(self, torch):
        return lambda x: torch.argmax(x, 1).int()

    def jax(self, jnp, lax):
        return lambda x: jnp.argmax(x, axis=1).astype(jnp.int32)


class Dot(Model):
    """The dot product of two vectors of 2^22 f32 (linalg.dot): 32 MiB read
    for one number."""
    name = "dot"
    arguments = [("a", (4194304,), 1.0), ("b", (4194304,), 1.0)]

    def numpy(self, a, b):
        return np.dot(a, b)

    def torch(self, torch):
        return lambda a, b: torch.dot(a, b)

    def jax(self, jnp, lax):
        return lambda a, b: jnp.dot(a, b)


MODELS = {m.name: m for m in (Mlp(), Cnn(), Transformer())}
OPS = {m.name: m for m in (
    Conv(), ConvStrided(), ConvDilated(), ConvNchw(), ConvFhwc(), ConvGrouped(),
    DepthwiseConv(),
    DepthwiseConvStrided(), MaxPool(), AvgPool(),
    BatchMatmul(), BatchMatmulTransposed(), BatchMatmulTransposedA(),
    MaskedAttention(), Transpose(), ColumnSum(), BatchSum(),
    RowSum(), MiddleMax(), MatmulI8(), MatmulBf16(), MatmulF16(),
    Conv1d(), Conv3d(), Conv3dStrided(), DepthwiseConv3d(), Conv3dNcdhw(),
    DepthwiseConv3dNcdhw(), Concat(), Pad(), Reverse(),
    FullSum(), Matvec(), Softmax(), Argmax(), Dot())}
MODELS.update(OPS)


def model(name):
    if name not in MODELS:
        sys.exit(f"models.py: unknown model '{name}' (known: {', '.join(MODELS)})")
    return MODELS[name]


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------

def cmd_inputs(args):
    os.makedirs(args.dir, exist_ok=True)
    for k, value in enumerate(model(args.model).inputs()):
        np.save(os.path.join(args.dir, f"arg{k}.npy"), value)


def compare(what, actual, expected, tolerance=TOLERANCE):
    scale = max(1.0, float(np.abs(expected).max()))
    error = float(np.abs(actual.astype(np.float64) - expected).max()) / scale
    print(f"{what}: max error {error:.3g} (relative to {scale:.3g}), "
          f"tolerance {tolerance:g}")
    return error <= tolerance


def cmd_check(args):
    m = model(args.model)
    inputs = m.inputs()
    actual = np.load(args.output)
    expected = m.numpy(*[a.astype(np.float64) for a in inputs])
    if actual.shape != expected.shape:
        sys.exit(f"models.py: {m.name}: output shape {actual.shape}, "
                 f"expected {expected.shape}")
    ok = compare(f"{m.name}: nx vs NumPy (float64)", actual, expected,
                 m.tolerance)
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        run = m.torch(torch)
        targs = [torch.from_numpy(a) for a in inputs]
        targs = getattr(run, "prepare", lambda a: a)(targs)
        with torch.no_grad():
            peer = run(*targs)
            if getattr(run, "to_nhwc", False):
                peer = peer.permute(0, 2, 3, 1)
            peer = peer.contiguous().numpy().astype(np.float64)
        # NumPy in float64 is the reference; PyTorch is a second opinion
        # only where it meets the reference itself. On a CPU without
        # AVX-512, PyTorch 1.13 sums a bf16 product in bf16 and misses it
        # by 6%.
        if compare(f"{m.name}: PyTorch vs NumPy (float64)", peer, expected,
                   m.tolerance):
            ok = compare(f"{m.name}: nx vs PyTorch (float32)", actual, peer,
                         m.tolerance) and ok
        else:
            print(f"{m.name}: PyTorch misses NumPy's result on this CPU; "
                  "nx is compared with NumPy alone")
    if not ok:
        sys.exit(1)


def cmd_run(args):
    m = model(args.model)
    cmd_inputs(args)
    output = os.path.join(args.dir, "out.npy")
    command = [args.nx_runner, os.path.join(HERE, f"{m.name}.mlir"),
               f"--entry={m.name.replace('-', '_')}", f"--output={output}",
               "--quiet"]
    command += [f"--input=@{os.path.join(args.dir, f'arg{k}.npy')}"
                for k in range(len(m.arguments))]
    command += args.flags
    print(" ".join(command), flush=True)
    if subprocess.run(command).returncode != 0:
        sys.exit(f"models.py: nx-runner failed on {m.name}")
    args.output = output
    cmd_check(args)


def cmd_time(args):
    import torch
    torch.set_num_threads(args.threads or os.cpu_count())
    benchmarks = []
    for name in args.models or list(MODELS):
        m = model(name)
        run = m.torch(torch)
        # PyTorch's own tensors, as a PyTorch program holds them: NumPy's
        # large arrays start 16 bytes past a page (every 64-byte load then
        # straddles two cache lines) and ask for huge pages; torch's
        # allocator gives 64-byte aligned memory, as nx-bench-models gives nx.
        targs = [torch.from_numpy(a) for a in m.inputs()]
        if not args.numpy_memory:
            targs = [t.clone() for t in targs]
        targs = getattr(run, "prepare", lambda a: a)(targs)
        with torch.no_grad():
            for _ in range(3):
                run(*targs)
            samples = []
            for _ in range(args.repetitions):
                iterations, start = 0, time.perf_counter()
                while True:
                    run(*targs)
                    iterations += 1
                    elapsed = time.perf_counter() - start
                    if elapsed >= args.min_time:
                        break
                samples.append(elapsed / iterations)
        best = min(samples)
        benchmarks.append({
            "name": f"PyTorch/{name}/threads:{args.threads}",
            "run_type": "iteration", "iterations": iterations,
            "real_time": best * 1e3, "cpu_time": best * 1e3,
            "time_unit": "ms"})
    json.dump({"context": {"torch": torch.__version__,
                           "threads": torch.get_num_threads()},
               "benchmarks": benchmarks}, sys.stdout, indent=1)
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("inputs")
    p.add_argument("model")
    p.add_argument("dir")
    p.set_defaults(fn=cmd_inputs)
    p = sub.add_parser("check")
    p.add_argument("model")
    p.add_argument("output")
    p.set_defaults(fn=cmd_check)
    p = sub.add_parser("run")
    p.add_argument("model")
    p.add_argument("--nx-runner", required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--flag", dest="flags", action="append", default=[],
                   help="an nx-runner flag (repeatable): --flag=--blas=false")
    p.set_defaults(fn=cmd_run)
    p = sub.add_parser("time")
    p.add_argument("--threads", type=int, default=1,
                   help="PyTorch's intra-op threads (0: one per core)")
    p.add_argument("--min-time", type=float, default=0.5)
    p.add_argument("--repetitions", type=int, default=3)
    p.add_argument("--numpy-memory", action="store_true",
                   help="time PyTorch on tensors sharing NumPy's arrays "
                        "instead of on copies in PyTorch's own memory")
    p.add_argument("models", nargs="*")
    p.set_defaults(fn=cmd_time)
    args = parser.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
