"""Fusion of a depthwise convolution with its neighbours (inference).

In a MobileNet/EfficientNet block the depthwise convolution sits between
two BatchNorm + activation pairs:

    conv_pw -> BN_in -> act_in -> conv_dw -> BN_out -> act_out

Run apart (eager PyTorch), each BatchNorm and activation is a full pass over
the block's widest activation. In eval mode `fuse` folds them away:

* BN_out is folded into conv_dw's filter and bias, act_out becomes the
  kernel's epilogue (`activation`);
* BN_in's scale is folded into conv_pw's weight (conv_pw then runs without
  bias), its shift becomes the kernel's `input_bias` and act_in its
  `input_activation`: the depthwise kernel applies them to its input as it
  reads it (padding stays zeros of the activated tensor),

so the block runs conv_pw (cuDNN) -> one dwc kernel -> the rest. The
patterns are found on the model's torch.fx graph (a module's output must
feed only the next layer of the pattern, every module is called once);
the modules stay where they are (state_dict, hooks and parameters are the
user's), their forward switches in eval mode only: model.train() gives the
unfused layers back, and folded weights follow in-place updates (keyed on
version counters). The fused kernels are dwc.depthwise_conv2d ops with a
prologue/epilogue (spec.FusedSpec); without a kernel for a shape the fused
layer runs the same arithmetic on PyTorch's operators.
"""

import dataclasses
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

from .spec import ACTIVATIONS

log = logging.getLogger("dwc_torch")

# nn activation modules -> the dialect's activation names.
_ACT_MODULES = {nn.ReLU: "relu", nn.ReLU6: "relu6", nn.SiLU: "silu",
                nn.Sigmoid: "sigmoid", nn.Hardswish: "hardswish",
                nn.Hardsigmoid: "hardsigmoid"}


def activation_name(m):
    """The dialect name of activation module m, "" for nn.Identity, None for
    anything else."""
    if type(m) is nn.Identity:
        return ""
    if type(m) is nn.GELU:
        return {"none": "gelu", "tanh": "gelu_tanh"}.get(m.approximate)
    return _ACT_MODULES.get(type(m))


_ACT_FUNCTIONS = {
    "": lambda t: t, "relu": F.relu, "relu6": F.relu6, "silu": F.silu,
    "sigmoid": torch.sigmoid, "hardswish": F.hardswish, "hardsigmoid": F.hardsigmoid,
    "gelu": F.gelu, "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
}


def apply_activation(name, t):
    return _ACT_FUNCTIONS[name](t)


def _is_norm(m):
    """A BatchNorm2d whose eval form is an affine map of running stats."""
    return isinstance(m, nn.BatchNorm2d) and m.running_mean is not None


def _norm_activation(m):
    """The activation a BatchNorm module applies after itself (timm's
    BatchNormAct2d: `act`, with `drop` an identity), "" for a plain
    BatchNorm2d, None when it applies something dwc cannot fold."""
    if type(m) is nn.BatchNorm2d:
        return ""
    act, drop = getattr(m, "act", None), getattr(m, "drop", None)
    if act is None or (drop is not None and type(drop) is not nn.Identity):
        return None
    return activation_name(act)


def _is_depthwise(m):
    return (isinstance(m, nn.Conv2d) and m.groups == m.in_channels == m.out_channels
            and m.groups > 1 and m.padding_mode == "zeros")


class _Tracer(torch.fx.Tracer):
    """Keeps convolutions, norms and activations as call_module nodes."""

    def is_leaf_module(self, m, qualname):
        if isinstance(m, (nn.Conv2d, nn.BatchNorm2d)) or activation_name(m) or \
                type(m).__module__.startswith("dwc_torch"):  # converted layers
            return True
        return super().is_leaf_module(m, qualname)


@dataclasses.dataclass
class Pattern:
    """Names of the modules of one fusion: the depthwise conv, the norm
    (and activation module) after it, and optionally the convolution, norm
    and activation before it."""
    dw: str
    norm: str
    act: str = None          # a separate activation module after the norm
    act_name: str = ""
    in_conv: str = None
    in_norm: str = None
    in_act: str = None
    in_act_name: str = ""


def _single_user(node):
    users = list(node.users)
    return users[0] if len(users) == 1 else None


def _module_node(node, modules, calls, test):
    """`node` if it is the only call of a module passing `test`, else None."""
    if node is None or node.op != "call_module" or calls.get(node.target, 0) != 1:
        return None
    return node if test(modules[node.target]) else None


