"""Loading dwc-aot kernels on the GPU machine (g++ and ctypes; no MLIR):
link a kernel directory's objects into one shared library against
libdwc_runtime, open both, and call an entry point
`dwc_status dwc_<name>(const void *in0, ..., void *out)` on device pointers."""

import ctypes
import glob
import json
import os
import subprocess


def load_manifest(kdir):
    with open(os.path.join(kdir, "manifest.json")) as f:
        return json.load(f)


def link_objects(kdir, runtime_lib, work, name):
    """Links every *.o of `kdir` into WORK/lib<name>.so; returns its path."""
    objs = sorted(glob.glob(os.path.join(kdir, "*.o")))
    if not objs:
        raise SystemExit("no kernel objects in %s" % kdir)
    os.makedirs(work, exist_ok=True)
    so = os.path.join(work, "lib%s.so" % name)
    rtdir = os.path.dirname(os.path.abspath(runtime_lib))
    subprocess.run(["g++", "-shared", "-o", so] + objs +
                   ["-L" + rtdir, "-ldwc_runtime", "-Wl,-rpath," + rtdir], check=True)
    return so


class KernelLib:
    def __init__(self, runtime_lib, kernel_libs):
        mode = getattr(os, "RTLD_GLOBAL", 0) | getattr(os, "RTLD_NOW", 0)
        self.rt = ctypes.CDLL(runtime_lib, mode=mode)
        self.rt.dwcInit.restype = ctypes.c_int
        self.rt.dwcSetStream.argtypes = [ctypes.c_void_p]
        self.rt.dwcGetLastErrorMessage.restype = ctypes.c_char_p
        self.libs = [ctypes.CDLL(p, mode=mode) for p in kernel_libs]

    def init(self, stream_ptr):
        if self.rt.dwcInit() != 0 or self.rt.dwcSetStream(ctypes.c_void_p(stream_ptr)) != 0:
            raise SystemExit("dwc runtime init failed")

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
        rc = fn(*[t.data_ptr() for t in tensors])
        if rc != 0:
            m = self.rt.dwcGetLastErrorMessage()
            raise RuntimeError("entry point returned %d: %s" % (rc, m.decode() if m else ""))
