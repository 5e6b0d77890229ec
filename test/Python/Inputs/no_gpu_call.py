"""dwc_torch without torch and without a GPU: links the kernels that
dwc_torch.aot compiled into a shared library with libdwc_runtime, loads it
by ctypes and calls the forward entry point; on a machine without a CUDA
driver that is a clean DwcError (status 1, 'no CUDA driver'), not a crash.
Also: spec validation errors and kernel lookup by spec.

usage: no_gpu_call.py KERNELS_DIR WORK_DIR RUNTIME_SO
"""
import os
import sys

# A machine without torch (the AOT side): `import torch` fails there.
sys.modules["torch"] = None
from dwc_torch import DwcError, KernelLibrary, parse_spec
from dwc_torch.library import link_kernels

kdir, work, rt = sys.argv[1:4]
so = link_kernels(kdir, work, rt)
lib = KernelLibrary(kdir, so, rt)
spec = parse_spec("2,8,9,8,3,2,1x2x0x1,1,f32,bias")
print("has spec:", lib.has(spec))
print("has N=3:", lib.has(parse_spec("3,8,9,8,3,2,1x2x0x1,1,f32,bias")))
print(lib.why_missing(parse_spec("3,8,9,8,3,2,1x2x0x1,1,f32,bias")))
try:
    lib.call(spec.symbol("fwd"), 4096, 4096, 4096, 4096)
    print("call: no error")
except DwcError as e:
    print("call: DwcError status %d: %s" % (e.status, e))
try:
    lib.call(spec.symbol("bwd_filter"), 0, 4096, 4096)
except DwcError as e:
    print("null: DwcError status %d: %s" % (e.status, e))
for bad in ("1,4,2,2,5", "1,4,8,8,3,1,0,1,f8", "1,4,8"):
    try:
        parse_spec(bad)
        print("spec %s: accepted" % bad)
    except ValueError as e:
        print("spec %s: ValueError: %s" % (bad, e))
# The AOT and ctypes layers work without torch (import dwc_torch skips the
# ops' registration there).
print("torch imported by dwc_torch:", sys.modules.get("torch") is not None)
