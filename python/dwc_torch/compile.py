"""A torch.compile backend that does what convert() does inside a compiled
graph: depthwise F.conv2d / torch.conv2d calls become dwc::depthwise_conv2d
(and, with pools=True, 2-D max/avg pooling and global average pooling via
adaptive_avg_pool2d(1) become dwc::pool2d / dwc::global_avg_pool), then the
graph goes to an inner backend (default: inductor).

    model = torch.compile(model, backend=dwc_torch.backend())

Only calls whose arguments are static (ints, not tensors) are rewritten;
strided depthwise calls stay unless strided=True (as in convert)."""

import torch
import torch.nn.functional as F

from . import ops as _ops  # noqa: F401
from .spec import normalize_padding

_CONV = (torch.conv2d, F.conv2d)
_MAXPOOL = (F.max_pool2d, torch.max_pool2d)
_AVGPOOL = (F.avg_pool2d, torch._C._nn.avg_pool2d)


def _arg(node, i, name, default):
    if len(node.args) > i:
        return node.args[i]
    return node.kwargs.get(name, default)


def _pair(v):
    return list(v) if isinstance(v, (list, tuple)) else [v, v]


def _static(*vals):
    return all(isinstance(v, (int, str, bool, type(None))) or
               (isinstance(v, (list, tuple)) and all(isinstance(i, int) for i in v))
               for v in vals)


def _rewrite_conv(g, node, strided):
    x, w = node.args[0], _arg(node, 1, "weight", None)
    b = _arg(node, 2, "bias", None)
    stride, padding = _arg(node, 3, "stride", 1), _arg(node, 4, "padding", 0)
    dilation, groups = _arg(node, 5, "dilation", 1), _arg(node, 6, "groups", 1)
    wv = getattr(w, "meta", {}).get("example_value")
    if wv is None or not _static(stride, padding, dilation, groups) or wv.dim() != 4:
        return False
    C = wv.shape[0]
    if not (groups == C and wv.shape[1] == 1 and groups > 1):
        return False
    if _pair(stride) != [1, 1] and not strided:
        return False
    pad4 = normalize_padding(padding if isinstance(padding, str) else
                             (padding if isinstance(padding, int) else tuple(padding)),
                             list(wv.shape[2:]), _pair(dilation))
    with g.inserting_before(node):
        new = g.call_function(torch.ops.dwc.depthwise_conv2d.default,
                              (x, w, b, _pair(stride), pad4, _pair(dilation)))
    _replace(g, node, new)
    return True


def _rewrite_pool(g, node):
    x = node.args[0]
    k = _arg(node, 1, "kernel_size", None)
    s = _arg(node, 2, "stride", None) or k
    p = _arg(node, 3, "padding", 0)
    if node.target in _MAXPOOL:
        if _arg(node, 4, "dilation", 1) not in (1, [1, 1], (1, 1)) or \
                _arg(node, 6, "return_indices", False):
            return False
        args = ("max", _pair(k), _pair(s), None, bool(_arg(node, 5, "ceil_mode", False)), False)
    else:
        if _arg(node, 6, "divisor_override", None) is not None:
            return False
        args = ("avg", _pair(k), _pair(s), None, bool(_arg(node, 4, "ceil_mode", False)),
                bool(_arg(node, 5, "count_include_pad", True)))
    if not _static(k, s, p):
        return False
    pp = _pair(p)
    args = args[:3] + ([pp[0], pp[0], pp[1], pp[1]],) + args[4:]
    with g.inserting_before(node):
        new = g.call_function(torch.ops.dwc.pool2d.default, (x,) + args)
    _replace(g, node, new)
    return True


def _replace(g, node, new):
    new.meta.update(node.meta)  # shapes for the rewrites of later nodes
    node.replace_all_uses_with(new)
    g.erase_node(node)


def rewrite(gm, strided=False, pools=True):
    """Rewrites gm in place; returns the number of calls rewritten."""
    g, n = gm.graph, 0
    for node in list(g.nodes):
        if node.op != "call_function":
            continue
        xv = getattr(node.args[0], "meta", {}).get("example_value") if node.args else None
        if xv is None or getattr(xv, "dim", lambda: 0)() != 4:
            continue
        if node.target in _CONV:
            n += _rewrite_conv(g, node, strided)
        elif pools and (node.target in _MAXPOOL or node.target in _AVGPOOL):
            n += _rewrite_pool(g, node)
        elif pools and node.target is F.adaptive_avg_pool2d and \
                _pair(_arg(node, 1, "output_size", None)) == [1, 1]:
            with g.inserting_before(node):
                new = g.call_function(torch.ops.dwc.global_avg_pool.default, (node.args[0],))
            _replace(g, node, new)
            n += 1
    g.lint()
    gm.recompile()
    return n


def backend(inner="inductor", strided=False, pools=True):
    """A torch.compile backend: the dwc rewrite, then `inner` (a backend
    name or callable)."""
    from torch._dynamo import lookup_backend

    def compile_fn(gm, example_inputs):
        compile_fn.rewritten += rewrite(gm, strided, pools)
        inner_fn = lookup_backend(inner) if isinstance(inner, str) else inner
        return inner_fn(gm, example_inputs)
    compile_fn.rewritten = 0
    return compile_fn
