#!/usr/bin/env python3
"""Numerical check of the dwc CPU reference lowering against a loop oracle.

For every configuration of a family this script
  * draws seeded random inputs (uniform in [-1, 1], never zero), rounded to
    the element type,
  * writes one MLIR module whose @main calls each dwc op on those inputs
    (dense hex constants, so the values are bit-exact) and prints the result
    bits with printMemrefI32 (results are extended to f32 and bitcast, so
    nothing is lost in printing),
  * lowers it with `dwc-opt --dwc-to-llvm-cpu` and runs it with mlir-runner,
  * recomputes every result with plain nested loops in float64 (the oracle,
    written from the op descriptions in DwcOps.td, independent of the
    lowering) and compares:
      relative error ||out - ref|| / ||ref|| <= 1e-5 (f32), 2e-3 (f16),
      1e-2 (bf16), 1e-12 (f64); max pooling and im2win must match exactly.
f64 results are printed as i64 bits (printMemrefI64), the others as f32
bits. `--gpu-direct-emulate` lowers with convert-dwc-to-gpu instead and runs
the direct GPU kernels serially on the host (family f64: the f64 kernels).
It prints one `PASS <name>` / `FAIL <name> ...` line per configuration and
exits non-zero when any configuration fails.

Plain Python only (no numpy), so it runs wherever lit runs.
"""

import argparse
import math
import random
import re
import struct
import subprocess
import sys
import tempfile
import os

TOL = {"f32": 1e-5, "f16": 2e-3, "bf16": 1e-2, "f64": 1e-12}

# ----------------------------------------------------------------------------
# Element types: rounding and hex encoding.
# ----------------------------------------------------------------------------


