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
OPS = ("fwd", "bwd_data", "bwd_filter")


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
