"""dwc_torch.convert on the CPU: which layers it takes over, the one
aggregated report of those it leaves (names, reasons, how to force),
state_dict compatibility both ways, the same parameter objects (an
optimizer made before keeps working), outputs and gradients equal to the
unconverted model's (the CPU path is PyTorch's), options, unconvert."""
import copy
import logging
import os
import sys
import warnings

import torch

warnings.filterwarnings("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dwc_torch  # noqa: E402
from tiny_models import TinyNet  # noqa: E402

records = []
h = logging.Handler()
h.emit = lambda r: records.append(r.getMessage())
logging.getLogger("dwc_torch").addHandler(h)
logging.getLogger("dwc_torch").setLevel(logging.INFO)

torch.manual_seed(0)
model = TinyNet()
ref = copy.deepcopy(model)
params_before = [id(p) for p in model.parameters()]
opt = torch.optim.SGD(model.parameters(), lr=0.1)
out = dwc_torch.convert(model)
print("returns the model:", out is model)
print(model.dwc_report)
print("log records:", len([r for r in records if r.startswith("dwc_torch.convert")]))
print("classes:", {n: type(m).__name__ for n, m in model.named_modules()
                   if type(m).__module__ == "dwc_torch.modules"})
print("same parameters:", [id(p) for p in model.parameters()] == params_before)
print("state_dict keys equal:", list(model.state_dict()) == list(ref.state_dict()))
ref.load_state_dict(model.state_dict())
model.load_state_dict(ref.state_dict())
x = torch.randn(3, 3, 23, 21)
y, yr = model(x), ref(x)
print("outputs equal:", torch.allclose(y, yr, rtol=1e-5, atol=1e-6))
y.sum().backward()
yr.sum().backward()
print("grads equal:", all(torch.allclose(a.grad, b.grad, rtol=1e-5, atol=1e-6)
                          for a, b in zip(model.parameters(), ref.parameters())))
opt.step()
print("optimizer updated the converted weights:",
      not torch.equal(model.b1.dw.weight, ref.b1.dw.weight))

m2 = dwc_torch.convert(TinyNet(), strided=True, dense=True, verbose=False)
print("strided+dense:", sorted(n for n, m in m2.named_modules()
                               if type(m).__module__ == "dwc_torch.modules"))
print("left:", [n for n, _, _ in m2.dwc_report.skipped])
m3 = dwc_torch.convert(TinyNet(), pools=False, verbose=False)
print("pools=False:", sorted(n for n, m in m3.named_modules()
                             if type(m).__module__ == "dwc_torch.modules"))
dwc_torch.unconvert(m2)
print("unconvert:", all(type(m).__module__.startswith("torch.nn") or
                        type(m).__module__ == "tiny_models" for m in m2.modules()))
# Kernels PyTorch ran instead (none here, and no compiling on first use):
# the report names the converted layers that need them (one of the two is
# of no layer of this model), and a command.
from dwc_torch import kernels  # noqa: E402
from dwc_torch.converter import spec_of  # noqa: E402
os.environ["DWC_COMPILE"] = "0"
mk = TinyNet()
kernels.resolve(spec_of(mk.b1.dw, torch.empty(3, 8, 12, 11, device="meta")).registry_key("fwd"))
kernels.resolve(dwc_torch.spec.LayerSpec.make(1, 16, 5, 5, 7, 1, 3, 1, "f32", True)
                .registry_key("fwd"))
dwc_torch.convert(mk, verbose=False)
print("\n".join(l for l in str(mk.dwc_report).splitlines() if "no dwc kernel" in l
                or "--spec" in l))
m4 = dwc_torch.convert(TinyNet(), verbose=False)
print("convert twice is stable:", len(dwc_torch.convert(m4, verbose=False).dwc_report.converted))

# The torch.compile backend: the same rewrite inside a compiled graph.
be = dwc_torch.backend(inner="eager")
m5 = TinyNet().eval()
cm = torch.compile(m5, backend=be, fullgraph=True)
with torch.no_grad():
    same = torch.allclose(cm(x), m5(x), rtol=1e-5, atol=1e-6)
print("compile backend: rewritten %d calls, matches %s" % (be.rewritten, same))

# Tuning and the whole-model check (timed here on the CPU, where both sides
# are PyTorch): they run, report, and leave the model's buffers and
# gradients as they were.
bn = torch.nn.Sequential(torch.nn.Conv2d(4, 4, 3, padding=1, groups=4), torch.nn.BatchNorm2d(4),
                         torch.nn.MaxPool2d(2)).train()
before = {k: v.clone() for k, v in bn.state_dict().items()}
dwc_torch.convert(bn, example_inputs=torch.randn(2, 4, 9, 9), tune=True, verbose=False)
r = bn.dwc_report
print("tuned: %d layers timed, whole model timed %s, buffers kept %s, no grads %s" % (
    len(r.timings), r.model_ms is not None,
    all(torch.equal(before[k], v) for k, v in bn.state_dict().items()),
    all(p.grad is None for p in bn.parameters())))

# The whole-model check's test (converter.model_is_faster, check_passes):
# faster on both statistics -- quietest round and the same-round ratios'
# median -- in eager steps as in CUDA-graph replays.
from dwc_torch.converter import check_passes, model_is_faster
print("model check:", [model_is_faster(*a) for a in
                       ((9.0, 10.0, 0.9), (10.0, 10.0, 1.0), (10.0, 10.0, 0.96),
                        (12.0, 10.0, None), (9.8, 10.0, 1.001), (9.8, 10.0, None))])
g = lambda paired: {"graphs": True, "paired_speedup": paired}  # noqa: E731
print("graph check:", [check_passes(*a) for a in
                       ((g(1.01), 9.9, 10.0), (g(0.995), 9.9, 10.0), (g(1.01), 10.0, 10.0),
                        ({"paired_speedup": 0.991}, 10.09, 10.0))])
# graphs=True off a GPU: the CPU check runs as before.
bn2 = torch.nn.Sequential(torch.nn.Conv2d(4, 4, 3, padding=1, groups=4), torch.nn.ReLU())
dwc_torch.convert(bn2, example_inputs=torch.randn(2, 4, 9, 9), tune=True, graphs=True,
                  verbose=False)
print("graphs on the CPU: whole model timed %s, check %s" % (
    bn2.dwc_report.model_ms is not None,
    [d.get("graphs", False) for d in bn2.dwc_report.model_check or []]))
# graphs='frozen' (inference graphs): the kept layers' filters frozen
# (dwc_torch.freeze), said in the report; refused for training and for
# values other than False / True / 'frozen'.
bn3 = torch.nn.Sequential(torch.nn.Conv2d(4, 4, 3, padding=1, groups=4), torch.nn.ReLU()).eval()
dwc_torch.convert(bn3, graphs="frozen", verbose=False)
print("frozen:", bn3[0].__dict__.get("_dwc_frozen"), bn3.dwc_report.notes)
for kw in ({"graphs": "frozen", "train": True}, {"graphs": "yes"}):
    try:
        dwc_torch.convert(torch.nn.Sequential(torch.nn.Conv2d(4, 4, 3, groups=4)),
                          example_inputs=torch.randn(1, 4, 6, 6), tune=True, verbose=False, **kw)
        print("accepted", kw)
    except ValueError as e:
        print("refused:", e)
# A failed whole-model check keeps only the clear per-layer winners if the
# model is faster with those alone (the second check, in graphs here).
from dwc_torch.converter import ConvertReport, _verdict
rep = ConvertReport()
rep.timings = {"a": (0.5, 1.0), "b": (0.95, 1.0)}
rep.model_ms, rep.model_check = (10.05, 10.0), [g(0.995)]
asked = []
keep = _verdict({"a": None, "b": None},
                lambda layers: asked.append(sorted(layers)) or (9.8, 10.0, g(1.02)), rep)
print("second check on %s keeps %s (%s)" % (asked, sorted(keep), rep.model_ms))

# Tuning's sampling: calls of milliseconds are timed once per sample, and
# those of 2+ ms in 5 samples instead of 9 (converter._sampling); the
# whole-model check stops after an ABBA pair of rounds that sets the sides
# 1.5x apart in every sample (converter.clearly_apart).
from dwc_torch.converter import _sampling, clearly_apart, time_steps
print("sampling (reps, inner):", [_sampling(ms, 9, 8) for ms in (0.005, 0.2, 0.6, 1.5, 30.0)])
print("clearly apart:", [clearly_apart(t) for t in (
    {"dwc": [46.0, 54.0], "torch": [271.0, 273.0]}, {"dwc": [20.0, 22.0], "torch": [23.0, 24.0]},
    {"dwc": [90.0, 95.0], "torch": [50.0, 52.0]}, {"dwc": [], "torch": []})])
asked = []
t = time_steps({"dwc": lambda: None, "torch": lambda: None}, rounds=8, burst=1,
               settled=lambda o: asked.append(len(o["dwc"])) or len(o["dwc"]) >= 4)
print("settled after rounds:", asked, {k: len(v) for k, v in t.items()})

# The graph check falls back to eager timing, with a note, when the step
# cannot be captured (even by an error without a message), and stays eager.
from dwc_torch import converter  # noqa: E402


def no_capture(*a, **k):
    raise RuntimeError("")


saved = converter._time_both_graphs, converter._time_both
converter._time_both_graphs = no_capture
converter._time_both = lambda *a, **k: (1.0, 2.0, {"paired_speedup": 2.0})
rep = ConvertReport()
tb = converter._whole_model_timer(bn2, {}, (torch.randn(2, 4, 9, 9),), False, None, True, rep)
print("fallback:", tb({}), tb({}), tb.mode, rep.notes)
converter._time_both_graphs, converter._time_both = saved