def f32_bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def bits_f32(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def round_to(v, ty):
    """Rounds a Python float to the element type (nearest even)."""
    if ty == "f64":
        return v
    if ty == "f32":
        return struct.unpack("<f", struct.pack("<f", v))[0]
    if ty == "f16":
        return struct.unpack("<e", struct.pack("<e", v))[0]
    if ty == "bf16":
        b = f32_bits(round_to(v, "f32"))
        b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
        return bits_f32(b << 16)
    raise ValueError(ty)


def encode(v, ty):
    if ty == "f64":
        return struct.pack("<d", v)
    if ty == "f32":
        return struct.pack("<f", v)
    if ty == "f16":
        return struct.pack("<e", v)
    if ty == "bf16":
        return struct.pack("<H", f32_bits(v) >> 16)
    raise ValueError(ty)


class Tensor:
    """A dense row-major tensor of Python floats."""

    def __init__(self, shape, data=None):
        self.shape = list(shape)
        n = 1
        for s in shape:
            n *= s
        self.data = data if data is not None else [0.0] * n
        self.strides = []
        acc = 1
        for s in reversed(shape):
            self.strides.insert(0, acc)
            acc *= s

    def idx(self, *i):
        return sum(a * b for a, b in zip(i, self.strides))

    def get(self, *i):
        return self.data[self.idx(*i)]

    def set(self, v, *i):
        self.data[self.idx(*i)] = v


def random_tensor(rng, shape, ty, lo=-1.0, hi=1.0):
    t = Tensor(shape)
    for k in range(len(t.data)):
        v = 0.0
        while abs(v) < 1e-3:
            v = rng.uniform(lo, hi)
        t.data[k] = round_to(v, ty)
    return t


def mlir_type(shape, ty):
    return "tensor<" + "x".join(str(s) for s in shape) + "x" + ty + ">"


def mlir_const(t, ty):
    hexstr = "".join(encode(v, ty).hex().upper() for v in t.data)
    return 'arith.constant dense<"0x%s"> : %s' % (hexstr, mlir_type(t.shape, ty))


# ----------------------------------------------------------------------------
# The oracle: plain loops in float64, straight from the op descriptions.
# ----------------------------------------------------------------------------


def conv_out(i, f, s, d, p0, p1):
    return (i + p0 + p1 - d * (f - 1) - 1) // s + 1


def pool_out(i, k, s, p0, p1, ceil):
    span = i + p0 + p1 - k
    out = ((span + s - 1) // s if ceil else span // s) + 1
    if ceil and (out - 1) * s >= i + p0:
        out -= 1
    return out


def xpad(x, n, h, w, c, pt, pl):
    """Zero-padded input access."""
    h -= pt
    w -= pl
    if 0 <= h < x.shape[1] and 0 <= w < x.shape[2]:
        return x.get(n, h, w, c)
    return 0.0


def ref_depthwise(x, f, bias, st, dl, pad, M=1):
    """With channel multiplier M, output channel c reads input channel
    c // M (c = ci*M + m) with filter channel c."""
    N, IH, IW, _ = x.shape
    FH, FW, C = f.shape
    OH = conv_out(IH, FH, st[0], dl[0], pad[0], pad[1])
    OW = conv_out(IW, FW, st[1], dl[1], pad[2], pad[3])
    y = Tensor([N, OH, OW, C])
    for n in range(N):
        for oh in range(OH):
            for ow in range(OW):
                for c in range(C):
                    s = bias.get(c) if bias else 0.0
                    for fh in range(FH):
                        for fw in range(FW):
                            s += xpad(x, n, oh * st[0] + fh * dl[0],
                                      ow * st[1] + fw * dl[1], c // M, pad[0],
                                      pad[2]) * f.get(fh, fw, c)
                    y.set(s, n, oh, ow, c)
    return y


def activate(kind, v):
    """The fused activations of DwcOps.td, in float64."""
    if kind is None:
        return v
    relu6 = lambda t: min(max(t, 0.0), 6.0)
    sigmoid = lambda t: 1.0 / (1.0 + math.exp(-t))
    return {
        "relu": lambda t: max(t, 0.0),
        "relu6": relu6,
        "silu": lambda t: t * sigmoid(t),
        "sigmoid": sigmoid,
        "hardswish": lambda t: t * relu6(t + 3.0) / 6.0,
        "hardsigmoid": lambda t: relu6(t + 3.0) / 6.0,
        "gelu": lambda t: 0.5 * t * (1.0 + math.erf(t / math.sqrt(2.0))),
        "gelu_tanh": lambda t: 0.5 * t * (1.0 + math.tanh(
            math.sqrt(2.0 / math.pi) * (t + 0.044715 * t ** 3))),
    }[kind](v)


def ref_fused_depthwise(x, f, bias, in_bias, act, in_act, st, dl, pad, M=1):
    """depthwise_conv2d with its fused prologue (input_activation(x +
    input_bias), zero padding of the activated input) and epilogue."""
    N, H, W, C = x.shape
    xa = Tensor([N, H, W, C])
    for n in range(N):
        for h in range(H):
            for w in range(W):
                for c in range(C):
                    v = x.get(n, h, w, c) + (in_bias.get(c) if in_bias else 0.0)
                    xa.set(activate(in_act, v), n, h, w, c)
    y = ref_depthwise(xa, f, bias, st, dl, pad, M)
    y.data = [activate(act, v) for v in y.data]
    return y


def ref_bwd_data(dy, f, in_hw, st, dl, pad, M=1):
    N, OH, OW, C = dy.shape
    FH, FW, _ = f.shape
    IH, IW = in_hw
    dx = Tensor([N, IH, IW, C // M])
    # Literal reading of the definition: scatter every (oh, ow, fh, fw).
    for n in range(N):
        for oh in range(OH):
            for ow in range(OW):
                for fh in range(FH):
                    for fw in range(FW):
                        ih = oh * st[0] + fh * dl[0] - pad[0]
                        iw = ow * st[1] + fw * dl[1] - pad[2]
                        if 0 <= ih < IH and 0 <= iw < IW:
                            for c in range(C):
                                k = dx.idx(n, ih, iw, c // M)
                                dx.data[k] += dy.get(n, oh, ow, c) * f.get(fh, fw, c)
    return dx


def ref_bwd_filter(x, dy, fhw, st, dl, pad, M=1):
    N, IH, IW, _ = x.shape
    _, OH, OW, C = dy.shape
    FH, FW = fhw
    dw = Tensor([FH, FW, C])
    for fh in range(FH):
        for fw in range(FW):
            for c in range(C):
                s = 0.0
                for n in range(N):
                    for oh in range(OH):
                        for ow in range(OW):
                            s += xpad(x, n, oh * st[0] + fh * dl[0],
                                      ow * st[1] + fw * dl[1], c // M, pad[0],
                                      pad[2]) * dy.get(n, oh, ow, c)
                dw.set(s, fh, fw, c)
    return dw


def ref_pool(x, kind, win, st, pad, ceil, cip):
    N, IH, IW, C = x.shape
    OH = pool_out(IH, win[0], st[0], pad[0], pad[1], ceil)
    OW = pool_out(IW, win[1], st[1], pad[2], pad[3], ceil)
    y = Tensor([N, OH, OW, C])
    for n in range(N):
        for oh in range(OH):
            for ow in range(OW):
                h0 = oh * st[0] - pad[0]
                w0 = ow * st[1] - pad[2]
                hs = [h for h in range(h0, h0 + win[0]) if 0 <= h < IH]
                ws = [w for w in range(w0, w0 + win[1]) if 0 <= w < IW]
                if cip:
                    cnt = (len([h for h in range(h0, h0 + win[0]) if -pad[0] <= h < IH + pad[1]]) *
                           len([w for w in range(w0, w0 + win[1]) if -pad[2] <= w < IW + pad[3]]))
                else:
                    cnt = len(hs) * len(ws)
                for c in range(C):
                    vals = [x.get(n, h, w, c) for h in hs for w in ws]
                    if kind == "max":
                        y.set(max(vals), n, oh, ow, c)
                    else:
                        y.set(sum(vals) / cnt, n, oh, ow, c)
    return y


def ref_pool_bwd(x, dy, kind, win, st, pad, ceil, cip):
    """Literal scatter: each dY element flows to its window's first maximum
    (row-major over the taps inside the input) or, divided by the forward
    divisor, to every tap inside the input; overlapping windows add."""
    N, IH, IW, C = x.shape
    _, OH, OW, _ = dy.shape
    dx = Tensor([N, IH, IW, C])
    for n in range(N):
        for oh in range(OH):
            for ow in range(OW):
                h0 = oh * st[0] - pad[0]
                w0 = ow * st[1] - pad[2]
                taps = [(h, w) for h in range(h0, h0 + win[0]) if 0 <= h < IH
                        for w in range(w0, w0 + win[1]) if 0 <= w < IW]
                if cip:
                    cnt = (len([h for h in range(h0, h0 + win[0]) if -pad[0] <= h < IH + pad[1]]) *
                           len([w for w in range(w0, w0 + win[1]) if -pad[2] <= w < IW + pad[3]]))
                else:
                    cnt = len(taps)
                for c in range(C):
                    g = dy.get(n, oh, ow, c)
                    if kind == "max":
                        best = None
                        for (h, w) in taps:
                            if best is None or x.get(n, h, w, c) > x.get(n, best[0], best[1], c):
                                best = (h, w)
                        k = dx.idx(n, best[0], best[1], c)
                        dx.data[k] += g
                    else:
                        for (h, w) in taps:
                            dx.data[dx.idx(n, h, w, c)] += g / cnt
    return dx


def ref_gap(x):
    N, H, W, C = x.shape
    y = Tensor([N, 1, 1, C])
    for n in range(N):
        for c in range(C):
            s = 0.0
            for h in range(H):
                for w in range(W):
                    s += x.get(n, h, w, c)
            y.set(s / (H * W), n, 0, 0, c)
    return y


def ref_im2win(x, win, st, dl, pad):
    N, IH, IW, C = x.shape
    OH = conv_out(IH, win[0], st[0], dl[0], pad[0], pad[1])
    IWp = IW + pad[2] + pad[3]
    r = Tensor([N, OH, IWp, win[0], C])
    for n in range(N):
        for oh in range(OH):
            for w in range(IWp):
                for fh in range(win[0]):
                    for c in range(C):
                        r.set(xpad(x, n, oh * st[0] + fh * dl[0], w, c, pad[0],
                                   pad[2]), n, oh, w, fh, c)
    return r


def ref_conv2d(x, f, bias, st, dl, pad):
    N, IH, IW, C = x.shape
    FH, FW, _, OC = f.shape
    OH = conv_out(IH, FH, st[0], dl[0], pad[0], pad[1])
    OW = conv_out(IW, FW, st[1], dl[1], pad[2], pad[3])
    y = Tensor([N, OH, OW, OC])
    for n in range(N):
        for oh in range(OH):
            for ow in range(OW):
                for oc in range(OC):
                    s = bias.get(oc) if bias else 0.0
                    for fh in range(FH):
                        for fw in range(FW):
                            for c in range(C):
                                s += xpad(x, n, oh * st[0] + fh * dl[0],
                                          ow * st[1] + fw * dl[1], c, pad[0],
                                          pad[2]) * f.get(fh, fw, c, oc)
                    y.set(s, n, oh, ow, oc)
    return y


# ----------------------------------------------------------------------------
# Configurations.
# ----------------------------------------------------------------------------


def a(v):
    return "[" + ", ".join(str(x) for x in v) + "]"


class Case:
    """One op application: its MLIR text (operands of type `ty`), the oracle
    result (of type `out_ty`) and how to compare."""

    def __init__(self, name, ty, body, consts, out_shape, out_ty, ref,
                 exact=False):
        self.name, self.ty, self.body, self.consts = name, ty, body, consts
        self.out_shape, self.out_ty, self.ref, self.exact = out_shape, out_ty, ref, exact


def dw_case(rng, name, ty, N, H, W, C, FH, FW, st=(1, 1), dl=(1, 1),
            pad=(0, 0, 0, 0), bias=False, acc=None):
    x = random_tensor(rng, [N, H, W, C], ty)
    f = random_tensor(rng, [FH, FW, C], ty)
    b = random_tensor(rng, [C], ty) if bias else None
    y = ref_depthwise(x, f, b, st, dl, pad)
    consts = [("x", x), ("w", f)] + ([("b", b)] if bias else [])
    ot = mlir_type(y.shape, ty)
    body = ("dwc.depthwise_conv2d ins(%%x, %%w : %s, %s)%s outs(%%init : %s) "
            "strides = %s dilations = %s padding = %s%s -> %s" %
            (mlir_type(x.shape, ty), mlir_type(f.shape, ty),
             (" bias(%%b : %s)" % mlir_type([C], ty)) if bias else "", ot,
             a(st), a(dl), a(pad), (" acc = %s" % acc) if acc else "", ot))
    return Case(name, ty, body, consts, y.shape, ty, y)


def fused_case(rng, name, ty, N, H, W, C, FH, FW, st=(1, 1), pad=(0, 0, 0, 0),
               bias=True, in_bias=True, act="relu6", in_act="relu6"):
    """A depthwise_conv2d with a fused prologue and/or epilogue."""
    x = random_tensor(rng, [N, H, W, C], ty, -2.0, 2.0)
    f = random_tensor(rng, [FH, FW, C], ty)
    b = random_tensor(rng, [C], ty) if bias else None
    ib = random_tensor(rng, [C], ty) if in_bias else None
    y = ref_fused_depthwise(x, f, b, ib, act, in_act, st, (1, 1), pad)
    consts = [("x", x), ("w", f)] + ([("b", b)] if bias else []) + \
        ([("ib", ib)] if in_bias else [])
    ot, ct = mlir_type(y.shape, ty), mlir_type([C], ty)
    body = ("dwc.depthwise_conv2d ins(%%x, %%w : %s, %s)%s%s outs(%%init : %s) "
            "strides = %s dilations = [1, 1] padding = %s%s%s -> %s" %
            (mlir_type(x.shape, ty), mlir_type(f.shape, ty),
             (" bias(%%b : %s)" % ct) if bias else "",
             (" input_bias(%%ib : %s)" % ct) if in_bias else "", ot,
             a(st), a(pad), (" activation = %s" % act) if act else "",
             (" input_activation = %s" % in_act) if in_act else "", ot))
    return Case(name, ty, body, consts, y.shape, ty, y)


def fused_cases(rng, prefix, C=8):
    """Fused depthwise ops over the activations, element types, strides and
    edges (row and width tails, asymmetric padding, prologue or epilogue
    alone)."""
    acts = ["relu", "relu6", "silu", "sigmoid", "hardswish", "hardsigmoid",
            "gelu", "gelu_tanh"]
    cases = []
    for i, act in enumerate(acts):
        ty = ("f32", "f16", "bf16")[i % 3]
        in_act = acts[(i + 3) % len(acts)]
        cases.append(fused_case(rng, "%s_%s_%s" % (prefix, act, ty), ty, 2, 7, 9, C,
                                3, 3, pad=(1, 1, 1, 1), act=act, in_act=in_act))
    return cases + [
        fused_case(rng, prefix + "_5x5_s2_asym", "f32", 1, 9, 11, C, 5, 5, st=(2, 2),
                   pad=(2, 1, 2, 2), act="silu", in_act="silu"),
        fused_case(rng, prefix + "_3x3_s2_f16", "f16", 2, 8, 7, C, 3, 3, st=(2, 2),
                   pad=(0, 1, 0, 1)),
        fused_case(rng, prefix + "_prologue_only", "f32", 1, 6, 5, C, 3, 3,
                   pad=(1, 1, 1, 1), bias=False, act=None),
        fused_case(rng, prefix + "_epilogue_only", "bf16", 1, 6, 5, C, 3, 3,
                   pad=(1, 1, 1, 1), in_bias=False, in_act=None, act="gelu"),
        fused_case(rng, prefix + "_act_no_in_bias", "f32", 1, 5, 6, C, 3, 3,
                   pad=(1, 1, 1, 1), in_bias=False, act="relu"),
        fused_case(rng, prefix + "_7x7_f16", "f16", 1, 9, 10, C, 7, 7,
                   pad=(3, 3, 3, 3), act="gelu_tanh", in_act="hardswish"),
    ]


def mult_case(rng, name, ty, N, H, W, C, M, FH, FW, st=(1, 1), dl=(1, 1),
              pad=(0, 0, 0, 0), bias=False, in_bias=False, act=None,
              in_act=None):
    """A depthwise_conv2d with channel_multiplier M (filter, bias and output
    of C*M channels, input_bias of C), optionally fused."""
    x = random_tensor(rng, [N, H, W, C], ty, -2.0, 2.0)
    f = random_tensor(rng, [FH, FW, C * M], ty)
    b = random_tensor(rng, [C * M], ty) if bias else None
    ib = random_tensor(rng, [C], ty) if in_bias else None
    y = ref_fused_depthwise(x, f, b, ib, act, in_act, st, dl, pad, M)
    consts = [("x", x), ("w", f)] + ([("b", b)] if bias else []) + \
        ([("ib", ib)] if in_bias else [])
    ot = mlir_type(y.shape, ty)
    body = ("dwc.depthwise_conv2d ins(%%x, %%w : %s, %s)%s%s outs(%%init : %s) "
            "strides = %s dilations = %s padding = %s channel_multiplier = %d%s%s -> %s" %
            (mlir_type(x.shape, ty), mlir_type(f.shape, ty),
             (" bias(%%b : %s)" % mlir_type([C * M], ty)) if bias else "",
             (" input_bias(%%ib : %s)" % mlir_type([C], ty)) if in_bias else "",
             ot, a(st), a(dl), a(pad), M,
             (" activation = %s" % act) if act else "",
             (" input_activation = %s" % in_act) if in_act else "", ot))
    return Case(name, ty, body, consts, y.shape, ty, y)


def mult_bwd_data_case(rng, name, ty, N, H, W, C, M, FH, FW, st=(1, 1),
                       dl=(1, 1), pad=(0, 0, 0, 0)):
    OH = conv_out(H, FH, st[0], dl[0], pad[0], pad[1])
    OW = conv_out(W, FW, st[1], dl[1], pad[2], pad[3])
    dy = random_tensor(rng, [N, OH, OW, C * M], ty)
    f = random_tensor(rng, [FH, FW, C * M], ty)
    dx = ref_bwd_data(dy, f, (H, W), st, dl, pad, M)
    ot = mlir_type(dx.shape, ty)
    body = ("dwc.depthwise_conv2d_backward_data ins(%%dy, %%w : %s, %s) "
            "outs(%%init : %s) strides = %s dilations = %s padding = %s "
            "channel_multiplier = %d -> %s" %
            (mlir_type(dy.shape, ty), mlir_type(f.shape, ty), ot, a(st), a(dl),
             a(pad), M, ot))
    return Case(name, ty, body, [("dy", dy), ("w", f)], dx.shape, ty, dx)


def mult_bwd_filter_case(rng, name, ty, out_ty, N, H, W, C, M, FH, FW,
                         st=(1, 1), dl=(1, 1), pad=(0, 0, 0, 0)):
    OH = conv_out(H, FH, st[0], dl[0], pad[0], pad[1])
    OW = conv_out(W, FW, st[1], dl[1], pad[2], pad[3])
    x = random_tensor(rng, [N, H, W, C], ty)
    dy = random_tensor(rng, [N, OH, OW, C * M], ty)
    dw = ref_bwd_filter(x, dy, (FH, FW), st, dl, pad, M)
    ot = mlir_type(dw.shape, out_ty)
    body = ("dwc.depthwise_conv2d_backward_filter ins(%%x, %%dy : %s, %s) "
            "outs(%%init : %s) strides = %s dilations = %s padding = %s "
            "channel_multiplier = %d -> %s" %
            (mlir_type(x.shape, ty), mlir_type(dy.shape, ty), ot, a(st), a(dl),
             a(pad), M, ot))
    return Case(name, ty, body, [("x", x), ("dy", dy)], dw.shape, out_ty, dw)


def multiplier_forward_cases(rng):
    """channel_multiplier M = 2, 3, 4 on C not a multiple of 8, strides 1
    and 2, padding (asymmetric too), dilation, f32/f16/bf16, with and
    without the bias and the fused prologue / epilogue."""
    return [
        mult_case(rng, "mult2_3x3_c5_bias", "f32", 1, 6, 7, 5, 2, 3, 3, pad=(1, 1, 1, 1), bias=True),
        mult_case(rng, "mult3_3x3_s2_asym", "f32", 2, 9, 8, 3, 3, 3, 3, st=(2, 2), pad=(1, 0, 2, 1)),
        mult_case(rng, "mult4_5x5_s2_f16_bias", "f16", 1, 9, 9, 6, 4, 5, 5, st=(2, 2), pad=(2, 2, 2, 2), bias=True),
        mult_case(rng, "mult2_7x7_s2_c12", "f32", 1, 11, 10, 12, 2, 7, 7, st=(2, 2), pad=(3, 3, 3, 3), bias=True),
        mult_case(rng, "mult2_1x1_f16", "f16", 2, 4, 5, 7, 2, 1, 1),
        mult_case(rng, "mult3_d2_bf16", "bf16", 1, 9, 9, 5, 3, 3, 3, dl=(2, 2), pad=(2, 2, 2, 2), bias=True),
        mult_case(rng, "mult2_c8_vec_f32", "f32", 1, 6, 6, 8, 2, 3, 3, pad=(1, 1, 1, 1), bias=True),
        mult_case(rng, "mult2_fused_f32", "f32", 2, 7, 9, 5, 2, 3, 3, pad=(1, 1, 1, 1), bias=True,
                  in_bias=True, act="silu", in_act="relu6"),
        mult_case(rng, "mult3_fused_s2_f16", "f16", 1, 8, 7, 3, 3, 3, 3, st=(2, 2), pad=(0, 1, 0, 1),
                  in_bias=True, act="gelu", in_act="hardswish"),
        mult_case(rng, "mult4_epilogue_bf16", "bf16", 1, 6, 5, 3, 4, 3, 3, pad=(1, 1, 1, 1), bias=True,
                  act="relu6"),
    ]


def multiplier_backward_cases(rng):
    """Backward data and backward filter of channel_multiplier M = 2, 3, 4."""
    return [
        mult_bwd_data_case(rng, "mult2_bwd_data_s1", "f32", 2, 6, 7, 5, 2, 3, 3, pad=(1, 1, 1, 1)),
        mult_bwd_data_case(rng, "mult3_bwd_data_s2_asym", "f32", 1, 9, 8, 3, 3, 4, 3, st=(2, 2), pad=(1, 2, 0, 1)),
        mult_bwd_data_case(rng, "mult4_bwd_data_f16_s2", "f16", 1, 7, 7, 5, 4, 3, 3, st=(2, 2), pad=(1, 1, 1, 1)),
        mult_bwd_filter_case(rng, "mult2_bwd_filter_s1", "f32", "f32", 2, 6, 6, 5, 2, 3, 3, pad=(1, 1, 1, 1)),
        mult_bwd_filter_case(rng, "mult3_bwd_filter_s2_asym", "f32", "f32", 1, 9, 8, 3, 3, 5, 3, st=(2, 2), pad=(2, 1, 1, 0)),
        mult_bwd_filter_case(rng, "mult4_bwd_filter_f16_to_f32", "f16", "f32", 1, 7, 7, 5, 4, 3, 3, st=(2, 2), pad=(1, 1, 1, 1)),
    ]


def bwd_data_case(rng, name, ty, N, H, W, C, FH, FW, st=(1, 1), dl=(1, 1),
                  pad=(0, 0, 0, 0)):
    OH = conv_out(H, FH, st[0], dl[0], pad[0], pad[1])
    OW = conv_out(W, FW, st[1], dl[1], pad[2], pad[3])
    dy = random_tensor(rng, [N, OH, OW, C], ty)
    f = random_tensor(rng, [FH, FW, C], ty)
    dx = ref_bwd_data(dy, f, (H, W), st, dl, pad)
    ot = mlir_type(dx.shape, ty)
    body = ("dwc.depthwise_conv2d_backward_data ins(%%dy, %%w : %s, %s) "
            "outs(%%init : %s) strides = %s dilations = %s padding = %s -> %s" %
            (mlir_type(dy.shape, ty), mlir_type(f.shape, ty), ot, a(st), a(dl),
             a(pad), ot))
    return Case(name, ty, body, [("dy", dy), ("w", f)], dx.shape, ty, dx)


def bwd_filter_case(rng, name, ty, out_ty, N, H, W, C, FH, FW, st=(1, 1),
                    dl=(1, 1), pad=(0, 0, 0, 0), lo=-1.0, hi=1.0):
    OH = conv_out(H, FH, st[0], dl[0], pad[0], pad[1])
    OW = conv_out(W, FW, st[1], dl[1], pad[2], pad[3])
    x = random_tensor(rng, [N, H, W, C], ty, lo, hi)
    dy = random_tensor(rng, [N, OH, OW, C], ty, lo, hi)
    dw = ref_bwd_filter(x, dy, (FH, FW), st, dl, pad)
    ot = mlir_type(dw.shape, out_ty)
    body = ("dwc.depthwise_conv2d_backward_filter ins(%%x, %%dy : %s, %s) "
            "outs(%%init : %s) strides = %s dilations = %s padding = %s -> %s" %
            (mlir_type(x.shape, ty), mlir_type(dy.shape, ty), ot, a(st), a(dl),
             a(pad), ot))
    return Case(name, ty, body, [("x", x), ("dy", dy)], dw.shape, out_ty, dw)


def bias_grad_case(rng, name, ty, out_ty, N, H, W, C):
    dy = random_tensor(rng, [N, H, W, C], ty)
    db = Tensor([C])
    for n in range(N):
        for h in range(H):
            for w in range(W):
                for c in range(C):
                    db.data[c] += dy.get(n, h, w, c)
    ot = mlir_type(db.shape, out_ty)
    body = "dwc.conv2d_backward_bias ins(%%dy : %s) outs(%%init : %s) -> %s" % (
        mlir_type(dy.shape, ty), ot, ot)
    return Case(name, ty, body, [("dy", dy)], db.shape, out_ty, db)


ACTIVATIONS = {"relu": lambda v: max(v, 0.0), "relu6": lambda v: min(max(v, 0.0), 6.0)}


def pool_case(rng, name, ty, kind, N, H, W, C, win, st, pad, ceil=False,
              cip=False, act=None, scale=1.0):
    x = random_tensor(rng, [N, H, W, C], ty)
    if scale != 1.0:  # e.g. values beyond 6 for relu6
        x.data = [round_to(v * scale, ty) for v in x.data]
    y = ref_pool(x, kind, win, st, pad, ceil, cip)
    if act:
        y.data = [ACTIVATIONS[act](v) for v in y.data]
    ot = mlir_type(y.shape, ty)
    body = ("dwc.pool2d %s ins(%%x : %s) outs(%%init : %s) window = %s "
            "strides = %s padding = %s%s%s%s -> %s" %
            (kind, mlir_type(x.shape, ty), ot, a(win), a(st), a(pad),
             " ceil_mode" if ceil else "", " count_include_pad" if cip else "",
             (" activation = %s" % act) if act else "", ot))
    return Case(name, ty, body, [("x", x)], y.shape, ty, y, exact=(kind == "max"))


def conv_pool_case(rng, name, ty, kind, N, H, W, C, FH, FW, pad, win, st, ppad,
                   ceil=False, cip=False, bias=False, act=None, cst=(1, 1),
                   dl=(1, 1)):
    """dwc.depthwise_conv2d_pool2d: the convolution rounded to `ty`, pooled."""
    x = random_tensor(rng, [N, H, W, C], ty)
    f = random_tensor(rng, [FH, FW, C], ty)
    b = random_tensor(rng, [C], ty) if bias else None
    conv = ref_depthwise(x, f, b, cst, dl, pad)
    conv.data = [round_to(v, ty) for v in conv.data]
    y = ref_pool(conv, kind, win, st, ppad, ceil, cip)
    if act:
        y.data = [ACTIVATIONS[act](v) for v in y.data]
    consts = [("x", x), ("w", f)] + ([("b", b)] if bias else [])
    ot = mlir_type(y.shape, ty)
    body = ("dwc.depthwise_conv2d_pool2d %s ins(%%x, %%w : %s, %s)%s outs(%%init : %s) "
            "strides = %s dilations = %s padding = %s window = %s pool_strides = %s "
            "pool_padding = %s%s%s%s -> %s" %
            (kind, mlir_type(x.shape, ty), mlir_type(f.shape, ty),
             (" bias(%%b : %s)" % mlir_type([C], ty)) if bias else "", ot,
             a(cst), a(dl), a(pad), a(win), a(st), a(ppad),
             " ceil_mode" if ceil else "", " count_include_pad" if cip else "",
             (" activation = %s" % act) if act else "", ot))
    return Case(name, ty, body, consts, y.shape, ty, y)


def coarse_tensor(rng, shape, ty):
    """Values on a grid of 7 levels: many equal maxima in every window."""
    t = Tensor(shape)
    for k in range(len(t.data)):
        t.data[k] = round_to(rng.randint(-3, 3) / 4.0, ty)
    return t


def pool_bwd_case(rng, name, ty, kind, N, H, W, C, win, st, pad, ceil=False,
                  cip=False, ties=True):
    x = (coarse_tensor if ties else random_tensor)(rng, [N, H, W, C], ty)
    OH = pool_out(H, win[0], st[0], pad[0], pad[1], ceil)
    OW = pool_out(W, win[1], st[1], pad[2], pad[3], ceil)
    dy = random_tensor(rng, [N, OH, OW, C], ty)
    dx = ref_pool_bwd(x, dy, kind, win, st, pad, ceil, cip)
    xt, dyt = mlir_type(x.shape, ty), mlir_type(dy.shape, ty)
    body = ("dwc.pool2d_backward %s ins(%%x, %%dy : %s, %s) outs(%%init : %s) "
            "window = %s strides = %s padding = %s%s%s -> %s" %
            (kind, xt, dyt, xt, a(win), a(st), a(pad),
             " ceil_mode" if ceil else "", " count_include_pad" if cip else "",
             xt))
    return Case(name, ty, body, [("x", x), ("dy", dy)], dx.shape, ty, dx)


def gap_case(rng, name, ty, N, H, W, C):
    x = random_tensor(rng, [N, H, W, C], ty)
    y = ref_gap(x)
    ot = mlir_type(y.shape, ty)
    body = "dwc.global_avg_pool ins(%%x : %s) outs(%%init : %s) -> %s" % (
        mlir_type(x.shape, ty), ot, ot)
    return Case(name, ty, body, [("x", x)], y.shape, ty, y)


def im2win_case(rng, name, ty, N, H, W, C, win, st=(1, 1), dl=(1, 1),
                pad=(0, 0, 0, 0)):
    x = random_tensor(rng, [N, H, W, C], ty)
    r = ref_im2win(x, win, st, dl, pad)
    ot = mlir_type(r.shape, ty)
    body = ("dwc.im2win ins(%%x : %s) outs(%%init : %s) window = %s "
            "strides = %s dilations = %s padding = %s -> %s" %
            (mlir_type(x.shape, ty), ot, a(win), a(st), a(dl), a(pad), ot))
    return Case(name, ty, body, [("x", x)], r.shape, ty, r, exact=True)


def conv2d_case(rng, name, ty, N, H, W, C, OC, FH, FW, st=(1, 1), dl=(1, 1),
                pad=(0, 0, 0, 0), bias=False):
    x = random_tensor(rng, [N, H, W, C], ty)
    f = random_tensor(rng, [FH, FW, C, OC], ty)
    b = random_tensor(rng, [OC], ty) if bias else None
    y = ref_conv2d(x, f, b, st, dl, pad)
    consts = [("x", x), ("w", f)] + ([("b", b)] if bias else [])
    ot = mlir_type(y.shape, ty)
    body = ("dwc.conv2d ins(%%x, %%w : %s, %s)%s outs(%%init : %s) "
            "strides = %s dilations = %s padding = %s -> %s" %
            (mlir_type(x.shape, ty), mlir_type(f.shape, ty),
             (" bias(%%b : %s)" % mlir_type([OC], ty)) if bias else "", ot,
             a(st), a(dl), a(pad), ot))
    return Case(name, ty, body, consts, y.shape, ty, y)



def random_family(rng, count):
    """`count` random valid configurations over every dwc op: random sizes
    (including 1 and odd ones), strides, dilations, asymmetric padding,
    ceil mode, count_include_pad, bias, activations and element types."""
    makers = [random_depthwise, random_bwd_data, random_bwd_filter, random_pool,
              random_pool_bwd, random_gap, random_im2win, random_conv2d,
              random_conv_pool]
    cases = []
    while len(cases) < count:
        maker = makers[len(cases) % len(makers)]
        case = maker(rng, "rand%d" % len(cases))
        if case is not None:
            cases.append(case)
    return cases


def rand_ty(rng):
    return rng.choice(["f32", "f32", "f16", "bf16"])


def rand_window(rng, H, W, fmax=5):
    """Filter, stride, dilation and padding whose dilated window fits the
    padded input, or None."""
    F = (rng.randint(1, fmax), rng.randint(1, fmax))
    st = (rng.randint(1, 3), rng.randint(1, 3))
    dl = (rng.randint(1, 2), rng.randint(1, 2))
    pad = tuple(rng.randint(0, 3) for _ in range(4))
    if dl[0] * (F[0] - 1) + 1 > H + pad[0] + pad[1] or \
       dl[1] * (F[1] - 1) + 1 > W + pad[2] + pad[3]:
        return None
    return F, st, dl, pad


def rand_sizes(rng, cmax=9):
    return (rng.randint(1, 2), rng.randint(1, 9), rng.randint(1, 9),
            rng.randint(1, cmax))


def rand_conv(rng, cmax=9, fmax=5):
    """Sizes N, H, W, C and a window (rand_window) that fits, or None."""
    N, H, W, C = rand_sizes(rng, cmax)
    w = rand_window(rng, H, W, fmax)
    return None if w is None else (N, H, W, C) + w


def random_depthwise(rng, name):
    g = rand_conv(rng)
    if g is None:
        return None
    N, H, W, C, F, st, dl, pad = g
    return dw_case(rng, name, rand_ty(rng), N, H, W, C, F[0], F[1], st=st,
                   dl=dl, pad=pad, bias=rng.random() < 0.5)


def random_bwd_data(rng, name):
    g = rand_conv(rng)
    if g is None:
        return None
    N, H, W, C, F, st, dl, pad = g
    return bwd_data_case(rng, name, rand_ty(rng), N, H, W, C, F[0], F[1],
                         st=st, dl=dl, pad=pad)


def random_bwd_filter(rng, name):
    g = rand_conv(rng)
    if g is None:
        return None
    N, H, W, C, F, st, dl, pad = g
    ty = rand_ty(rng)
    return bwd_filter_case(rng, name, ty, rng.choice([ty, "f32"]), N, H, W, C,
                           F[0], F[1], st=st, dl=dl, pad=pad)


def rand_pool_attrs(rng, H, W):
    """Window, strides, padding (< window), ceil mode and count_include_pad
    of a pool over H x W, or None."""
    win = (rng.randint(1, 4), rng.randint(1, 4))
    st = (rng.randint(1, 3), rng.randint(1, 3))
    pad = (rng.randint(0, win[0] - 1), rng.randint(0, win[0] - 1),
           rng.randint(0, win[1] - 1), rng.randint(0, win[1] - 1))
    if win[0] > H + pad[0] + pad[1] or win[1] > W + pad[2] + pad[3]:
        return None
    ceil = rng.random() < 0.3
    if pool_out(H, win[0], st[0], pad[0], pad[1], ceil) < 1 or \
       pool_out(W, win[1], st[1], pad[2], pad[3], ceil) < 1:
        return None
    return win, st, pad, ceil


def random_pool(rng, name):
    N, H, W, C = rand_sizes(rng)
    attrs = rand_pool_attrs(rng, H, W)
    if attrs is None:
        return None
    win, st, pad, ceil = attrs
    kind = rng.choice(["max", "avg"])
    return pool_case(rng, name, rand_ty(rng), kind, N, H, W, C, win, st, pad,
                     ceil=ceil, cip=kind == "avg" and rng.random() < 0.5,
                     act=rng.choice([None, None, "relu", "relu6"]))


def random_pool_bwd(rng, name):
    N, H, W, C = rand_sizes(rng)
    attrs = rand_pool_attrs(rng, H, W)
    if attrs is None:
        return None
    win, st, pad, ceil = attrs
    kind = rng.choice(["max", "avg"])
    return pool_bwd_case(rng, name, rand_ty(rng), kind, N, H, W, C, win, st,
                         pad, ceil=ceil,
                         cip=kind == "avg" and rng.random() < 0.5,
                         ties=rng.random() < 0.5)


def random_gap(rng, name):
    N, H, W, C = rand_sizes(rng, cmax=17)
    return gap_case(rng, name, rand_ty(rng), N, H, W, C)


def random_im2win(rng, name):
    g = rand_conv(rng)
    if g is None:
        return None
    N, H, W, C, F, st, dl, pad = g
    return im2win_case(rng, name, rand_ty(rng), N, H, W, C, F, st=st, dl=dl,
                       pad=pad)


def random_conv2d(rng, name):
    g = rand_conv(rng, cmax=5, fmax=4)
    if g is None:
        return None
    N, H, W, C, F, st, dl, pad = g
    return conv2d_case(rng, name, rand_ty(rng), N, H, W, C, rng.randint(1, 5),
                       F[0], F[1], st=st, dl=dl, pad=pad,
                       bias=rng.random() < 0.5)


def random_conv_pool(rng, name):
    g = rand_conv(rng)
    if g is None:
        return None
    N, H, W, C, F, cst, dl, pad = g
    OH = conv_out(H, F[0], cst[0], dl[0], pad[0], pad[1])
    OW = conv_out(W, F[1], cst[1], dl[1], pad[2], pad[3])
    attrs = rand_pool_attrs(rng, OH, OW)
    if attrs is None:
        return None
    win, st, ppad, ceil = attrs
    kind = rng.choice(["max", "avg"])
    return conv_pool_case(rng, name, rand_ty(rng), kind, N, H, W, C, F[0],
                          F[1], pad, win, st, ppad, ceil=ceil,
                          cip=kind == "avg" and rng.random() < 0.5,
                          bias=rng.random() < 0.5,
                          act=rng.choice([None, "relu", "relu6"]), cst=cst,
                          dl=dl)

def family(name, rng, count=0):
    if name == "random":
        return random_family(rng, count)
    if name == "depthwise":
        return [
            dw_case(rng, "dw_3x3_c5_bias", "f32", 1, 6, 7, 5, 3, 3, pad=(1, 1, 1, 1), bias=True),
            dw_case(rng, "dw_3x3_c13_nobias_n2", "f32", 2, 5, 5, 13, 3, 3, pad=(1, 1, 1, 1)),
            dw_case(rng, "dw_stride2_asym_pad", "f32", 1, 9, 8, 5, 3, 3, st=(2, 2), pad=(1, 0, 2, 1), bias=True),
            dw_case(rng, "dw_dilation2", "f32", 2, 9, 9, 5, 3, 3, dl=(2, 2), pad=(2, 2, 2, 2)),
            dw_case(rng, "dw_w_lt_fw_7x3", "f32", 1, 9, 2, 5, 7, 3, pad=(3, 3, 1, 1), bias=True),
            dw_case(rng, "dw_5x1", "f32", 1, 7, 4, 13, 5, 1, pad=(2, 2, 0, 0)),
            dw_case(rng, "dw_1x7_stride_1x2", "f32", 1, 3, 9, 5, 1, 7, st=(1, 2), pad=(0, 0, 3, 3)),
            dw_case(rng, "dw_7x7_s2_d2_mixed", "f32", 1, 12, 11, 3, 7, 7, st=(2, 2), dl=(2, 1), pad=(5, 6, 3, 2), bias=True),
            dw_case(rng, "dw_f16_bias", "f16", 2, 6, 6, 13, 3, 3, pad=(1, 1, 1, 1), bias=True),
            dw_case(rng, "dw_f16_5x5_s2", "f16", 1, 9, 9, 5, 5, 5, st=(2, 2), pad=(2, 2, 2, 2)),
            dw_case(rng, "dw_bf16", "bf16", 1, 6, 6, 5, 3, 3, pad=(1, 1, 1, 1), bias=True),
            dw_case(rng, "dw_f32_acc_f64", "f32", 1, 5, 5, 5, 3, 3, pad=(1, 1, 1, 1), acc="f64"),
        ]
    if name == "backward":
        return [
            bwd_data_case(rng, "bwd_data_s1", "f32", 2, 6, 7, 5, 3, 3, pad=(1, 1, 1, 1)),
            bwd_data_case(rng, "bwd_data_s2", "f32", 1, 9, 8, 13, 3, 3, st=(2, 2), pad=(1, 1, 1, 1)),
            bwd_data_case(rng, "bwd_data_s2_even_asym", "f32", 1, 8, 7, 5, 4, 3, st=(2, 2), pad=(1, 2, 0, 1)),
            bwd_data_case(rng, "bwd_data_d2", "f32", 1, 9, 9, 5, 3, 3, dl=(2, 2), pad=(2, 2, 2, 2)),
            bwd_data_case(rng, "bwd_data_big_pad", "f32", 1, 4, 5, 5, 3, 3, pad=(3, 1, 0, 4)),
            bwd_data_case(rng, "bwd_data_s3_drop", "f32", 1, 7, 8, 5, 2, 2, st=(3, 3), pad=(0, 1, 1, 0)),
            bwd_data_case(rng, "bwd_data_7x3_w_lt_fw", "f32", 1, 8, 2, 5, 7, 3, pad=(3, 3, 1, 1)),
            bwd_data_case(rng, "bwd_data_f16_s2", "f16", 2, 7, 7, 13, 3, 3, st=(2, 2), pad=(1, 1, 1, 1)),
            bwd_data_case(rng, "bwd_data_bf16", "bf16", 1, 6, 6, 5, 3, 3, pad=(1, 1, 1, 1)),
            bwd_filter_case(rng, "bwd_filter_s1", "f32", "f32", 2, 6, 6, 5, 3, 3, pad=(1, 1, 1, 1)),
            bwd_filter_case(rng, "bwd_filter_s2_asym", "f32", "f32", 1, 9, 8, 13, 5, 3, st=(2, 2), pad=(2, 1, 1, 0)),
            bwd_filter_case(rng, "bwd_filter_d2", "f32", "f32", 1, 9, 9, 5, 3, 3, dl=(2, 2), pad=(2, 2, 2, 2)),
            bwd_filter_case(rng, "bwd_filter_f16_to_f32", "f16", "f32", 2, 7, 7, 5, 3, 3, pad=(1, 1, 1, 1)),
            bwd_filter_case(rng, "bwd_filter_f16_to_f16", "f16", "f16", 1, 6, 6, 13, 3, 3, pad=(1, 1, 1, 1)),
            bwd_filter_case(rng, "bwd_filter_bf16_to_f32", "bf16", "f32", 1, 6, 6, 5, 3, 3, pad=(1, 1, 1, 1)),
            bias_grad_case(rng, "bias_grad_f32", "f32", "f32", 2, 5, 7, 13),
            bias_grad_case(rng, "bias_grad_f16_to_f32", "f16", "f32", 3, 4, 5, 8),
            bias_grad_case(rng, "bias_grad_bf16_to_bf16", "bf16", "bf16", 1, 6, 6, 5),
        ]
    if name == "pooling":
        return [
            pool_case(rng, "max_3x3_s2_p1", "f32", "max", 1, 7, 7, 5, (3, 3), (2, 2), (1, 1, 1, 1)),
            pool_case(rng, "max_ceil_asym_drop", "f32", "max", 2, 7, 6, 13, (3, 2), (2, 2), (1, 0, 0, 1), ceil=True),
            pool_case(rng, "max_2x2_s2", "f16", "max", 1, 6, 6, 5, (2, 2), (2, 2), (0, 0, 0, 0)),
            pool_case(rng, "max_ceil_bf16", "bf16", "max", 1, 6, 7, 5, (3, 3), (2, 2), (0, 0, 0, 0), ceil=True),
            pool_case(rng, "avg_3x3_s2_p1_excl", "f32", "avg", 1, 7, 7, 5, (3, 3), (2, 2), (1, 1, 1, 1)),
            pool_case(rng, "avg_3x3_s2_p1_incl", "f32", "avg", 1, 7, 7, 5, (3, 3), (2, 2), (1, 1, 1, 1), cip=True),
            pool_case(rng, "avg_ceil_excl", "f32", "avg", 2, 7, 5, 13, (3, 3), (2, 2), (1, 0, 1, 0), ceil=True),
            pool_case(rng, "avg_ceil_incl", "f32", "avg", 2, 7, 5, 13, (3, 3), (2, 2), (1, 0, 1, 0), ceil=True, cip=True),
            pool_case(rng, "avg_ceil_drop_incl", "f32", "avg", 1, 6, 6, 5, (2, 2), (2, 2), (0, 1, 0, 1), ceil=True, cip=True),
            pool_case(rng, "avg_ceil_incl_nopad", "f32", "avg", 1, 6, 7, 5, (3, 2), (2, 3), (0, 0, 0, 0), ceil=True, cip=True),
            pool_case(rng, "avg_5x1_asym_incl", "f32", "avg", 1, 9, 4, 5, (5, 1), (1, 1), (2, 1, 0, 0), cip=True),
            pool_case(rng, "avg_f16_incl", "f16", "avg", 1, 7, 7, 13, (3, 3), (2, 2), (1, 1, 1, 1), ceil=True, cip=True),
            pool_case(rng, "avg_bf16_excl", "bf16", "avg", 1, 7, 7, 5, (3, 3), (2, 2), (1, 1, 1, 1)),
            pool_case(rng, "max_relu", "f32", "max", 1, 7, 7, 5, (3, 3), (2, 2), (1, 1, 1, 1), act="relu"),
            pool_case(rng, "avg_relu6_f16", "f16", "avg", 1, 7, 7, 5, (3, 3), (1, 1), (1, 1, 1, 1), act="relu6", scale=10.0),
            gap_case(rng, "gap_f32", "f32", 2, 5, 7, 13),
            gap_case(rng, "gap_f16", "f16", 1, 7, 7, 5),
            gap_case(rng, "gap_bf16", "bf16", 2, 3, 3, 5),
        ]
    if name == "f64":
        # f64 depthwise ops (float64 gradient checks of the training path):
        # scalar (C=5) and 2 x f64 vector (C=6) kernels, odd shapes.
        return [
            dw_case(rng, "f64_dw_s2_asym_bias", "f64", 2, 9, 8, 5, 3, 3, st=(2, 2), pad=(1, 2, 0, 1), bias=True),
            dw_case(rng, "f64_dw_5x7_vec", "f64", 1, 7, 9, 6, 5, 7, pad=(2, 2, 3, 3), bias=True),
            dw_case(rng, "f64_dw_s2_d2", "f64", 1, 11, 10, 5, 3, 3, st=(2, 2), dl=(2, 2), pad=(2, 2, 2, 2)),
            bwd_data_case(rng, "f64_bwd_data_s2_asym", "f64", 2, 9, 8, 5, 3, 3, st=(2, 2), pad=(1, 2, 0, 1)),
            bwd_data_case(rng, "f64_bwd_data_5x7_vec", "f64", 1, 8, 7, 6, 5, 7, st=(2, 2), pad=(1, 3, 2, 4)),
            bwd_filter_case(rng, "f64_bwd_filter_s2_asym", "f64", "f64", 2, 9, 8, 5, 3, 3, st=(2, 2), pad=(1, 2, 0, 1)),
            bwd_filter_case(rng, "f64_bwd_filter_5x7_vec", "f64", "f64", 1, 8, 7, 6, 5, 7, st=(2, 2), pad=(1, 3, 2, 4)),
            bwd_filter_case(rng, "f64_bwd_filter_d2", "f64", "f64", 1, 11, 10, 5, 3, 3, st=(2, 2), dl=(2, 2), pad=(2, 2, 2, 2)),
        ]
    if name == "pooling_backward":
        return [
            # Reported wrong through dwc_torch on the H200 (avg, ceil_mode,
            # padding 1, count_include_pad=False; ceil changes no size here).
            pool_bwd_case(rng, "bwd_avg_ceil_excl_17x19_c35", "f32", "avg", 2, 17, 19, 35, (3, 3), (2, 2),
                          (1, 1, 1, 1), ceil=True),
            pool_bwd_case(rng, "bwd_avg_ceil_excl_17x19_c32", "f32", "avg", 2, 17, 19, 32, (3, 3), (2, 2),
                          (1, 1, 1, 1), ceil=True),
            pool_bwd_case(rng, "bwd_max_3x3_s2_p1_ties", "f32", "max", 1, 7, 7, 5, (3, 3), (2, 2), (1, 1, 1, 1)),
            pool_bwd_case(rng, "bwd_max_3x3_s1_p1_ties", "f32", "max", 2, 5, 6, 3, (3, 3), (1, 1), (1, 1, 1, 1)),
            pool_bwd_case(rng, "bwd_max_2x2_s2", "f32", "max", 1, 6, 6, 5, (2, 2), (2, 2), (0, 0, 0, 0), ties=False),
            pool_bwd_case(rng, "bwd_max_ceil_asym", "f32", "max", 2, 7, 6, 3, (3, 2), (2, 2), (1, 0, 0, 1), ceil=True),
            pool_bwd_case(rng, "bwd_max_w57_c72_ceil", "f32", "max", 1, 5, 57, 72, (3, 3), (2, 2), (0, 0, 0, 0), ceil=True),
            pool_bwd_case(rng, "bwd_max_f16_ties", "f16", "max", 1, 7, 7, 13, (3, 3), (2, 2), (1, 1, 1, 1), ceil=True),
            pool_bwd_case(rng, "bwd_max_s3_gap", "f32", "max", 1, 8, 8, 2, (2, 2), (3, 3), (1, 0, 1, 0)),
            pool_bwd_case(rng, "bwd_avg_3x3_s2_p1_excl", "f32", "avg", 1, 7, 7, 5, (3, 3), (2, 2), (1, 1, 1, 1)),
            pool_bwd_case(rng, "bwd_avg_3x3_s2_p1_incl", "f32", "avg", 1, 7, 7, 5, (3, 3), (2, 2), (1, 1, 1, 1), cip=True),
            pool_bwd_case(rng, "bwd_avg_3x3_s1_p1", "f32", "avg", 2, 5, 6, 3, (3, 3), (1, 1), (1, 1, 1, 1)),
            pool_bwd_case(rng, "bwd_avg_3x3_s2_p1_excl_vec", "f32", "avg", 2, 12, 12, 8, (3, 3), (2, 2), (1, 1, 1, 1)),
            pool_bwd_case(rng, "bwd_avg_3x3_s1_p1_excl_vec", "f16", "avg", 1, 10, 12, 16, (3, 3), (1, 1), (1, 1, 1, 1)),
            pool_bwd_case(rng, "bwd_avg_ceil_incl", "f32", "avg", 2, 7, 5, 3, (3, 3), (2, 2), (1, 0, 1, 0), ceil=True, cip=True),
            pool_bwd_case(rng, "bwd_avg_ceil_drop_incl", "f32", "avg", 1, 6, 6, 5, (2, 2), (2, 2), (0, 1, 0, 1), ceil=True, cip=True),
            pool_bwd_case(rng, "bwd_avg_w57_c72_ceil_excl", "f32", "avg", 1, 5, 57, 72, (3, 3), (2, 2), (1, 1, 1, 1), ceil=True),
            pool_bwd_case(rng, "bwd_avg_f16_incl", "f16", "avg", 1, 7, 7, 13, (3, 3), (2, 2), (1, 1, 1, 1), ceil=True, cip=True),
            pool_bwd_case(rng, "bwd_avg_5x1_asym", "f32", "avg", 1, 9, 4, 5, (5, 1), (1, 1), (2, 1, 0, 0), cip=True),
            # Stride 1, vectorised: the row-tiled backward of convert-dwc-to-gpu-pool.
            pool_bwd_case(rng, "bwd_avg_5x3_s1_asym_incl_vec", "f32", "avg", 2, 9, 11, 8, (5, 3), (1, 1), (2, 1, 1, 0), cip=True),
            pool_bwd_case(rng, "bwd_avg_3x3_s1_h13_bf16", "bf16", "avg", 1, 13, 7, 8, (3, 3), (1, 1), (1, 1, 1, 1)),
            pool_bwd_case(rng, "bwd_avg_2x2_s1_nopad_vec", "f32", "avg", 1, 6, 9, 4, (2, 2), (1, 1), (0, 0, 0, 0)),
            # Strided, vectorised: the stride-aligned gather tiles (odd H/W: partial tiles).
            pool_bwd_case(rng, "bwd_max_3x3_s2_p1_ties_f16_vec", "f16", "max", 1, 9, 11, 16, (3, 3), (2, 2), (1, 1, 1, 1)),
            pool_bwd_case(rng, "bwd_max_ceil_asym_vec", "f32", "max", 2, 7, 6, 8, (3, 2), (2, 2), (1, 0, 0, 1), ceil=True),
            pool_bwd_case(rng, "bwd_avg_ceil_incl_vec", "f32", "avg", 1, 7, 5, 4, (3, 3), (2, 2), (1, 0, 1, 0), ceil=True, cip=True),
            pool_bwd_case(rng, "bwd_avg_5x3_s2x1_vec", "f32", "avg", 1, 9, 7, 8, (5, 3), (2, 1), (2, 2, 1, 1)),
            pool_bwd_case(rng, "bwd_max_s3_gap_vec", "f32", "max", 1, 8, 8, 4, (2, 2), (3, 3), (1, 0, 1, 0)),
        ]
    if name == "gpu_pool_forward":
        # Channel counts the 128-bit kernels of convert-dwc-to-gpu-pool take.
        return [
            pool_case(rng, "gpu_max_3x3_s2_p1", "f32", "max", 1, 9, 10, 8, (3, 3), (2, 2), (1, 1, 1, 1)),
            pool_case(rng, "gpu_max_2x2_s2", "f32", "max", 2, 8, 8, 4, (2, 2), (2, 2), (0, 0, 0, 0)),
            pool_case(rng, "gpu_max_w57_c72_ceil", "f32", "max", 1, 5, 57, 72, (3, 3), (2, 2), (0, 0, 0, 0), ceil=True),
            pool_case(rng, "gpu_max_f16_ceil_asym", "f16", "max", 1, 7, 13, 16, (3, 2), (2, 2), (1, 0, 0, 1), ceil=True),
            pool_case(rng, "gpu_max_bf16_s1", "bf16", "max", 1, 6, 11, 8, (3, 3), (1, 1), (1, 1, 1, 1)),
            pool_case(rng, "gpu_avg_3x3_s1_p1_excl", "f32", "avg", 2, 6, 19, 8, (3, 3), (1, 1), (1, 1, 1, 1)),
            pool_case(rng, "gpu_avg_3x3_s2_p1_incl", "f32", "avg", 1, 7, 9, 4, (3, 3), (2, 2), (1, 1, 1, 1), cip=True),
            pool_case(rng, "gpu_avg_ceil_incl", "f32", "avg", 2, 7, 5, 12, (3, 3), (2, 2), (1, 0, 1, 0), ceil=True, cip=True),
            pool_case(rng, "gpu_avg_ceil_drop_incl", "f32", "avg", 1, 6, 6, 4, (2, 2), (2, 2), (0, 1, 0, 1), ceil=True, cip=True),
            pool_case(rng, "gpu_avg_w57_c72_ceil_excl", "f32", "avg", 1, 5, 57, 72, (3, 3), (2, 2), (1, 1, 1, 1), ceil=True),
            pool_case(rng, "gpu_avg_f16_incl", "f16", "avg", 1, 7, 7, 16, (3, 3), (2, 2), (1, 1, 1, 1), ceil=True, cip=True),
            pool_case(rng, "gpu_avg_bf16_5x1", "bf16", "avg", 1, 9, 4, 8, (5, 1), (1, 1), (2, 1, 0, 0), cip=True),
            pool_case(rng, "gpu_avg_s3_k2", "f32", "avg", 1, 10, 11, 4, (2, 2), (3, 3), (1, 1, 1, 1)),
            pool_case(rng, "gpu_max_relu6", "f32", "max", 1, 9, 10, 8, (3, 3), (2, 2), (1, 1, 1, 1), act="relu6", scale=10.0),
            pool_case(rng, "gpu_avg_relu_rows", "f32", "avg", 2, 6, 19, 8, (3, 3), (1, 1), (1, 1, 1, 1), act="relu"),
            pool_case(rng, "gpu_avg_relu6_f16", "f16", "avg", 1, 7, 7, 16, (3, 3), (2, 2), (1, 1, 1, 1), act="relu6", scale=10.0),
        ]
    if name == "conv_pool":
        # Shapes the fused kernel of convert-dwc-to-gpu-pool takes (stride-1
        # undilated conv, <= 49 taps in f32 and 9 in f16/bf16, C a multiple
        # of 128 bits).
        return [
            conv_pool_case(rng, "cp_max_3x3_s2_p1", "f32", "max", 1, 9, 10, 8, 3, 3, (1, 1, 1, 1),
                           (3, 3), (2, 2), (1, 1, 1, 1)),
            conv_pool_case(rng, "cp_max_2x2_bias_n2", "f32", "max", 2, 8, 8, 4, 3, 3, (1, 1, 1, 1),
                           (2, 2), (2, 2), (0, 0, 0, 0), bias=True),
            conv_pool_case(rng, "cp_avg_f16_3x3_ceil_incl", "f16", "avg", 1, 7, 9, 16, 3, 3, (1, 1, 1, 1),
                           (3, 3), (2, 2), (1, 1, 1, 1), ceil=True, cip=True),
            conv_pool_case(rng, "cp_max_relu_w57_c72", "f32", "max", 1, 5, 57, 72, 3, 3, (1, 1, 1, 1),
                           (3, 3), (2, 2), (1, 1, 1, 1), act="relu"),
            conv_pool_case(rng, "cp_avg_bf16_asym_ceil", "bf16", "avg", 1, 7, 11, 8, 3, 3, (1, 0, 2, 1),
                           (2, 2), (2, 2), (0, 1, 0, 1), ceil=True),
            conv_pool_case(rng, "cp_max_f16_bias_relu6_s1", "f16", "max", 1, 9, 19, 8, 3, 3, (1, 1, 1, 1),
                           (3, 3), (1, 1), (1, 1, 1, 1), bias=True, act="relu6"),
            conv_pool_case(rng, "cp_max_f32_7x7_bias", "f32", "max", 1, 9, 9, 8, 7, 7, (3, 3, 3, 3),
                           (3, 3), (2, 2), (1, 1, 1, 1), bias=True),
            conv_pool_case(rng, "cp_avg_nopad_conv_s1_pool", "f32", "avg", 1, 8, 9, 4, 3, 3, (0, 0, 0, 0),
                           (3, 3), (1, 1), (1, 1, 1, 1)),
        ]
    if name == "conv_pool_split":
        # What the fused kernel refuses (dwc-decompose-conv-pool splits it):
        # channels not a multiple of 128 bits, strided or dilated convs,
        # 16-bit filters over 9 taps.
        return [
            conv_pool_case(rng, "cp_c5", "f32", "max", 1, 8, 8, 5, 3, 3, (1, 1, 1, 1),
                           (3, 3), (2, 2), (1, 1, 1, 1)),
            conv_pool_case(rng, "cp_conv_s2", "f32", "avg", 1, 11, 10, 4, 3, 3, (1, 1, 1, 1),
                           (2, 2), (2, 2), (0, 0, 0, 0), cst=(2, 2), bias=True),
            conv_pool_case(rng, "cp_conv_d2_f16", "f16", "max", 1, 9, 9, 8, 3, 3, (2, 2, 2, 2),
                           (2, 2), (2, 2), (0, 0, 0, 0), dl=(2, 2)),
            conv_pool_case(rng, "cp_f16_5x5_ceil_incl", "f16", "avg", 1, 7, 9, 16, 5, 5, (2, 2, 2, 2),
                           (3, 3), (2, 2), (1, 1, 1, 1), ceil=True, cip=True),
        ]
    if name == "gpu_backward":
        # Shapes the fast backward kernels take (stride 1, C a multiple of
        # 128 bits): the GEMV kernel on the rotated filter for dX, the
        # split-z kernel for dW. Odd sizes, asymmetric and zero padding,
        # W < FW, tap tiles past FW, channel tails of a block.
        return [
            bwd_data_case(rng, "gpu_bwd_data_3x3", "f32", 2, 6, 7, 8, 3, 3, pad=(1, 1, 1, 1)),
            bwd_data_case(rng, "gpu_bwd_data_asym", "f32", 1, 9, 11, 4, 5, 3, pad=(2, 1, 0, 2)),
            bwd_data_case(rng, "gpu_bwd_data_nopad", "f32", 1, 7, 9, 12, 3, 4, pad=(0, 0, 0, 0)),
            bwd_data_case(rng, "gpu_bwd_data_7x3_w_lt_fw", "f32", 1, 8, 2, 4, 7, 3, pad=(3, 3, 1, 1)),
            bwd_data_case(rng, "gpu_bwd_data_13x13_w19", "f32", 1, 5, 19, 36, 13, 13, pad=(6, 6, 6, 6)),
            bwd_data_case(rng, "gpu_bwd_data_f16", "f16", 2, 6, 6, 16, 3, 3, pad=(1, 1, 1, 1)),
            bwd_data_case(rng, "gpu_bwd_data_bf16_asym", "bf16", 1, 7, 6, 8, 4, 2, pad=(1, 2, 1, 0)),
            bwd_filter_case(rng, "gpu_bwd_filter_3x3", "f32", "f32", 2, 6, 7, 8, 3, 3, pad=(1, 1, 1, 1)),
            bwd_filter_case(rng, "gpu_bwd_filter_asym", "f32", "f32", 1, 9, 11, 4, 5, 3, pad=(2, 1, 0, 2)),
            bwd_filter_case(rng, "gpu_bwd_filter_13x13_w21", "f32", "f32", 2, 9, 21, 36, 13, 13, pad=(6, 6, 6, 6)),
            bwd_filter_case(rng, "gpu_bwd_filter_7x3_w_lt_fw", "f32", "f32", 1, 8, 2, 4, 7, 3, pad=(3, 3, 1, 1)),
            bwd_filter_case(rng, "gpu_bwd_filter_f16_to_f16", "f16", "f16", 2, 7, 9, 16, 3, 3, pad=(1, 1, 1, 1)),
            bwd_filter_case(rng, "gpu_bwd_filter_f16_to_f32", "f16", "f32", 1, 6, 17, 8, 7, 7, pad=(3, 3, 3, 3)),
            bwd_filter_case(rng, "gpu_bwd_filter_bf16", "bf16", "bf16", 1, 6, 6, 24, 4, 2, pad=(1, 2, 1, 0)),
            # f16 inputs in [64, 128]: sums up to ~1.4e6, far past the f16
            # range (f16 partial sums of 16 columns gave +inf everywhere).
            bwd_filter_case(rng, "gpu_bwd_filter_f16_large", "f16", "f32", 1, 12, 12, 8, 5, 5,
                            pad=(2, 2, 2, 2), lo=64.0, hi=128.0),
        ]
    if name == "gpu_strided":
        # Strided kernels: the register-window forward, the phase-decomposed
        # dX gather and the streaming / split-z dW kernels on strided dY.
        # Odd H/W, W < FW,
        # N = 1, C not a multiple of 8 (f32 C = 13: one channel per thread;
        # f16 C = 10), stride 3 and unequal strides, FH < sh (a phase without
        # taps), padding wider than the filter, bias, 1x1 to 7x7.
        s2 = (2, 2)
        return [
            dw_case(rng, "sfw_3x3_s2_bias", "f32", 2, 9, 11, 8, 3, 3, st=s2, pad=(1, 1, 1, 1), bias=True),
            dw_case(rng, "sfw_5x5_s2_c13", "f32", 1, 11, 10, 13, 5, 5, st=s2, pad=(2, 2, 2, 2)),
            dw_case(rng, "sfw_7x7_s2_w_lt_fw", "f32", 1, 8, 5, 4, 7, 7, st=s2, pad=(3, 3, 3, 3)),
            dw_case(rng, "sfw_3x2_s3x2_asym", "f32", 1, 10, 9, 8, 3, 2, st=(3, 2), pad=(2, 0, 0, 1)),
            dw_case(rng, "sfw_1x1_s2", "f32", 1, 7, 9, 4, 1, 1, st=s2),
            dw_case(rng, "sfw_f16_3x3_s2", "f16", 2, 7, 9, 16, 3, 3, st=s2, pad=(1, 1, 1, 1), bias=True),
            dw_case(rng, "sfw_bf16_5x5_c10", "bf16", 1, 9, 7, 10, 5, 5, st=s2, pad=(2, 2, 2, 2)),
            bwd_data_case(rng, "sbd_3x3_s2", "f32", 2, 9, 11, 8, 3, 3, st=s2, pad=(1, 1, 1, 1)),
            bwd_data_case(rng, "sbd_5x5_s2_c13", "f32", 1, 11, 10, 13, 5, 5, st=s2, pad=(2, 2, 2, 2)),
            bwd_data_case(rng, "sbd_7x7_s2_w_lt_fw", "f32", 1, 8, 5, 4, 7, 7, st=s2, pad=(3, 3, 3, 3)),
            bwd_data_case(rng, "sbd_3x2_s3x2_asym", "f32", 1, 10, 9, 8, 3, 2, st=(3, 2), pad=(2, 0, 0, 1)),
            bwd_data_case(rng, "sbd_1x3_s2_nopad", "f32", 2, 7, 9, 4, 1, 3, st=s2),
            bwd_data_case(rng, "sbd_3x3_s2x1", "f32", 1, 7, 6, 8, 3, 3, st=(2, 1), pad=(1, 1, 1, 1)),
            bwd_data_case(rng, "sbd_f16_3x3_s2", "f16", 2, 7, 9, 16, 3, 3, st=s2, pad=(1, 1, 1, 1)),
            bwd_data_case(rng, "sbd_bf16_5x5_c10", "bf16", 1, 9, 7, 10, 5, 5, st=s2, pad=(2, 2, 2, 2)),
            bwd_data_case(rng, "sbd_big_pad", "f32", 1, 5, 5, 4, 3, 3, st=s2, pad=(4, 3, 3, 4)),
            bwd_filter_case(rng, "sbf_3x3_s2", "f32", "f32", 2, 9, 11, 8, 3, 3, st=s2, pad=(1, 1, 1, 1)),
            bwd_filter_case(rng, "sbf_3x3_s2_even", "f32", "f32", 1, 8, 12, 4, 3, 3, st=s2, pad=(0, 1, 0, 1)),
            bwd_filter_case(rng, "sbf_5x5_s2", "f32", "f32", 1, 11, 10, 4, 5, 5, st=s2, pad=(2, 2, 2, 2)),
            bwd_filter_case(rng, "sbf_7x7_s2_w_lt_fw", "f32", "f32", 1, 8, 5, 4, 7, 7, st=s2, pad=(3, 3, 3, 3)),
            bwd_filter_case(rng, "sbf_3x2_s3x2_asym", "f32", "f32", 1, 10, 9, 8, 3, 2, st=(3, 2), pad=(2, 0, 0, 1)),
            bwd_filter_case(rng, "sbf_f16_3x3_s2", "f16", "f16", 2, 7, 9, 16, 3, 3, st=s2, pad=(1, 1, 1, 1)),
            bwd_filter_case(rng, "sbf_bf16_5x5_s2", "bf16", "bf16", 1, 9, 7, 8, 5, 5, st=s2, pad=(2, 2, 2, 2)),
            bwd_filter_case(rng, "sbf_f16_5x5_s2_f32", "f16", "f32", 1, 9, 9, 8, 5, 5, st=s2, pad=(2, 2, 2, 2)),
        ]
    if name == "multiplier":
        return multiplier_forward_cases(rng) + multiplier_backward_cases(rng)
    if name == "fused_depthwise":
        # Fused prologue / epilogue through the CPU reference lowering.
        return fused_cases(rng, "fused", C=5)
    if name == "gpu_fused":
        # The same through the GPU kernels that fuse (C a multiple of 8).
        return fused_cases(rng, "gfused", C=8)
    if name == "gpu_row_tile":
        # The GEMV pass's register row tiles (forward and backward data,
        # stride 1, C a multiple of the vector): row tails (OH not a
        # multiple of the tile), width tails, asymmetric and zero padding,
        # W < FW, FH != FW, a 25-tap filter (filter vectors loaded at each
        # use), bias, f32/f16/bf16.
        return [
            dw_case(rng, "rt_f16_3x3_bias", "f16", 2, 7, 9, 8, 3, 3, pad=(1, 1, 1, 1), bias=True),
            # Right padding beyond the filter (OW = 9 > W = 6): found wrong
            # on the H200 by the GPU fuzz set (bench/dwcbench, layers set fuzz).
            dw_case(rng, "rt_bf16_wide_right_pad", "bf16", 3, 4, 6, 72, 3, 3, pad=(1, 1, 1, 4), bias=True),
            dw_case(rng, "rt_f32_wide_right_pad", "f32", 1, 5, 6, 8, 3, 3, pad=(1, 1, 1, 4)),
            dw_case(rng, "rt_bf16_asym", "bf16", 1, 11, 6, 12, 3, 2, pad=(2, 0, 0, 1)),
            dw_case(rng, "rt_f16_5x5_nopad", "f16", 1, 10, 9, 4, 5, 5),
            dw_case(rng, "rt_f16_w_lt_fw", "f16", 1, 9, 2, 4, 3, 5, pad=(1, 1, 2, 2)),
            dw_case(rng, "rt_f32_3x3", "f32", 2, 6, 7, 8, 3, 3, pad=(1, 1, 1, 1), bias=True),
            dw_case(rng, "rt_f16_1x1", "f16", 1, 5, 3, 8, 1, 1),
            bwd_data_case(rng, "rt_bwd_data_f16", "f16", 2, 7, 6, 8, 3, 3, pad=(1, 1, 1, 1)),
            bwd_data_case(rng, "rt_bwd_data_bf16_asym", "bf16", 1, 9, 7, 4, 4, 2, pad=(1, 2, 1, 0)),
            bwd_data_case(rng, "rt_bwd_data_f32_5x5", "f32", 1, 8, 9, 4, 5, 5, pad=(2, 2, 2, 2)),
            # f32 7x7 (the fitted strips of the 28-wide ConvNeXt maps, 7
            # columns): width 16 leaves a 2-column tail strip, 9 rows a
            # 1-row tail of 4-row tiles.
            dw_case(rng, "rt_f32_7x7_tails", "f32", 1, 9, 16, 4, 7, 7, pad=(3, 3, 3, 3)),
            bwd_data_case(rng, "rt_bwd_data_f32_7x7_tails", "f32", 1, 9, 16, 4, 7, 7,
                          pad=(3, 3, 3, 3)),
        ]
    if name == "im2win_conv2d":
        return [
            im2win_case(rng, "im2win_3x3", "f32", 1, 6, 6, 3, (3, 3)),
            im2win_case(rng, "im2win_s2_d2_asym", "f32", 2, 9, 7, 5, (3, 2), st=(2, 1), dl=(2, 1), pad=(1, 2, 2, 1)),
            im2win_case(rng, "im2win_f16", "f16", 1, 5, 4, 13, (5, 5), pad=(2, 2, 2, 2)),
            conv2d_case(rng, "conv2d_3x3_bias", "f32", 1, 6, 6, 5, 7, 3, 3, pad=(1, 1, 1, 1), bias=True),
            conv2d_case(rng, "conv2d_s2_asym_n2", "f32", 2, 7, 8, 3, 4, 3, 3, st=(2, 2), pad=(1, 0, 0, 1)),
            conv2d_case(rng, "conv2d_d2_1x7", "f32", 1, 5, 9, 4, 5, 1, 3, dl=(1, 2), pad=(0, 0, 2, 2)),
            conv2d_case(rng, "conv2d_f16_bias", "f16", 1, 6, 6, 13, 8, 3, 3, pad=(1, 1, 1, 1), bias=True),
            conv2d_case(rng, "conv2d_bf16", "bf16", 1, 5, 5, 5, 3, 3, 3, pad=(1, 1, 1, 1)),
        ]
    if name == "gpu_global_pool":
        # Global averages (global_avg_pool, pool2d avg over the map) and their
        # gradient: scalar / 64- / 128-bit channel vectors, idle lanes, several
        # tiles, 1x1 and 81-position maps.
        return [gap_case(rng, "gg_f32_c96", "f32", 2, 7, 7, 96),
                gap_case(rng, "gg_f32_c13", "f32", 1, 5, 7, 13),
                gap_case(rng, "gg_f16_c100", "f16", 2, 7, 9, 100),
                gap_case(rng, "gg_bf16_c8", "bf16", 1, 3, 3, 8),
                gap_case(rng, "gg_f32_1x1", "f32", 1, 1, 1, 16),
                gap_case(rng, "gg_f32_9x9", "f32", 1, 9, 9, 8),
                gap_case(rng, "gg_f16_c2056", "f16", 1, 6, 5, 2056),
                pool_case(rng, "gg_pool2d", "f32", "avg", 2, 7, 7, 12, (7, 7), (7, 7), (0, 0, 0, 0))
                ] + family("gpu_global_pool_bwd", rng)
    if name == "gpu_global_pool_bwd":
        g = lambda n, ty, N, H, W, C: pool_bwd_case(rng, n, ty, "avg", N, H, W, C, (H, W), (H, W),
                                                    (0, 0, 0, 0), ties=False)
        return [g("ggb_f32_c96", "f32", 2, 7, 7, 96), g("ggb_f32_c13", "f32", 1, 5, 7, 13),
                g("ggb_f16_c100", "f16", 2, 7, 9, 100), g("ggb_bf16_c8", "bf16", 1, 3, 3, 8),
                g("ggb_f32_1x1", "f32", 1, 1, 1, 16), g("ggb_f32_9x9", "f32", 2, 9, 9, 8),
                g("ggb_f32_19x21", "f32", 1, 19, 21, 8), g("ggb_f16_c2056", "f16", 1, 6, 5, 2056)]
    if name == "gpu_backward_bias":
        # Bias gradients: 32-vector tiles (C = 128 f32, 256 f16), 9 / 17
        # tiles of 2056 bf16 channels (idle lanes), 1x1 maps; 3 to 105 rows
        # (all multiples of 3).
        b = lambda n, ty, N, H, W, C: bias_grad_case(rng, n, ty, "f32", N, H, W, C)
        return [b("bb_f32_c128", "f32", 3, 5, 7, 128), b("bb_f16_c256", "f16", 2, 4, 6, 256),
                b("bb_bf16_c2056", "bf16", 1, 3, 4, 2056), b("bb_f32_1x1", "f32", 3, 1, 1, 128)]
    raise SystemExit("unknown family " + name)


# ----------------------------------------------------------------------------
# Module generation, execution, comparison.
# ----------------------------------------------------------------------------


def identity_map(rank):
    d = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (d, d)


def case_func(i, case):
    rank = len(case.out_shape)
    ot = mlir_type(case.out_shape, case.out_ty)
    bits = "i64" if case.out_ty == "f64" else "i32"
    wide = "f64" if case.out_ty == "f64" else "f32"
    it = mlir_type(case.out_shape, bits)
    mt = "memref<" + "x".join(str(s) for s in case.out_shape) + "x%s>" % bits
    lines = ["func.func @case%d() {" % i]
    for name, t in case.consts:
        lines.append("  %%%s = %s" % (name, mlir_const(t, case.ty)))
    lines.append("  %%init = tensor.empty() : %s" % ot)
    lines.append("  %%r = %s" % case.body)
    lines.append("  %%e = tensor.empty() : %s" % it)
    ext = ("    %%f = arith.extf %%a : %s to f32\n" % case.out_ty
           if case.out_ty not in ("f32", "f64") else "")
    src = "%f" if ext else "%a"
    lines.append(
        "  %%bits = linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]} "
        "ins(%%r : %s) outs(%%e : %s) {\n  ^bb0(%%a: %s, %%o: %s):\n%s"
        "    %%i = arith.bitcast %s : %s to %s\n    linalg.yield %%i : %s\n  } -> %s" %
        (identity_map(rank), identity_map(rank),
         ", ".join(['"parallel"'] * rank), ot, it, case.out_ty, bits, ext, src, wide,
         bits, bits, it))
    lines.append("  %%m = bufferization.to_buffer %%bits : %s to %s" % (it, mt))
    lines.append("  %%u = memref.cast %%m : %s to memref<*x%s>" % (mt, bits))
    lines.append("  call @printMemref%s(%%u) : (memref<*x%s>) -> ()" % (bits.upper(), bits))
    lines.append("  return")
    lines.append("}")
    return "\n".join(lines)


def build_module(cases):
    parts = ["// Generated by check_ops.py.",
             "func.func private @printMemrefI32(memref<*xi32>)",
             "func.func private @printMemrefI64(memref<*xi64>)"]
    for i, c in enumerate(cases):
        parts.append(case_func(i, c))
    parts.append("func.func @main() {")
    for i in range(len(cases)):
        parts.append("  call @case%d() : () -> ()" % i)
    parts.append("  return\n}")
    return "\n".join(parts) + "\n"


def parse_outputs(text):
    chunks = text.split("Unranked Memref")[1:]
    outs = []
    for ch in chunks:
        data = ch.split("data =", 1)[1]
        outs.append([int(v) for v in re.findall(r"-?\d+", data)])
    return outs


def decode(bits, ty):
    if ty == "f64":
        return [struct.unpack("<d", struct.pack("<q", b))[0] for b in bits]
    return [bits_f32(b) for b in bits]


def compare(case, got, inject):
    ref = [round_to(v, case.out_ty) if case.exact else v for v in case.ref.data]
    if inject:
        ref[len(ref) // 2] += 0.5
    if len(got) != len(ref):
        return False, "expected %d values, got %d" % (len(ref), len(got))
    if any(math.isnan(g) or math.isinf(g) for g in got):
        return False, "non-finite output"
    if case.exact:
        bad = [k for k in range(len(ref)) if got[k] != ref[k]]
        if bad:
            k = bad[0]
            return False, "%d mismatches, first at %d: got %r want %r" % (
                len(bad), k, got[k], ref[k])
        return True, "exact"
    num = math.sqrt(sum((g - r) ** 2 for g, r in zip(got, ref)))
    den = math.sqrt(sum(r * r for r in ref)) or 1.0
    rel = num / den
    tol = TOL[case.out_ty]
    if case.ty != case.out_ty:
        tol = max(tol, TOL[case.ty])
    return rel <= tol, "rel_err=%.2e tol=%.0e" % (rel, tol)


def resolve_lib(lib, runner):
    """A runner library given without a usable path is looked up next to the
    runner (<prefix>/bin/mlir-runner -> <prefix>/lib)."""
    if os.path.isfile(lib):
        return lib
    import shutil
    exe = shutil.which(runner) or runner
    cand = os.path.join(os.path.dirname(os.path.realpath(exe)), "..", "lib",
                        os.path.basename(lib))
    return os.path.normpath(cand) if os.path.isfile(cand) else lib


LAUNCH_RE = re.compile(
    r"gpu\.launch blocks\((%\w+), (%\w+), (%\w+)\) in \((%\w+) = (%\w+), (%\w+) = (%\w+), "
    r"(%\w+) = (%\w+)\) threads\((%\w+), (%\w+), (%\w+)\) in \((%\w+) = (%\w+), "
    r"(%\w+) = (%\w+), (%\w+) = (%\w+)\)(?: function\(@\w+\))?"
    r"(?: workgroup\((%\w+) : (memref<.*>)\))? \{")
WORKGROUP = ", #gpu.address_space<workgroup>"


def launches_to_loops(text):
    """Serial host emulation of barrier-free gpu.launch kernels with 1-D
    blocks: the launch becomes scf.for over blocks (x, y) x threads (x) (the
    z block id and y/z thread ids are 0), its
    gpu.terminator the end of the loops. Exact for kernels in which no
    thread reads what another writes. A workgroup buffer becomes one host
    buffer of the launch (blocks run one after another)."""
    out, k = [], 0
    for line in text.replace(WORKGROUP, "").splitlines():
        m = LAUNCH_RE.search(line)
        if m:
            g = m.groups()
            ind = line[:m.start()]
            if "gpu.barrier" in text:
                raise SystemExit("launches_to_loops: kernel uses gpu.barrier")
            z, o = "%%emu_zero%d" % k, "%%emu_one%d" % k
            k += 1
            out.append("%s%s = arith.constant 0 : index" % (ind, z))
            out.append("%s%s = arith.constant 1 : index" % (ind, o))
            wg = "%%emu_wg%d" % k
            if g[18]:
                out.append("%s%s = memref.alloc() : %s" % (ind, wg, g[19]))
            out.append("%sscf.for %s = %s to %s step %s {" % (ind, g[0], z, g[4], o))
            out.append("%sscf.for %s = %s to %s step %s {" % (ind, g[1], z, g[6], o))
            out.append("%sscf.for %s = %s to %s step %s {" % (ind, g[9], z, g[13], o))
            for name, size in ((g[2], None), (g[10], None), (g[11], None)):
                out.append("%s  %s = arith.constant 0 : index" % (ind, name))
            if g[18]:
                out.append("%s  %s = memref.cast %s : %s to %s" % (ind, g[18], wg, g[19], g[19]))
            for name, size in ((g[3], g[4]), (g[5], g[6]), (g[7], g[8]), (g[12], g[13]),
                               (g[14], g[15]), (g[16], g[17])):
                out.append("%s  %s = arith.addi %s, %s : index" % (ind, name, size, z))
            continue
        if line.strip() == "gpu.terminator":
            out.append(line.replace("gpu.terminator", "}}"))
            continue
        out.append(line)
    return "\n".join(out) + "\n"


EMULATE_PIPELINE = [
    "--dwc-detach-target", "--convert-linalg-to-loops", "--convert-vector-to-scf", "--convert-scf-to-cf",
    "--expand-strided-metadata", "--lower-affine", "--convert-vector-to-llvm",
    "--finalize-memref-to-llvm", "--convert-math-to-llvm", "--convert-math-to-libm",
    "--convert-arith-to-llvm", "--convert-func-to-llvm", "--convert-cf-to-llvm",
    "--reconcile-unrealized-casts"]


def lower_gpu_pool_emulated(dwc_opt, src, pool_options=""):
    """dwc-select-kernels and convert-dwc-to-gpu-pool after bufferization,
    launches run serially on the host: checks the kernels' index arithmetic
    and semantics. The variants a test wants are dwc.kernel configurations
    in the module (--kernel-config); the pass options are gone."""
    if pool_options:
        k = subprocess.CompletedProcess([], 1, "", "--gpu-pool-options is gone: "
                                        "request kernels with --kernel-config")
        return k
    k = subprocess.run([dwc_opt, "--one-shot-bufferize=bufferize-function-boundaries",
                        "--dwc-select-kernels", src], capture_output=True, text=True)
    if k.returncode != 0:
        return k
    # The 16-bit argmax scan on packed pairs is inline PTX, which cannot run
    # here: the same stored argmax with per-lane compares instead.
    selected = k.stdout.replace('argmax = "packed"', 'argmax = "stored"')
    k = subprocess.run([dwc_opt, "--convert-dwc-to-gpu-pool"], input=selected,
                       capture_output=True, text=True)
    if k.returncode != 0:
        return k
    if re.search(r"^\s*(%\S+ = )?dwc\.", k.stdout, re.M):
        k.returncode, k.stderr = 1, "ops left by convert-dwc-to-gpu-pool"
        return k
    return subprocess.run([dwc_opt] + EMULATE_PIPELINE, input=launches_to_loops(k.stdout),
                          capture_output=True, text=True)


def with_kernel_configs(module, requests):
    """`module` with {dwc.kernel = CONFIG} on every op named in `requests`
    ("OP=CONFIG", or "OP[TEXT]...=CONFIG" / "OP[!TEXT]...=CONFIG": only the
    ops whose line contains / does not contain TEXT, e.g. a filter type):
    the op's attribute dictionary goes before its `->`."""
    for req in requests:
        # The configuration starts at "=#" (filters may contain "=").
        op, config = req.split("=#", 1) if "=#" in req else req.split("=", 1)
        config = "#" + config if "=#" in req else config
        name, *filters = re.split(r"\[", op)
        filters = [f.rstrip("]") for f in filters]

        def attach(m):
            line = m.group(0)
            if any((f[1:] in line) if f.startswith("!") else (f not in line)
                   for f in filters):
                return line
            return m.group(1) + " {dwc.kernel = " + config + "}" + m.group(2)
        pat = re.compile(r"(= " + re.escape(name) + r" ins\(.*?)( -> )")
        module = pat.sub(attach, module)
    return module


def lower_gpu_emulated(dwc_opt, src, passes):
    """The given kernel passes after bufferization (every dwc op must be
    taken), launches run serially on the host."""
    k = subprocess.run([dwc_opt, "--one-shot-bufferize=bufferize-function-boundaries"]
                       + ["--" + p for p in passes] + [src],
                       capture_output=True, text=True)
    if k.returncode != 0:
        return k
    if re.search(r"^\s*(%\S+ = )?dwc\.", k.stdout, re.M):
        k.returncode, k.stderr = 1, "ops left by " + " ".join(passes)
        return k
    return subprocess.run([dwc_opt] + EMULATE_PIPELINE, input=launches_to_loops(k.stdout),
                          capture_output=True, text=True)


def lower_gpu_direct_emulated(dwc_opt, src):
    """convert-dwc-to-gpu (the direct kernels) after bufferization, launches
    run serially on the host."""
    return lower_gpu_emulated(dwc_opt, src, ["convert-dwc-to-gpu"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--family", required=True)
    ap.add_argument("--dwc-opt", default="dwc-opt")
    ap.add_argument("--runner", default="mlir-runner")
    ap.add_argument("--libs", required=True,
                    help="comma-separated runner utility libraries")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--count", type=int, default=100,
                    help="configurations of the 'random' family")
    ap.add_argument("--inject-error", action="store_true",
                    help="perturb the oracle (checks that failures are seen)")
    ap.add_argument("--keep", help="write the generated module here")
    ap.add_argument("--gpu-pool-emulate", action="store_true",
                    help="lower with convert-dwc-to-gpu-pool and run its kernels "
                         "serially on the host instead of --dwc-to-llvm-cpu")
    ap.add_argument("--gpu-pool-options", default="",
                    help="(gone: the pooling kernels a test wants are "
                         "--kernel-config configurations)")
    ap.add_argument("--gpu-direct-emulate", action="store_true",
                    help="lower with convert-dwc-to-gpu (direct kernels) and run "
                         "them serially on the host")
    ap.add_argument("--gpu-emulate", action="append", default=[],
                    metavar="PASS",
                    help="lower with these dwc-opt passes (repeatable, e.g. "
                         "'convert-dwc-to-gpu-gemv=filter-smem=false') and run "
                         "the kernels serially on the host")
    ap.add_argument("--kernel-config", action="append", default=[],
                    metavar="OP=CONFIG",
                    help="attach dwc.kernel = CONFIG to every OP of the module "
                         "(repeatable), e.g. 'dwc.depthwise_conv2d="
                         "#dwc.strided_forward<rows = 1>': the kernel variants "
                         "a test requests; OP[TEXT] / OP[!TEXT]: only the ops "
                         "whose line has / has not TEXT")
    args = ap.parse_args()

    libs = ",".join(resolve_lib(l, args.runner) for l in args.libs.split(","))
    rng = random.Random(args.seed)
    cases = family(args.family, rng, args.count)
    module = with_kernel_configs(build_module(cases), args.kernel_config)
    if args.keep:
        with open(args.keep, "w") as fh:
            fh.write(module)

    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "in.mlir")
        with open(src, "w") as fh:
            fh.write(module)
        if args.gpu_pool_emulate:
            low = lower_gpu_pool_emulated(args.dwc_opt, src, args.gpu_pool_options)
        elif args.gpu_direct_emulate:
            low = lower_gpu_direct_emulated(args.dwc_opt, src)
        elif args.gpu_emulate:
            low = lower_gpu_emulated(args.dwc_opt, src, args.gpu_emulate)
        else:
            low = subprocess.run([args.dwc_opt, "--dwc-to-llvm-cpu", src],
                                 capture_output=True, text=True)
        if low.returncode != 0:
            print("FAIL %s: dwc-opt failed\n%s" % (args.family, low.stderr[-4000:]))
            return 1
        run = subprocess.run([args.runner, "-e", "main",
                              "-entry-point-result=void",
                              "--shared-libs=" + libs],
                             input=low.stdout, capture_output=True, text=True)
        if run.returncode != 0:
            print("FAIL %s: mlir-runner failed\n%s" % (args.family, run.stderr[-4000:]))
            return 1
    outs = parse_outputs(run.stdout)
    if len(outs) != len(cases):
        print("FAIL %s: %d results printed for %d cases" %
              (args.family, len(outs), len(cases)))
        return 1
    failed = 0
    for case, got in zip(cases, outs):
        ok, msg = compare(case, decode(got, case.out_ty), args.inject_error)
        print("%s %s %s (%s)" % ("PASS" if ok else "FAIL", case.name,
                                 case.out_ty, msg))
        failed += not ok
    print("%s: %d passed, %d failed" % (args.family, len(cases) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
