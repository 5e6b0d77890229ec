"""python -m dwc_torch.bench's measurement run end to end with the device
set to the CPU (bench.DEVICE): the dwc module and PyTorch's, both memory
formats and cudnn.benchmark settings tried, the forward and the training
step timed, the byte floor, the kernel families and the rendered table (the
flow, not the numbers: CPU times mean nothing for the GPU)."""
import re
import warnings

warnings.filterwarnings("ignore")
from dwc_torch import bench  # noqa: E402

bench.DEVICE = "cpu"
for layer in ("dw:2x16x12x12:k3:s1:bias", "max:2x8x16x16:k3:s2:p1", "gap:2x8x7x7"):
    kind, spec, fields = bench.parse_layer(layer)
    r = bench.run(kind, spec, fields, train=not layer.startswith("gap"))
    print(layer, r["layer"], r["device"], r["copy_GBps"] > 0, list(r["modes"]))
    for mode, m in r["modes"].items():
        print("  %s: times %s floor %s setting %s" % (
            mode, m["dwc_us"] > 0 and m["pytorch_us"] > 0, 0 < m["floor_us"],
            bool(re.fullmatch(r"(channels_last|NCHW), cudnn.benchmark (on|off)",
                              m["pytorch_setting"]))))
    print("  families:", {op: bool(re.fullmatch(r"[a-z_]+", f)) for op, f in
                          r["families"].items()})
    print("  table:", [ln.split()[0] for ln in bench.render(r).splitlines()[2:]])
