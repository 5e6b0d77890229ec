"""Static layer specifications of depthwise convolutions and their MLIR.

Pure Python (no torch, no MLIR bindings): used on the development machine to
write the three tensor-level functions that dwc-aot compiles for one layer
(forward, backward-data, backward-filter) and, on the GPU machine, to find
the compiled entry points of a layer from its static configuration.

A spec is what nn.Conv2d(C, C, k, groups=C, ...) fixes plus the input shape:
N, C, H, W, the filter (kh, kw), strides, dilations, the padding as
[top, bottom, left, right] and the element type.
"""

from dataclasses import asdict, dataclass, field
from typing import List, Sequence, Tuple, Union

# Element types of the dwc depthwise ops (f64 runs on the direct kernels).
DTYPES = ("f32", "f16", "bf16", "f64")
ESIZE = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2}
# torch dtype names, for code that has torch.
TORCH_NAMES = {"f64": "float64", "f32": "float32", "f16": "float16",
               "bf16": "bfloat16"}
OPS = ("fwd", "bwd_data", "bwd_filter", "bwd_bias")


def _pair(v, what) -> List[int]:
    if isinstance(v, int):
        return [v, v]
    v = list(v)
    if len(v) != 2 or not all(isinstance(i, int) for i in v):
        raise ValueError("%s must be an int or a pair of ints, got %r" % (what, v))
    return v


