"""What a user of dwc_torch meets off the happy path, on a machine without
a GPU (the fixes of the user-path audit):

- the command of a missing-kernel report, pasted: it compiles every missing
  op (depthwise, pooling and global-pool ones together) for this process's
  chip, so that load_kernels takes the directory on that GPU;
- why a kernel was not compiled on first use: dwc-aot's error (not its
  last line, 'lowering pipeline failed'), a DWC_AOT that is no executable;
- a cache directory that cannot be one, and load_kernels of a directory
  that is not an AOT output: clear errors; the tuning cache still no error;
- convert with example_inputs on the CPU says that it did not tune, and
  how strided layers would be taken; the model's outputs are unchanged.

usage: userpath_check.py DWC_AOT WORKDIR"""
import json
import logging
import os
import shlex
import subprocess
import sys
import warnings

warnings.filterwarnings("ignore")
aot, work = sys.argv[1], sys.argv[2]
os.environ["DWC_CACHE_DIR"] = os.path.join(work, "cache")
os.environ["DWC_COMPILE"] = "0"
os.environ["DWC_CHIP"] = "sm_80"
logging.getLogger("dwc_torch").addHandler(logging.NullHandler())
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dwc_torch import cache, kernels, tuning  # noqa: E402
from dwc_torch.spec import GapSpec, LayerSpec, PoolSpec  # noqa: E402

# convert with example_inputs on the CPU (first: the report would list the
# kernels missed below).
import torch  # noqa: E402

import dwc_torch  # noqa: E402
from tiny_models import TinyNet  # noqa: E402
torch.manual_seed(0)
model, ref = TinyNet().eval(), TinyNet().eval()
ref.load_state_dict(model.state_dict())
x = torch.randn(2, 3, 17, 19).to(memory_format=torch.channels_last)
dwc_torch.convert(model, example_inputs=x, verbose=False)
print(model.dwc_report)
with torch.no_grad():
    print("outputs equal:", torch.equal(model(x), ref(x)))

# A missing-kernel report's command, pasted.
miss = [(LayerSpec.make(3, 16, 12, 12, 5, 1, 2, 1, "f16", True), "bwd_filter"),
        (PoolSpec.make(2, 8, 17, 19, "avg", 3, 2, 1, True, False, "f32"), "pool_bwd"),
        (GapSpec.make(2, 8, 3, 3, "bf16"), "gap_bwd")]
for spec, op in miss:
    kernels.resolve(spec.registry_key(op))
cmd = kernels.aot_command([(s, op) for _, (_, s, op) in sorted(kernels.unresolved().items())])
print("command:", cmd)
argv = shlex.split(cmd.replace("--out DIR", "--out " + os.path.join(work, "k")))
r = subprocess.run([sys.executable] + argv[1:] + ["--aot", aot], capture_output=True, text=True,
                   env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
print("pasted: rc", r.returncode, (r.stdout + r.stderr).strip().splitlines()[-1])
with open(os.path.join(work, "k", "manifest.json")) as fh:
    m = json.load(fh)
print("chip:", sorted(m["chips"]), "ops:", sorted(op for c in m["chips"].values()
                                                   for s in c["specs"] for op in s["ops"]))

# Why a kernel was not compiled on first use.
os.environ["DWC_COMPILE"] = "1"
os.environ["DWC_AOT"] = os.path.join(work, "no-such-dwc-aot")
dw = LayerSpec.make(1, 8, 9, 9, 3, 1, 1, 1, "f32", False)
kernels.resolve(dw.registry_key("fwd"))
print("bad DWC_AOT:", kernels.unresolved()[dw.symbol("fwd")][0])
os.environ["DWC_AOT"] = aot
kernels.set_chip("sm90")
dw2 = LayerSpec.make(1, 8, 9, 9, 5, 1, 2, 1, "f32", False)
kernels.resolve(dw2.registry_key("fwd"))
print("wrong chip:", kernels.unresolved()[dw2.symbol("fwd")][0])
kernels.set_chip(None)

# A cache directory that cannot be one; load_kernels of a wrong directory.
afile = os.path.join(work, "afile")
open(afile, "w").close()
os.environ["DWC_CACHE_DIR"] = afile
try:
    cache.cache_dir()
except NotADirectoryError as e:
    print("cache dir:", e)
print("tuning store on it:", tuning.store(tuning.key("layer", {"x": 1}), {"y": 2}))
os.environ["DWC_CACHE_DIR"] = os.path.join(work, "cache")
with open(os.path.join(work, "manifest.json"), "w") as fh:
    json.dump({"not": "ours"}, fh)
for d in (os.path.join(work, "nowhere"), work):
    try:
        kernels.load_kernels(d)
    except (OSError, ValueError) as e:
        print("load_kernels:", type(e).__name__, str(e).replace(work, "WORK"))