def _norm_then_act(node, modules, calls):
    """(norm node, activation node or None, activation name) of a norm at
    `node` followed by an optional activation module, or None."""
    norm = _module_node(node, modules, calls, _is_norm)
    if norm is None:
        return None
    name = _norm_activation(modules[norm.target])
    if name is None:
        return None
    if name == "" and type(modules[norm.target]) is nn.BatchNorm2d:
        act = _module_node(_single_user(norm), modules, calls,
                           lambda m: bool(activation_name(m)))
        if act is not None:
            return norm, act, activation_name(modules[act.target])
    return norm, None, name


def _prologue(dw_node, modules, calls):
    """(conv, norm, act, act name) feeding the depthwise conv, or None."""
    src = dw_node.args[0] if dw_node.args else None
    if not isinstance(src, torch.fx.Node) or _single_user(src) is not dw_node:
        return None
    act = None
    if src.op == "call_module" and activation_name(modules.get(src.target)) and \
            type(modules[src.target]) is not nn.Identity:
        act = _module_node(src, modules, calls, lambda m: True)
        src = act.args[0] if act is not None and act.args else None
        if not isinstance(src, torch.fx.Node) or _single_user(src) is not act:
            return None
    norm = _module_node(src, modules, calls, _is_norm)
    if norm is None:
        return None
    norm_act = _norm_activation(modules[norm.target])
    if norm_act is None or (act is not None and norm_act):
        return None
    conv_node = norm.args[0] if norm.args else None
    if not isinstance(conv_node, torch.fx.Node) or _single_user(conv_node) is not norm:
        return None
    conv = _module_node(conv_node, modules, calls,
                        lambda m: type(m) is nn.Conv2d and m.out_channels ==
                        modules[norm.target].num_features)
    if conv is None:
        return None
    name = activation_name(modules[act.target]) if act is not None else norm_act
    return conv.target, norm.target, act.target if act is not None else None, name


def find_patterns(model):
    """The fusable depthwise layers of `model` (a list of Pattern), or []
    with a log line when the model does not trace."""
    try:
        graph = _Tracer().trace(model)
    except Exception as e:  # data-dependent control flow, custom ops, ...
        log.info("dwc_torch: no fusion, the model does not trace with torch.fx: %s",
                 str(e).splitlines()[0] if str(e) else type(e).__name__)
        return []
    modules = dict(model.named_modules())
    calls = {}
    for n in graph.nodes:
        if n.op == "call_module":
            calls[n.target] = calls.get(n.target, 0) + 1
    found = []
    for n in graph.nodes:
        dw = _module_node(n, modules, calls, _is_depthwise)
        if dw is None:
            continue
        after = _norm_then_act(_single_user(dw), modules, calls)
        if after is None:
            continue
        norm, act, act_name = after
        p = Pattern(dw.target, norm.target, act.target if act is not None else None,
                    act_name)
        before = _prologue(dw, modules, calls)
        if before is not None:
            p.in_conv, p.in_norm, p.in_act, p.in_act_name = before
        found.append(p)
    return found


def _norm_affine(norm):
    """(scale, shift) of a BatchNorm in eval mode, in f32."""
    scale = norm.weight.float() if norm.weight is not None else \
        torch.ones_like(norm.running_var, dtype=torch.float32)
    scale = scale * torch.rsqrt(norm.running_var.float() + norm.eps)
    shift = -norm.running_mean.float() * scale
    if norm.bias is not None:
        shift = shift + norm.bias.float()
    return scale, shift


def _version_tag(tensors):
    return tuple((t._version, t.data_ptr()) if t is not None else None for t in tensors)


