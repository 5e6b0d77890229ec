"""Kernel resolution on a machine without a GPU: the kernels of an AOT
directory (python -m dwc_torch.aot --model ...) are linked and found by the
registry key the C++ extension builds; an unseen key is compiled on first
use when dwc-aot is there, else reported with a pasteable command; calling
a resolved entry point reports 'no CUDA driver' (status 1), never crashes.
The extension gets the trusted entry point (dwc_<name>_trusted) of a kernel,
distinct from the checked one, which still names a null argument.

usage: resolve_check.py KERNELS_DIR DWC_AOT"""
import ctypes
import os
import sys
import warnings

warnings.filterwarnings("ignore")
import dwc_torch  # noqa: E402
from dwc_torch import kernels  # noqa: E402
from dwc_torch.spec import GapSpec, LayerSpec, PoolSpec, spec_from_key  # noqa: E402

kdir, aot = sys.argv[1], sys.argv[2]
os.environ["DWC_COMPILE"] = "0"
print("loaded entry points:", dwc_torch.load_kernels(kdir))
dw = LayerSpec.make(2, 8, 9, 10, 7, 1, 3, 1, "f16", True)
addr = kernels.resolve(dw.registry_key("fwd"))
print("traced dw fwd resolves:", bool(addr))
print("pool bwd resolves:", bool(kernels.resolve(
    PoolSpec.make(2, 8, 17, 19, "max", 3, 2, 1, False, False, "f32").registry_key("pool_bwd"))))
gap = GapSpec.make(2, 8, 3, 3, "f16")
print("gap bwd resolves:", bool(kernels.resolve(gap.registry_key("gap_bwd"))),
      spec_from_key(gap.registry_key("gap_bwd")) == ("gap_bwd", gap))
unseen = LayerSpec.make(3, 16, 12, 12, 5, 1, 2, 1, "f32", False)
print("unseen without dwc-aot:", kernels.resolve(unseen.registry_key("fwd")))
why, spec, op = kernels.unresolved()[unseen.symbol("fwd")]
print("reason:", why)
print("command:", kernels.aot_command([(spec, op)]))
os.environ["DWC_COMPILE"] = "1"
os.environ["DWC_AOT"] = aot
unseen2 = LayerSpec.make(3, 16, 12, 12, 3, 1, 1, 1, "bf16", False)
print("unseen with dwc-aot compiles:", bool(kernels.resolve(unseen2.registry_key("bwd_filter"))))
print("key round trip:", spec_from_key(unseen2.registry_key("bwd_filter")) ==
      ("bwd_filter", unseen2))
# Calling the entry point here: the runtime has no driver to load.
fn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                      ctypes.c_void_p)(addr)
st = fn(4096, 4096, 4096, 4096)
from dwc_torch.extension import load_runtime  # noqa: E402
print("call status:", st, load_runtime().dwcGetLastErrorMessage().decode())
checked = kernels.checked_entry(dw, "fwd")
print("trusted entry resolved:", bool(checked) and checked != addr)
st = ctypes.CFUNCTYPE(ctypes.c_int, *([ctypes.c_void_p] * 4))(checked)(4096, 4096, 4096, None)
print("checked call status:", st, load_runtime().dwcGetLastErrorMessage().decode())
st = fn(4096, 4104, 4096, 4096)
print("trusted misaligned status:", st, load_runtime().dwcGetLastErrorMessage().decode())