def normalize_padding(padding, kernel: Sequence[int],
                      dilation: Sequence[int]) -> List[int]:
    """nn.Conv2d padding (int, (ph, pw), 'same', 'valid') or an explicit
    [top, bottom, left, right] -> [top, bottom, left, right]. 'same' splits
    an odd total as PyTorch does (the extra row/column at the end)."""
    if isinstance(padding, str):
        if padding == "valid":
            return [0, 0, 0, 0]
        if padding == "same":
            out = []
            for k, d in zip(kernel, dilation):
                total = d * (k - 1)
                out += [total // 2, total - total // 2]
            return out
        raise ValueError("padding must be 'same', 'valid', an int, a pair or "
                         "4 values, got %r" % padding)
    if isinstance(padding, int):
        return [padding] * 4
    p = list(padding)
    if len(p) == 2:
        return [p[0], p[0], p[1], p[1]]
    if len(p) == 4:
        return p
    raise ValueError("padding must have 1, 2 or 4 values, got %r" % (padding,))


def conv_out(size: int, k: int, s: int, d: int, p0: int, p1: int) -> int:
    return (size + p0 + p1 - d * (k - 1) - 1) // s + 1


@dataclass(frozen=True)
class LayerSpec:
    N: int
    C: int
    H: int
    W: int
    kernel: Tuple[int, int]
    stride: Tuple[int, int] = (1, 1)
    padding: Tuple[int, int, int, int] = (0, 0, 0, 0)
    dilation: Tuple[int, int] = (1, 1)
    dtype: str = "f32"
    bias: bool = False

    @staticmethod
    def make(N, C, H, W, kernel, stride=1, padding=0, dilation=1,
             dtype="f32", bias=False) -> "LayerSpec":
        k = _pair(kernel, "kernel")
        d = _pair(dilation, "dilation")
        s = _pair(stride, "stride")
        p = normalize_padding(padding, k, d)
        spec = LayerSpec(int(N), int(C), int(H), int(W), tuple(k), tuple(s),
                         tuple(p), tuple(d), dtype, bool(bias))
        spec.validate()
        return spec

    def validate(self):
        if self.dtype not in DTYPES:
            raise ValueError("dtype must be one of %s, got %r" % (DTYPES, self.dtype))
        if min(self.N, self.C, self.H, self.W) <= 0:
            raise ValueError("N, C, H, W must be positive: %r" % (self,))
        if min(self.kernel + self.stride + self.dilation) <= 0:
            raise ValueError("kernel, stride and dilation must be positive")
        if min(self.padding) < 0:
            raise ValueError("padding must be non-negative")
        if self.OH <= 0 or self.OW <= 0:
            raise ValueError("the (dilated) filter is larger than the padded "
                             "input: %r" % (self,))

    @property
    def OH(self) -> int:
        return conv_out(self.H, self.kernel[0], self.stride[0], self.dilation[0],
                        self.padding[0], self.padding[1])

    @property
    def OW(self) -> int:
        return conv_out(self.W, self.kernel[1], self.stride[1], self.dilation[1],
                        self.padding[2], self.padding[3])

    @property
    def grad_filter_dtype(self) -> str:
        """Element type of dW as computed: f32 for f16/bf16 inputs (summed
        in f32 and rounded once, the caller casts to the weight's type)."""
        return "f32" if self.dtype in ("f16", "bf16") else self.dtype

    @property
    def key(self) -> str:
        """Stable name; the MLIR function of op `op` is `<op>_<key>` and its C
        entry point `dwc_<op>_<key>`."""
        x = lambda v: "x".join(map(str, v))
        k = "dwt_n%dc%dh%dw%d_k%s_s%s_d%s_p%s_%s" % (
            self.N, self.C, self.H, self.W, x(self.kernel), x(self.stride),
            x(self.dilation), x(self.padding), self.dtype)
        return k + ("_bias" if self.bias else "")

    def spec_string(self) -> str:
        """The parse_spec form (python -m dwc_torch.aot --spec ...)."""
        x = lambda v: "x".join(map(str, v))
        return "%d,%d,%d,%d,%s,%s,%s,%s,%s,%s" % (
            self.N, self.C, self.H, self.W, x(self.kernel), x(self.stride), x(self.padding),
            x(self.dilation), self.dtype, "bias" if self.bias else "nobias")

    def func_name(self, op: str) -> str:
        assert op in OPS, op
        return "%s_%s" % (op, self.key)

    def symbol(self, op: str) -> str:
        return "dwc_" + self.func_name(op)

    def to_dict(self) -> dict:
        d = asdict(self)
        for k in ("kernel", "stride", "padding", "dilation"):
            d[k] = list(d[k])
        d.update(key=self.key, OH=self.OH, OW=self.OW)
        return d

    @staticmethod
    def from_dict(d: dict) -> "LayerSpec":
        return LayerSpec.make(d["N"], d["C"], d["H"], d["W"], d["kernel"],
                              d["stride"], d["padding"], d["dilation"],
                              d["dtype"], d["bias"])

    # --- MLIR --------------------------------------------------------------
    def _types(self):
        e = self.dtype
        t = lambda *s: "tensor<%sx%s>" % ("x".join(map(str, s)), e)
        return (t(self.N, self.H, self.W, self.C),
                t(self.kernel[0], self.kernel[1], self.C),
                t(self.C),
                t(self.N, self.OH, self.OW, self.C))

    def _attrs(self) -> str:
        lst = lambda v: "[" + ", ".join(map(str, v)) + "]"
        return "strides = %s dilations = %s padding = %s" % (
            lst(self.stride), lst(self.dilation), lst(self.padding))

    def mlir(self, op: str) -> str:
        """Tensor-level func.func of one op (results become out-params)."""
        tx, tw, tb, ty = self._types()
        name = self.func_name(op)
        head = "// Generated by python/dwc_torch/spec.py: %s of %s\n" % (op, self.key)
        if op == "fwd":
            args = "%%x: %s, %%w: %s" % (tx, tw) + (", %%b: %s" % tb if self.bias else "")
            bias = " bias(%%b : %s)" % tb if self.bias else ""
            return head + (
                "func.func @%s(%s) -> %s {\n"
                "  %%init = tensor.empty() : %s\n"
                "  %%y = dwc.depthwise_conv2d ins(%%x, %%w : %s, %s)%s outs(%%init : %s)\n"
                "         %s -> %s\n"
                "  return %%y : %s\n}\n") % (name, args, ty, ty, tx, tw, bias, ty,
                                             self._attrs(), ty, ty)
        if op == "bwd_data":
            return head + (
                "func.func @%s(%%dy: %s, %%w: %s) -> %s {\n"
                "  %%init = tensor.empty() : %s\n"
                "  %%dx = dwc.depthwise_conv2d_backward_data ins(%%dy, %%w : %s, %s)"
                " outs(%%init : %s)\n"
                "         %s -> %s\n"
                "  return %%dx : %s\n}\n") % (name, ty, tw, tx, tx, ty, tw, tx,
                                              self._attrs(), tx, tx)
        if op == "bwd_filter":
            tdw = "tensor<%dx%dx%dx%s>" % (self.kernel[0], self.kernel[1], self.C,
                                           self.grad_filter_dtype)
            return head + (
                "func.func @%s(%%x: %s, %%dy: %s) -> %s {\n"
                "  %%init = tensor.empty() : %s\n"
                "  %%dw = dwc.depthwise_conv2d_backward_filter ins(%%x, %%dy : %s, %s)"
                " outs(%%init : %s)\n"
                "         %s -> %s\n"
                "  return %%dw : %s\n}\n") % (name, tx, ty, tdw, tdw, tx, ty, tdw,
                                              self._attrs(), tdw, tdw)
        if op == "bwd_bias":
            if not self.bias:
                raise ValueError("bwd_bias of a layer without bias: %s" % self.key)
            tdb = "tensor<%dx%s>" % (self.C, self.grad_filter_dtype)
            return head + (
                "func.func @%s(%%dy: %s) -> %s {\n"
                "  %%init = tensor.empty() : %s\n"
                "  %%db = dwc.conv2d_backward_bias ins(%%dy : %s) outs(%%init : %s) -> %s\n"
                "  return %%db : %s\n}\n") % (name, ty, tdb, tdb, ty, tdb, tdb, tdb)
        raise ValueError(op)


def parse_spec(text: str) -> LayerSpec:
    """'N,C,H,W,k[,stride[,padding[,dilation[,dtype[,bias]]]]]' where k,
    stride, dilation are 'a' or 'axb', padding 'p', 'phxpw', 'same', 'valid'
    or 'ptxpbxplxpr', bias 'bias'/'nobias'. Example: 64,64,32,32,7,1,3,1,f32,bias"""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) < 5:
        raise ValueError("spec %r: need at least N,C,H,W,kernel" % text)

    def ints(v):
        return [int(i) for i in v.split("x")]

    def one_or_pair(v):
        i = ints(v)
        return i[0] if len(i) == 1 else i

    N, C, H, W = (int(p) for p in parts[:4])
    kernel = one_or_pair(parts[4])
    stride = one_or_pair(parts[5]) if len(parts) > 5 else 1
    pad = parts[6] if len(parts) > 6 else "0"
    padding = pad if pad in ("same", "valid") else (
        ints(pad)[0] if len(ints(pad)) == 1 else ints(pad))
    dilation = one_or_pair(parts[7]) if len(parts) > 7 else 1
    dtype = parts[8] if len(parts) > 8 else "f32"
    bias = len(parts) > 9 and parts[9] == "bias"
    if len(parts) > 9 and parts[9] not in ("bias", "nobias"):
        raise ValueError("spec %r: the 10th field is 'bias' or 'nobias'" % text)
    return LayerSpec.make(N, C, H, W, kernel, stride, padding, dilation, dtype, bias)


