"""dwc_torch.plot_report: a measured convert report (per-layer times, the
whole-model check's rounds) drawn into a PNG; a report with no timings is
refused with a reason. usage: plot_check.py OUT.png"""
import sys
import warnings

warnings.filterwarnings("ignore")
import dwc_torch  # noqa: E402
from dwc_torch.converter import ConvertReport  # noqa: E402

r = ConvertReport()
r.timings = {"blocks.0.conv_dw": (0.010, 0.014), "blocks.1.conv_dw": (0.020, 0.019),
             "pool": (0.004, 0.006)}
r.model_ms = (1.0, 1.2)
r.model_check = [{"dwc_ms": [1.0, 1.1, 1.0, 1.05], "torch_ms": [1.2, 1.25, 1.2, 1.3],
                  "paired_speedup": 1.18}]
path = dwc_torch.plot_report(r, sys.argv[1], title="synthetic")
with open(path, "rb") as fh:
    print("png:", fh.read(8) == b"\x89PNG\r\n\x1a\n")
try:
    dwc_torch.plot_report(ConvertReport(), sys.argv[1])
except ValueError as e:
    print("empty report:", e)
