"""convert()'s persistent tuning cache on the CPU (both sides PyTorch, timed
with the clock): a second convert of the same model reuses every layer's
answer and the whole-model verdict; the entries are atomic JSON files in the
cache directory; another environment (version), a corrupt entry or
DWC_TUNING_CACHE=0 is a miss; an unwritable directory is no error."""
import glob
import os
import sys

import torch

import dwc_torch
from dwc_torch import tuning

torch.manual_seed(0)


def net():
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Conv2d(4, 4, 3, padding=1, groups=4), torch.nn.ReLU(),
        torch.nn.Conv2d(4, 4, 3, padding=1, groups=4), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(4, 4, 5, padding=2, groups=4)).train()


x = torch.randn(2, 4, 12, 12)


def conv(**kw):
    # A margin of -1e6: every layer is kept whatever the clock says (on the
    # CPU both sides are PyTorch, and a loaded machine can time one side 2x
    # slower), so the whole-model check always runs and is cached too.
    m = dwc_torch.convert(net(), example_inputs=x, tune=True, margin=-1e6, verbose=False,
                          **kw)
    r = m.dwc_report
    return m, r, r.phase_s.get("tune_cache_hits", 0), bool(r.phase_s.get("verify_cached"))


root = os.environ["DWC_CACHE_DIR"]
m1, r1, h1, v1 = conv()
print("first: hits %d, verify cached %s, timed %d" % (h1, v1, len(r1.timings)))
files = glob.glob(os.path.join(root, "tuning", "*", "*.json"))
print("entries:", len(files), "temporaries left:",
      len(glob.glob(os.path.join(root, "tuning", "*", ".tmp-*"))))
m2, r2, h2, v2 = conv()
print("second: hits %d, verify cached %s" % (h2, v2))
print("same choice:", sorted(r1.converted) == sorted(r2.converted) and r1.routes == r2.routes
      and r1.timings == r2.timings)
y = m2(x)
print("output equal to PyTorch's:", torch.allclose(y, net()(x), rtol=1e-5, atol=1e-6))

# Another dwc_torch version: other keys.
real = tuning.__version__
tuning.__version__ = real + "+other"
_, _, h3, v3 = conv()
tuning.__version__ = real
print("other version: hits %d, verify cached %s" % (h3, v3))

# A corrupt entry is a miss, then rewritten.
for f in glob.glob(os.path.join(root, "tuning", "*", "*.json")):
    with open(f, "w") as fh:
        fh.write("{not json")
_, _, h4, v4 = conv()
_, _, h5, _ = conv()
print("corrupt: hits %d, verify cached %s; after rewrite hits %d" % (h4, v4, h5))

os.environ["DWC_TUNING_CACHE"] = "0"
_, _, h6, v6 = conv()
print("DWC_TUNING_CACHE=0: hits %d, verify cached %s" % (h6, v6))
del os.environ["DWC_TUNING_CACHE"]

# A cache directory that cannot be written: convert still works.
ro = os.path.join(root, "ro")
os.makedirs(ro)
open(os.path.join(ro, "tuning"), "w").close()  # a file where the directory goes
os.environ["DWC_CACHE_DIR"] = ro
m7, r7, h7, _ = conv()
print("unwritable cache: converted %d, hits %d" % (len(r7.converted), h7))
print("key differs by spec:", tuning.key("layer", {"a": 1}) != tuning.key("layer", {"a": 2}),
      "and by device:", tuning.key("layer", {"a": 1}, dict(tuning.environment(), device="X"))
      != tuning.key("layer", {"a": 1}))
sys.exit(0)