# --- registry keys -----------------------------------------------------------
# The C++ extension (csrc/dwc_ops.cpp) looks kernels up by a tuple of ints
# built from the call's shapes and attributes; on a miss it hands that tuple
# to Python (kernels.resolve), which decodes it with spec_from_key. The
# layout must match key builders of csrc/dwc_ops.cpp:
#   [op, dtype, N, C, H, W, <op fields>]
OP_IDS = {"fwd": 0, "bwd_data": 1, "bwd_filter": 2, "pool_fwd": 3,
          "pool_bwd": 4, "gap": 5, "conv_fwd": 6, "gap_bwd": 7, "bwd_bias": 8,
          "fused_fwd": 9}
OP_NAMES = {v: k for k, v in OP_IDS.items()}
DTYPE_IDS = {"f32": 0, "f16": 1, "bf16": 2, "f64": 3}
DTYPE_NAMES = {v: k for k, v in DTYPE_IDS.items()}
POOL_KINDS = ("max", "avg")


def _layer_key(self, op):
    """Registry key of one op of a depthwise LayerSpec."""
    return ([OP_IDS[op], DTYPE_IDS[self.dtype], self.N, self.C, self.H, self.W]
            + list(self.kernel) + list(self.stride) + list(self.dilation)
            + list(self.padding) + [int(self.bias and op in ("fwd", "bwd_bias"))])


LayerSpec.registry_key = _layer_key
LayerSpec.family = "dw"