class FusedState:
    """The folded weights of one fusion, refreshed when a parameter or
    buffer of its modules changes."""

    def __init__(self, pattern, modules):
        self.pattern = pattern
        self.dw = modules[pattern.dw]
        self.norm = modules[pattern.norm]
        self.in_conv = modules.get(pattern.in_conv)
        self.in_norm = modules.get(pattern.in_norm)
        self.enabled = True
        self.act = ACTIVATIONS.index(pattern.act_name)
        self.in_act = ACTIVATIONS.index(pattern.in_act_name)
        self._tag, self._value = None, None
        self._in_tag, self._in_weight = None, None

    def _tensors(self, *mods):
        out = []
        for m in mods:
            if m is not None:
                out += [m.weight, m.bias]
                if isinstance(m, nn.BatchNorm2d):
                    # The running statistics are updated in place by the
                    # batch-norm kernel of a training step, which need not
                    # bump their version counters; the step counter is
                    # bumped with them (momentum=None included).
                    out += [m.running_mean, m.running_var, m.num_batches_tracked]
        return out

    def _fold(self, dtype):
        scale, shift = _norm_affine(self.norm)
        w = self.dw.weight.float() * scale.view(-1, 1, 1, 1)
        b = shift if self.dw.bias is None else shift + self.dw.bias.float() * scale
        ib = None
        if self.in_norm is not None:
            s_in, ib = _norm_affine(self.in_norm)
            if self.in_conv.bias is not None:
                ib = ib + self.in_conv.bias.float() * s_in
            ib = ib.to(dtype).contiguous()
        hwc = w.reshape(w.shape[0], -1).t().contiguous().to(dtype)
        return w.to(dtype), hwc, b.to(dtype).contiguous(), ib

    def _fold_in_weight(self):
        s_in, _ = _norm_affine(self.in_norm)
        w = self.in_conv.weight
        return (w.float() * s_in.view(-1, 1, 1, 1)).to(w.dtype)

    def folded(self, dtype):
        """(filter OIHW, filter as the kernels read it, bias, input_bias) in
        `dtype`; cached on the version counters in eager mode, traced
        (inductor fuses the few small ops) under torch.compile."""
        if torch.compiler.is_compiling():
            return self._fold(dtype)
        tag = (_version_tag(self._tensors(self.dw, self.norm, self.in_conv, self.in_norm)),
               dtype)
        if tag != self._tag:
            with torch.no_grad():
                self._value = self._fold(dtype)
            self._tag = tag
        return self._value

    def in_weight(self):
        """conv_pw's weight with BN_in's scale folded in (its own dtype)."""
        if torch.compiler.is_compiling():
            return self._fold_in_weight()
        tag = _version_tag(self._tensors(self.in_conv, self.in_norm))
        if tag != self._in_tag:
            with torch.no_grad():
                self._in_weight = self._fold_in_weight()
            self._in_tag = tag
        return self._in_weight


def _active(module, state):
    return state.enabled and not module.training


def _reference(state, x, w, b, ib):
    """The fused layer on PyTorch's operators (its exact arithmetic)."""
    dw = state.dw
    if ib is not None:
        x = x + ib.to(x.dtype).view(1, -1, 1, 1)
    x = apply_activation(ACTIVATIONS[state.in_act], x)
    y = F.conv2d(x, w.to(x.dtype), b.to(x.dtype), dw.stride, dw.padding, dw.dilation,
                 dw.groups)
    return apply_activation(ACTIVATIONS[state.act], y)


def _compute_dtype(x):
    dev = x.device.type
    if torch.is_autocast_enabled(dev) and x.dtype == torch.float32:
        return torch.get_autocast_dtype(dev)
    return x.dtype


def fused_dw_forward(module, x):
    state = module.__dict__["_dwc_fused"]
    if not _active(module, state):
        return type(module).forward(module, x)
    dtype = _compute_dtype(x)
    x = x.to(dtype)
    w, hwc, b, ib = state.folded(dtype)
    if x.is_cuda:
        y = _fused_call(state, module, x, hwc, b, ib, w)
        if y is not None:
            return y
    return _reference(state, x, w, b, ib)


def _fused_call(state, module, x, hwc, b, ib, w):
    from .spec import normalize_padding
    k = list(module.kernel_size)
    pad = normalize_padding(module.padding, module.kernel_size, module.dilation)
    if torch.compiler.is_compiling():
        return torch.ops.dwc.fused_depthwise_conv2d(
            x, w, hwc, b, ib, k, list(module.stride), pad, list(module.dilation),
            state.act, state.in_act)
    from .extension import loaded_extension
    ext = loaded_extension()
    if ext is None:
        return None
    y = ext.fused_forward(x, hwc, b, ib, k, list(module.stride), pad,
                          list(module.dilation), state.act, state.in_act)
    if y is not None and not x.is_contiguous(memory_format=torch.channels_last):
        y = y.contiguous()  # PyTorch's convolution keeps the input's format
    return y


def _absorbed_forward(module, x):
    state = module.__dict__["_dwc_absorbed"]
    if _active(module, state):
        return x
    return type(module).forward(module, x)


def _prologue_conv_forward(module, x):
    state = module.__dict__["_dwc_prologue"]
    if not _active(module, state):
        return type(module).forward(module, x)
    return module._conv_forward(x, state.in_weight(), None)


def _set_forward(module, key, state, fn):
    module.__dict__[key] = state
    module.forward = fn.__get__(module)


def apply(model, patterns):
    """Installs the fusions in place; returns their states."""
    modules = dict(model.named_modules())
    states = []
    for p in patterns:
        st = FusedState(p, modules)
        _set_forward(modules[p.dw], "_dwc_fused", st, fused_dw_forward)
        for name in (p.norm, p.act, p.in_norm, p.in_act):
            if name is not None:
                _set_forward(modules[name], "_dwc_absorbed", st, _absorbed_forward)
        if p.in_conv is not None:
            _set_forward(modules[p.in_conv], "_dwc_prologue", st, _prologue_conv_forward)
        states.append(st)
    return states


