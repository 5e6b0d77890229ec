"""What the benchmark assumes of the GPU it reports against (the lent H200,
measured: bench/results/README.md) and the cost model built on it: bytes
each op moves, FLOPs it does, and its floor, the time no kernel can beat."""

COPY_BPS = 4.24e12               # device copy, bytes read + written per second
FFMA_FLOPS = 60e12               # FP32 CUDA-core FMA peak
MMA16_FLOPS = 460e12 * 0.5625    # depthwise on mma.sync m16n8k8: 9 useful of 16
DENSE_MMA16_FLOPS = 620e12       # mma.sync m16n8k16 f16 -> f32 (dense conv2d)
L2_BYTES = 60 * 1024 * 1024      # operand sets rotate past 3x this
ESIZE = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8}
# ||ours - ref|| / ||ref|| against float64. bf16 keeps 8 significant bits:
# rounding the output alone costs ~1.7e-3, so 2e-3 would leave no margin.
TOLERANCE = {"f32": 1e-5, "f16": 2e-3, "bf16": 4e-3, "f64": 1e-12}


def _n(shape):
    out = 1
    for s in shape:
        out *= s
    return out


def tensor_shapes(spec, op):
    """{operand name: NHWC / HWC shape} of op `op` of `spec`: inputs in the
    entry point's order, then the output under 'out'."""
    fam = spec.family
    if fam == "dw":
        x, y = (spec.N, spec.H, spec.W, spec.C), (spec.N, spec.OH, spec.OW, spec.C)
        w = (spec.kernel[0], spec.kernel[1], spec.C)
        return {"fwd": {"x": x, "w": w, **({"b": (spec.C,)} if spec.bias else {}), "out": y},
                "bwd_data": {"dy": y, "w": w, "out": x},
                "bwd_filter": {"x": x, "dy": y, "out": w},
                "bwd_bias": {"dy": y, "out": (spec.C,)}}[op]
    if fam == "pool":
        x, y = (spec.N, spec.H, spec.W, spec.C), (spec.N, spec.OH, spec.OW, spec.C)
        return {"pool_fwd": {"x": x, "out": y}, "pool_bwd": {"x": x, "dy": y, "out": x}}[op]
    if fam == "gap":
        x, y = (spec.N, spec.H, spec.W, spec.C), (spec.N, 1, 1, spec.C)
        return {"gap": {"x": x, "out": y}, "gap_bwd": {"x": x, "dy": y, "out": x}}[op]
    x, y = (spec.N, spec.H, spec.W, spec.C), (spec.N, spec.OH, spec.OW, spec.OC)
    w = (spec.kernel[0], spec.kernel[1], spec.C, spec.OC)
    return {"x": x, "w": w, **({"b": (spec.OC,)} if spec.bias else {}), "out": y}


def bytes_moved(spec, op):
    """Every operand read once and the result written once (the gradient
    of global pooling does not read x)."""
    shapes = tensor_shapes(spec, op)
    skip = ("x",) if op == "gap_bwd" else ()
    return sum(_n(s) for k, s in shapes.items() if k not in skip) * ESIZE[spec.dtype]


def flops(spec, op):
    """Useful FLOPs: padding taps included, as the Flash-DWC count
    2 * N * OH * OW * C * FH * FW; one add per input element for pooling."""
    if spec.family == "dw":
        if op == "bwd_bias":
            return spec.N * spec.OH * spec.OW * spec.C
        return 2 * spec.N * spec.OH * spec.OW * spec.C * spec.kernel[0] * spec.kernel[1]
    if spec.family == "conv":
        return 2 * spec.N * spec.OH * spec.OW * spec.OC * spec.C * spec.kernel[0] * spec.kernel[1]
    return spec.N * spec.H * spec.W * spec.C


def peak_flops(spec):
    if spec.dtype in ("f32", "f64") or spec.family in ("pool", "gap"):
        return FFMA_FLOPS
    return DENSE_MMA16_FLOPS if spec.family == "conv" else MMA16_FLOPS


def floor_ms(spec, op):
    """max(bytes / copy bandwidth, FLOPs / the unit's peak), in ms."""
    return 1e3 * max(bytes_moved(spec, op) / COPY_BPS, flops(spec, op) / peak_flops(spec))