@dataclass(frozen=True)
class PoolSpec:
    """nn.MaxPool2d / nn.AvgPool2d on an N x C x H x W input (dilation 1)."""
    N: int
    C: int
    H: int
    W: int
    kind: str
    window: Tuple[int, int]
    stride: Tuple[int, int]
    padding: Tuple[int, int, int, int]
    ceil_mode: bool = False
    count_include_pad: bool = True
    dtype: str = "f32"
    family = "pool"

    @staticmethod
    def make(N, C, H, W, kind, window, stride=None, padding=0, ceil_mode=False,
             count_include_pad=True, dtype="f32"):
        k = _pair(window, "window")
        s = k if stride is None else _pair(stride, "stride")
        p = normalize_padding(padding, k, (1, 1))
        spec = PoolSpec(int(N), int(C), int(H), int(W), kind, tuple(k), tuple(s),
                        tuple(p), bool(ceil_mode),
                        bool(count_include_pad) if kind == "avg" else False, dtype)
        spec.validate()
        return spec

    def validate(self):
        if self.kind not in POOL_KINDS:
            raise ValueError("pool kind must be max or avg, got %r" % self.kind)
        if self.dtype not in ("f32", "f16", "bf16"):
            raise ValueError("pool dtype must be f32, f16 or bf16, got %r" % self.dtype)
        if min(self.N, self.C, self.H, self.W, *self.window, *self.stride) <= 0:
            raise ValueError("sizes, window and strides must be positive: %r" % (self,))
        if any(self.padding[i] >= self.window[i // 2] for i in range(4)):
            raise ValueError("each padding must be smaller than the window")
        if self.OH <= 0 or self.OW <= 0:
            raise ValueError("the window is larger than the padded input: %r" % (self,))

    def _out(self, size, k, s, p0, p1):
        if not self.ceil_mode:
            return (size + p0 + p1 - k) // s + 1
        o = -(-(size + p0 + p1 - k) // s) + 1
        if (o - 1) * s >= size + p0:
            o -= 1
        return o

    @property
    def OH(self):
        return self._out(self.H, self.window[0], self.stride[0], *self.padding[0:2])

    @property
    def OW(self):
        return self._out(self.W, self.window[1], self.stride[1], *self.padding[2:4])

    @property
    def key(self):
        x = lambda v: "x".join(map(str, v))
        return "pool%s_n%dc%dh%dw%d_k%s_s%s_p%s%s%s_%s" % (
            self.kind, self.N, self.C, self.H, self.W, x(self.window), x(self.stride),
            x(self.padding), "_ceil" if self.ceil_mode else "",
            "_cip" if self.count_include_pad else "", self.dtype)

    def func_name(self, op):
        return "%s_%s" % (op, self.key)

    def symbol(self, op):
        return "dwc_" + self.func_name(op)

    def registry_key(self, op):
        return ([OP_IDS[op], DTYPE_IDS[self.dtype], self.N, self.C, self.H, self.W,
                 POOL_KINDS.index(self.kind)] + list(self.window) + list(self.stride)
                + list(self.padding) + [int(self.ceil_mode), int(self.count_include_pad)])

    def _t(self, h, w):
        return "tensor<%dx%dx%dx%dx%s>" % (self.N, h, w, self.C, self.dtype)

    def _attrs(self):
        lst = lambda v: "[" + ", ".join(map(str, v)) + "]"
        return "window = %s strides = %s padding = %s%s%s" % (
            lst(self.window), lst(self.stride), lst(self.padding),
            " ceil_mode" if self.ceil_mode else "",
            " count_include_pad" if self.count_include_pad else "")

    def mlir(self, op):
        tx, ty = self._t(self.H, self.W), self._t(self.OH, self.OW)
        name = self.func_name(op)
        head = "// Generated by python/dwc_torch/spec.py: %s of %s\n" % (op, self.key)
        if op == "pool_fwd":
            return head + (
                "func.func @%s(%%x: %s) -> %s {\n"
                "  %%init = tensor.empty() : %s\n"
                "  %%y = dwc.pool2d %s ins(%%x : %s) outs(%%init : %s)\n"
                "         %s -> %s\n"
                "  return %%y : %s\n}\n") % (name, tx, ty, ty, self.kind, tx, ty,
                                             self._attrs(), ty, ty)
        if op == "pool_bwd":
            return head + (
                "func.func @%s(%%x: %s, %%dy: %s) -> %s {\n"
                "  %%init = tensor.empty() : %s\n"
                "  %%dx = dwc.pool2d_backward %s ins(%%x, %%dy : %s, %s) outs(%%init : %s)\n"
                "         %s -> %s\n"
                "  return %%dx : %s\n}\n") % (name, tx, ty, tx, tx, self.kind, tx, ty, tx,
                                              self._attrs(), tx, tx)
        raise ValueError(op)


@dataclass(frozen=True)
class GapSpec:
    """Global average pooling (nn.AdaptiveAvgPool2d(1)) of N x C x H x W."""
    N: int
    C: int
    H: int
    W: int
    dtype: str = "f32"
    family = "gap"

    @staticmethod
    def make(N, C, H, W, dtype="f32"):
        s = GapSpec(int(N), int(C), int(H), int(W), dtype)
        if dtype not in ("f32", "f16", "bf16") or min(s.N, s.C, s.H, s.W) <= 0:
            raise ValueError("bad global average pool spec %r" % (s,))
        return s

    @property
    def key(self):
        return "gap_n%dc%dh%dw%d_%s" % (self.N, self.C, self.H, self.W, self.dtype)

    def func_name(self, op):
        return "%s_%s" % (op, self.key)

    def symbol(self, op):
        return "dwc_" + self.func_name(op)

    def registry_key(self, op):
        return [OP_IDS[op], DTYPE_IDS[self.dtype], self.N, self.C, self.H, self.W]

    def mlir(self, op):
        """`gap`: the mean over H x W; `gap_bwd`: its gradient, dX = dY / (H * W)
        broadcast over the map (dwc.pool2d_backward avg whose window is the whole
        input, which dwc-select-kernels gives #dwc.global_pool_backward). The
        gradient's %x only gives the shape: the kernel does not read it."""
        tx = "tensor<%dx%dx%dx%dx%s>" % (self.N, self.H, self.W, self.C, self.dtype)
        ty = "tensor<%dx1x1x%dx%s>" % (self.N, self.C, self.dtype)
        head = "// Generated by python/dwc_torch/spec.py: %s of %s\n" % (op, self.key)
        if op == "gap":
            return head + (
                "func.func @%s(%%x: %s) -> %s {\n"
                "  %%init = tensor.empty() : %s\n"
                "  %%y = dwc.global_avg_pool ins(%%x : %s) outs(%%init : %s) -> %s\n"
                "  return %%y : %s\n}\n") % (self.func_name(op), tx, ty, ty, tx, ty, ty, ty)
        if op == "gap_bwd":
            return head + (
                "func.func @%s(%%x: %s, %%dy: %s) -> %s {\n"
                "  %%init = tensor.empty() : %s\n"
                "  %%dx = dwc.pool2d_backward avg ins(%%x, %%dy : %s, %s) outs(%%init : %s)\n"
                "         window = [%d, %d] strides = [%d, %d] padding = [0, 0, 0, 0] -> %s\n"
                "  return %%dx : %s\n}\n") % (self.func_name(op), tx, ty, tx, tx, tx, ty, tx,
                                              self.H, self.W, self.H, self.W, tx, tx)
        raise ValueError(op)


@dataclass(frozen=True)
class ConvSpec:
    """Dense nn.Conv2d(C, OC, k, groups=1) forward on N x C x H x W."""
    N: int
    C: int
    H: int
    W: int
    OC: int
    kernel: Tuple[int, int]
    stride: Tuple[int, int] = (1, 1)
    padding: Tuple[int, int, int, int] = (0, 0, 0, 0)
    dilation: Tuple[int, int] = (1, 1)
    dtype: str = "f32"
    bias: bool = False
    family = "conv"

    @staticmethod
    def make(N, C, H, W, OC, kernel, stride=1, padding=0, dilation=1, dtype="f32",
             bias=False):
        k, s, d = _pair(kernel, "kernel"), _pair(stride, "stride"), _pair(dilation, "dilation")
        p = normalize_padding(padding, k, d)
        spec = ConvSpec(int(N), int(C), int(H), int(W), int(OC), tuple(k), tuple(s),
                        tuple(p), tuple(d), dtype, bool(bias))
        if dtype not in DTYPES or min(spec.N, spec.C, spec.H, spec.W, spec.OC) <= 0 \
                or spec.OH <= 0 or spec.OW <= 0:
            raise ValueError("bad conv2d spec %r" % (spec,))
        return spec

    OH = LayerSpec.OH
    OW = LayerSpec.OW

    @property
    def key(self):
        x = lambda v: "x".join(map(str, v))
        return "conv_n%dc%dh%dw%d_o%d_k%s_s%s_d%s_p%s_%s%s" % (
            self.N, self.C, self.H, self.W, self.OC, x(self.kernel), x(self.stride),
            x(self.dilation), x(self.padding), self.dtype, "_bias" if self.bias else "")

    def func_name(self, op):
        return "%s_%s" % (op, self.key)

    def symbol(self, op):
        return "dwc_" + self.func_name(op)

    def registry_key(self, op):
        return ([OP_IDS[op], DTYPE_IDS[self.dtype], self.N, self.C, self.H, self.W, self.OC]
                + list(self.kernel) + list(self.stride) + list(self.dilation)
                + list(self.padding) + [int(self.bias)])

    def mlir(self, op):
        if op != "conv_fwd":
            raise ValueError(op)
        e = self.dtype
        t = lambda *s: "tensor<%sx%s>" % ("x".join(map(str, s)), e)
        tx, tw = t(self.N, self.H, self.W, self.C), t(self.kernel[0], self.kernel[1], self.C, self.OC)
        tb, ty = t(self.OC), t(self.N, self.OH, self.OW, self.OC)
        args = "%%x: %s, %%w: %s" % (tx, tw) + (", %%b: %s" % tb if self.bias else "")
        bias = " bias(%%b : %s)" % tb if self.bias else ""
        return ("// Generated by python/dwc_torch/spec.py: conv_fwd of %s\n"
                "func.func @%s(%s) -> %s {\n"
                "  %%init = tensor.empty() : %s\n"
                "  %%y = dwc.conv2d ins(%%x, %%w : %s, %s)%s outs(%%init : %s)\n"
                "         %s -> %s\n"
                "  return %%y : %s\n}\n") % (self.key, self.func_name(op), args, ty, ty,
                                             tx, tw, bias, ty, LayerSpec._attrs(self), ty, ty)


# The fused activations of dwc.depthwise_conv2d ("" = none), in the order
# of their registry ids.
ACTIVATIONS = ("", "relu", "relu6", "silu", "sigmoid", "hardswish",
               "hardsigmoid", "gelu", "gelu_tanh")


@dataclass(frozen=True)
class FusedSpec:
    """A depthwise layer with its neighbours fused (inference): the
    prologue input_activation(x + input_bias) on the input as it is read,
    the epilogue activation on the output (dwc.depthwise_conv2d's fused
    form). Its one op is "fused_fwd"."""
    layer: LayerSpec
    act: str = ""
    in_act: str = ""
    in_bias: bool = False

    @staticmethod
    def make(layer, act="", in_act="", in_bias=False):
        spec = FusedSpec(layer, act or "", in_act or "", bool(in_bias))
        for a in (spec.act, spec.in_act):
            if a not in ACTIVATIONS:
                raise ValueError("activation must be one of %s, got %r"
                                 % (ACTIVATIONS[1:], a))
        return spec

    family = "fused"

    @property
    def dtype(self):
        return self.layer.dtype

    @property
    def key(self):
        return "%s_f%s_%s%s" % (self.layer.key, self.act or "none",
                                self.in_act or "none", "_ib" if self.in_bias else "")

    def func_name(self, op):
        assert op == "fused_fwd", op
        return "fused_fwd_" + self.key

    def symbol(self, op):
        return "dwc_" + self.func_name(op)

    def registry_key(self, op):
        return ([OP_IDS[op]] + _layer_key(self.layer, "fwd")[1:]
                + [ACTIVATIONS.index(self.act), ACTIVATIONS.index(self.in_act),
                   int(self.in_bias)])

    def to_dict(self):
        return {"family": self.family, "layer": self.layer.to_dict(), "act": self.act,
                "in_act": self.in_act, "in_bias": self.in_bias, "key": self.key}

    def mlir(self, op):
        """The forward with its fused prologue / epilogue as one func.func."""
        L = self.layer
        tx, tw, tb, ty = L._types()
        args = ["%%x: %s" % tx, "%%w: %s" % tw]
        operands = ""
        if L.bias:
            args.append("%%b: %s" % tb)
            operands += " bias(%%b : %s)" % tb
        if self.in_bias:
            args.append("%%ib: %s" % tb)
            operands += " input_bias(%%ib : %s)" % tb
        attrs = L._attrs()
        attrs += " activation = %s" % self.act if self.act else ""
        attrs += " input_activation = %s" % self.in_act if self.in_act else ""
        return ("// Generated by python/dwc_torch/spec.py: fused_fwd of %s\n"
                "func.func @%s(%s) -> %s {\n"
                "  %%init = tensor.empty() : %s\n"
                "  %%y = dwc.depthwise_conv2d ins(%%x, %%w : %s, %s)%s outs(%%init : %s)\n"
                "         %s -> %s\n"
                "  return %%y : %s\n}\n") % (self.key, self.func_name(op), ", ".join(args),
                                              ty, ty, tx, tw, operands, ty, attrs, ty, ty)


def spec_from_key(key):
    """(op name, spec) of a registry key (see OP_IDS)."""
    key = [int(k) for k in key]
    op, dt = OP_NAMES[key[0]], DTYPE_NAMES[key[1]]
    N, C, H, W = key[2:6]
    f = key[6:]
    if op == "fused_fwd":
        layer = LayerSpec.make(N, C, H, W, f[0:2], f[2:4], f[6:10], f[4:6], dt, bool(f[10]))
        return op, FusedSpec.make(layer, ACTIVATIONS[f[11]], ACTIVATIONS[f[12]], bool(f[13]))
    if op in ("fwd", "bwd_data", "bwd_filter", "bwd_bias"):
        return op, LayerSpec.make(N, C, H, W, f[0:2], f[2:4], f[6:10], f[4:6], dt,
                                  bool(f[10]))
    if op in ("pool_fwd", "pool_bwd"):
        return op, PoolSpec.make(N, C, H, W, POOL_KINDS[f[0]], f[1:3], f[3:5], f[5:9],
                                 bool(f[9]), bool(f[10]), dt)
    if op in ("gap", "gap_bwd"):
        return op, GapSpec.make(N, C, H, W, dt)
    return op, ConvSpec.make(N, C, H, W, f[0], f[1:3], f[3:5], f[7:11], f[5:7], dt,
                             bool(f[11]))


def layer_ops(spec, ops=OPS):
    """`ops` of a depthwise layer that it has: bwd_bias only with a bias."""
    return tuple(o for o in ops if o != "bwd_bias" or spec.bias)


def spec_ops(spec, train):
    """The ops a layer needs: forward only for inference, all for training."""
    fam = spec.family
    if fam == "dw":
        if not train:
            return ("fwd",)
        return ("fwd", "bwd_data", "bwd_filter") + (("bwd_bias",) if spec.bias else ())
    if fam == "pool":
        return ("pool_fwd", "pool_bwd") if train else ("pool_fwd",)
    if fam == "gap":
        return ("gap", "gap_bwd") if train else ("gap",)
    if fam == "fused":
        return ("fused_fwd",)
    return ("conv_fwd",)


def _generic_to_dict(self):
    d = {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items()}
    d["family"] = self.family
    d["key"] = self.key
    return d


for _cls in (PoolSpec, GapSpec, ConvSpec):
    _cls.to_dict = _generic_to_dict

_FAMILIES = {"dw": LayerSpec, "pool": PoolSpec, "gap": GapSpec, "conv": ConvSpec}


def spec_from_dict(d):
    """Any spec from its to_dict() (LayerSpec when 'family' is absent)."""
    fam = d.get("family", "dw")
    if fam == "dw":
        return LayerSpec.from_dict(d)
    if fam == "fused":
        return FusedSpec.make(LayerSpec.from_dict(d["layer"]), d.get("act", ""),
                              d.get("in_act", ""), d.get("in_bias", False))
    cls = _FAMILIES[fam]
    fields = {k: (tuple(v) if isinstance(v, list) else v) for k, v in d.items()
              if k in cls.__dataclass_fields__}
    return cls.make(**fields)
