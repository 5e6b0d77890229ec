"""Loading dwc-aot kernels in the GPU harnesses (no torch needed here).

link_objects() links the carried dwc-aot objects of a directory into one
shared library against libdwc_runtime (g++ on the GPU machine, no MLIR);
KernelLib opens the runtime and those libraries with ctypes and calls an
entry point `dwc_status dwc_<name>(const void *in0, ..., void *out0)` on the
device pointers of tensors (anything with .data_ptr()), raising with the
runtime's message when it fails.
"""

import ctypes
import glob
import os
import subprocess


def link_objects(kdir, runtime_lib, work, name):
    """Links every *.o of `kdir` into WORK/lib<name>.so; returns [path]."""
    objs = sorted(glob.glob(os.path.join(kdir, "*.o")))
    if not objs:
        raise SystemExit(f"no kernel objects in {kdir}")
    os.makedirs(work, exist_ok=True)
    so = os.path.join(work, f"lib{name}.so")
    rtdir = os.path.dirname(os.path.abspath(runtime_lib))
    subprocess.run(["g++", "-shared", "-o", so] + objs +
                   ["-L" + rtdir, "-ldwc_runtime", "-Wl,-rpath," + rtdir], check=True)
    return [so]


class KernelLib:
    def __init__(self, runtime_lib, kernel_libs):
        mode = getattr(os, "RTLD_GLOBAL", 0) | getattr(os, "RTLD_NOW", 0)
        self.rt = ctypes.CDLL(runtime_lib, mode=mode)
        self.rt.dwcInit.restype = ctypes.c_int
        self.rt.dwcSetStream.argtypes = [ctypes.c_void_p]
        self.rt.dwcGetLastErrorMessage.restype = ctypes.c_char_p
        self.libs = [ctypes.CDLL(p, mode=mode) for p in kernel_libs]

    def entry(self, symbol, nargs):
        """The entry point `symbol` taking `nargs` pointers, or None."""
        for lib in self.libs:
            fn = getattr(lib, symbol, None)
            if fn is not None:
                fn.argtypes = [ctypes.c_void_p] * nargs
                fn.restype = ctypes.c_int
                return fn
        return None

    def call(self, fn, *tensors):
        """Calls `fn` on the tensors' device pointers (None entries are
        skipped, e.g. an absent bias)."""
        rc = fn(*[t.data_ptr() for t in tensors if t is not None])
        if rc != 0:
            m = self.rt.dwcGetLastErrorMessage()
            raise RuntimeError(f"entry point returned {rc}: {m.decode() if m else ''}")