def remove(model):
    """Undoes apply (the modules' own forwards again)."""
    for m in model.modules():
        for key in ("_dwc_fused", "_dwc_absorbed", "_dwc_prologue"):
            if m.__dict__.pop(key, None) is not None:
                m.__dict__.pop("forward", None)


def set_enabled(states, on):
    for st in states:
        st.enabled = bool(on)


def fused_specs(model, example_shape_by_name, dtype_name):
    """The FusedSpecs of the fusions of `model`, from the input shapes of
    their depthwise layers (name -> (N, C, H, W))."""
    from .spec import FusedSpec, LayerSpec
    out = []
    modules = dict(model.named_modules())
    for p in find_patterns(model):
        shape = example_shape_by_name.get(p.dw)
        if shape is None:
            continue
        m = modules[p.dw]
        layer = LayerSpec.make(*shape, m.kernel_size, m.stride, m.padding, m.dilation,
                               dtype_name, True)
        out.append(FusedSpec.make(layer, p.act_name, p.in_act_name, p.in_norm is not None))
    return out


def _register_op():
    """dwc::fused_depthwise_conv2d for torch.compile (opaque to inductor;
    its CUDA kernel is the extension's, PyTorch's operators otherwise)."""
    @torch.library.custom_op("dwc::fused_depthwise_conv2d", mutates_args=())
    def fused_depthwise_conv2d(x: torch.Tensor, weight: torch.Tensor,
                               weight_hwc: torch.Tensor, bias: torch.Tensor,
                               input_bias: torch.Tensor | None, kernel: list[int],
                               stride: list[int], padding: list[int], dilation: list[int],
                               act: int, input_act: int) -> torch.Tensor:
        y = None
        if x.is_cuda:
            from .extension import loaded_extension
            ext = loaded_extension()
            if ext is not None:
                y = ext.fused_forward(x, weight_hwc, bias, input_bias, kernel, stride,
                                      padding, dilation, act, input_act)
        if y is None:
            if input_bias is not None:
                x = x + input_bias.view(1, -1, 1, 1)
            x = apply_activation(ACTIVATIONS[input_act], x)
            pt, pb, pl, pr = padding
            x = F.pad(x, (pl, pr, pt, pb))
            y = F.conv2d(x, weight, bias, stride, 0, dilation, x.shape[1])
            y = apply_activation(ACTIVATIONS[act], y)
        return y.contiguous(memory_format=torch.channels_last)

    @fused_depthwise_conv2d.register_fake
    def _(x, weight, weight_hwc, bias, input_bias, kernel, stride, padding, dilation, act,
          input_act):
        from .spec import conv_out
        N, C, H, W = x.shape
        OH = conv_out(H, kernel[0], stride[0], dilation[0], padding[0], padding[1])
        OW = conv_out(W, kernel[1], stride[1], dilation[1], padding[2], padding[3])
        return x.new_empty((N, C, OH, OW)).contiguous(memory_format=torch.channels_last)


_register_op()


def fuse_model(model, example_inputs, amp_dtype, report, verify, graphs=False):
    """convert()'s fusion step (eval mode): installs the fusions, and where
    `verify` (example inputs on a GPU) times the model fused and unfused
    (eager steps, or graph replays with `graphs`) and keeps the fusion only
    if it is faster. Returns the states kept."""
    from .converter import _model_step, time_steps
    remove(model)
    patterns = find_patterns(model)
    if not patterns:
        return []
    states = apply(model, patterns)
    if verify:
        step = _model_step(model, example_inputs, False, amp_dtype, cast_cache=not graphs)
        sides = {"fused": step, "unfused": step}
        if graphs:  # one capture per side: a graph replays the path it saw
            from .converter import _captured
            for label in sides:
                set_enabled(states, label == "fused")
                sides[label] = _captured(step, False, model).replay
        t = time_steps(sides, rounds=6,
                       before=lambda label: set_enabled(states, label == "fused"))
        ours, theirs = min(t["fused"]), min(t["unfused"])
        report.notes.append("fusion: %d depthwise layers with their BatchNorm/activation "
                            "neighbours, model %.3f ms fused vs %.3f ms unfused"
                            % (len(states), ours, theirs))
        if ours >= theirs:
            remove(model)
            report.notes.append("fusion undone: not faster on this model")
            return []
        set_enabled(states, True)
    report.fused = [p.dw for p in patterns]
    return states
