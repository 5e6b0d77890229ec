"""GPU-machine side without torch: link the carried kernel objects with
libdwc_runtime into one shared library and call its entry points by ctypes.

    lib = KernelLibrary.build("kernels_dir", work_dir="/tmp/dwc_torch")
    lib.call(spec.symbol("fwd"), x_ptr, w_ptr, y_ptr)      # raw device pointers

`build` compiles runtime/lib/Runtime.cpp with g++ (runtime/build.sh) and
links every object of the manifest that compiled (g++ -shared; no MLIR, no
nvcc needed). The runtime loads the CUDA driver with dlopen, so loading
works on machines without one; calls then fail with DwcError('no CUDA
driver ...').
"""

import ctypes
import json
import os
import subprocess

if __package__ in (None, ""):
    import manifest  # type: ignore
    from spec import OPS, LayerSpec, layer_ops  # type: ignore
else:
    from . import manifest
    from .spec import OPS, LayerSpec, layer_ops

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class DwcError(RuntimeError):
    """A libdwc_runtime failure: `status` (dwc_status) and the message."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def _run(cmd, log):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if log is not None:
        log.write("$ %s\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
    if r.returncode != 0:
        raise RuntimeError("command failed (rc %d): %s\n%s" % (
            r.returncode, " ".join(cmd), (r.stdout + r.stderr)[-3000:]))


def build_runtime(work_dir, log=None):
    """runtime/build.sh -> work_dir/rt/libdwc_runtime.so (reused if present
    and newer than Runtime.cpp)."""
    src = os.path.join(REPO_ROOT, "runtime", "lib", "Runtime.cpp")
    so = os.path.join(work_dir, "rt", "libdwc_runtime.so")
    if os.path.exists(so) and os.path.getmtime(so) >= os.path.getmtime(src):
        return so
    _run(["sh", os.path.join(REPO_ROOT, "runtime", "build.sh"),
          os.path.join(work_dir, "rt")], log)
    return so


def link_kernels(kernels_dir, work_dir, runtime_so, log=None):
    """Links the objects of kernels_dir/manifest.json that compiled into
    work_dir/libdwc_torch_kernels.so."""
    m = manifest.upgraded(json.load(open(os.path.join(kernels_dir, "manifest.json"))))
    objs = [os.path.join(kernels_dir, o["object"]) for s in manifest.specs(m)
            for o in s["ops"].values() if not o["error"]]
    objs = [o for o in objs if os.path.exists(o)]
    if not objs:
        raise RuntimeError("no compiled kernel object in %s" % kernels_dir)
    os.makedirs(work_dir, exist_ok=True)
    so = os.path.abspath(os.path.join(work_dir, "libdwc_torch_kernels.so"))
    rt_dir = os.path.dirname(os.path.abspath(runtime_so))
    _run(["g++", "-shared", "-o", so] + objs +
         ["-L" + rt_dir, "-ldwc_runtime", "-Wl,-rpath," + rt_dir, "-Wl,--no-undefined"], log)
    return so


class KernelLibrary:
    """The linked kernels of one manifest, callable by symbol."""

    def __init__(self, kernels_dir, kernel_so, runtime_so):
        self.kernels_dir = kernels_dir
        self.manifest = manifest.upgraded(
            json.load(open(os.path.join(kernels_dir, "manifest.json"))))
        # The runtime first, global, so the kernel library binds to it.
        self.rt = ctypes.CDLL(runtime_so, mode=ctypes.RTLD_GLOBAL)
        self.lib = ctypes.CDLL(kernel_so)
        rt = self.rt
        rt.dwcInit.restype = ctypes.c_int
        rt.dwcGetErrorString.restype = ctypes.c_char_p
        rt.dwcGetErrorString.argtypes = [ctypes.c_int]
        rt.dwcGetLastErrorMessage.restype = ctypes.c_char_p
        rt.dwcTakeLastError.restype = ctypes.c_int
        rt.dwcSetStream.restype = ctypes.c_int
        rt.dwcSetStream.argtypes = [ctypes.c_void_p]
        rt.dwcGetStream.restype = ctypes.c_void_p
        self._fns = {}
        # key -> {op: symbol} for the ops that compiled
        self.available = {}
        self.failed = {}
        for s in manifest.specs(self.manifest):
            for op, o in s["ops"].items():
                if o["error"]:
                    self.failed.setdefault(s["key"], {})[op] = o["error"]
                else:
                    self.available.setdefault(s["key"], {})[op] = o["symbol"]

    @classmethod
    def build(cls, kernels_dir, work_dir="/tmp/dwc_torch", log_path=None):
        os.makedirs(work_dir, exist_ok=True)
        log = open(log_path, "a") if log_path else None
        try:
            rt = build_runtime(work_dir, log)
            so = link_kernels(kernels_dir, work_dir, rt, log)
        finally:
            if log:
                log.close()
        return cls(kernels_dir, so, rt)

    def specs(self):
        return [LayerSpec.from_dict(s) for s in manifest.specs(self.manifest)]

    def has(self, spec, ops=OPS):
        avail = self.available.get(spec.key, {})
        return all(op in avail for op in layer_ops(spec, ops))

    def why_missing(self, spec, ops=OPS):
        if spec.key in self.failed:
            return "kernels of %s failed to compile: %s" % (
                spec.key, "; ".join("%s: %s" % (op, e.strip().splitlines()[-1] if e.strip() else e)
                                    for op, e in self.failed[spec.key].items()))
        return "no compiled kernel for %s (compile it with python -m dwc_torch.aot)" % spec.key

    def _fn(self, symbol):
        fn = self._fns.get(symbol)
        if fn is None:
            fn = getattr(self.lib, symbol)
            fn.restype = ctypes.c_int
            self._fns[symbol] = fn
        return fn

    def set_stream(self, cu_stream):
        """External stream mode of the calling thread (None: runtime streams,
        synchronous calls)."""
        st = self.rt.dwcSetStream(ctypes.c_void_p(cu_stream) if cu_stream else None)
        if st != 0:
            self._raise(st, "dwcSetStream")

    def _raise(self, status, what):
        msg = self.rt.dwcGetLastErrorMessage() or b""
        name = self.rt.dwcGetErrorString(status) or b""
        raise DwcError(status, "%s: %s (%d): %s" % (what, name.decode(), status,
                                                    msg.decode(errors="replace")))

    def call(self, symbol, *pointers):
        """Calls an entry point on raw device pointers (ints)."""
        st = self._fn(symbol)(*[ctypes.c_void_p(p) for p in pointers])
        if st != 0:
            self._raise(st, symbol)

    def init(self):
        st = self.rt.dwcInit()
        if st != 0:
            self._raise(st, "dwcInit")
