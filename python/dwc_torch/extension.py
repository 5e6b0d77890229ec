"""Builds and loads the two native pieces, once per process:

- libdwc_runtime.so: $DWC_RUNTIME if set, else built with g++ from the
  runtime sources shipped in the package (dwc_torch/_runtime, staged by
  scripts/build-wheel.sh; from a checkout, runtime/) into the cache
  directory (keyed by their content).
- the C++ extension (csrc/dwc_ops.cpp: the CUDA kernels of the dwc:: ops),
  built against the installed torch with torch.utils.cpp_extension into
  the cache directory (keyed by the source, torch's version and Python's).

Neither needs a GPU: on a machine without a CUDA driver both load, and the
runtime reports 'no CUDA driver' when called.
"""

import ctypes
import hashlib
import logging
import os
import subprocess
import sys
import threading
import time

from . import cache

log = logging.getLogger("dwc_torch")
HERE = os.path.dirname(os.path.abspath(__file__))
_lock = threading.Lock()
_runtime = None
_ext = None


def _runtime_sources():
    """(Runtime.cpp, include dir): the package's copy (a wheel of
    scripts/build-wheel.sh), else the repository's runtime/ (the sources in
    python/ run from a checkout, as the tests do)."""
    src = os.path.join(HERE, "_runtime", "Runtime.cpp")
    if not os.path.isfile(src):
        repo = os.path.join(os.path.dirname(os.path.dirname(HERE)), "runtime")
        if os.path.isfile(os.path.join(repo, "lib", "Runtime.cpp")):
            return os.path.join(repo, "lib", "Runtime.cpp"), os.path.join(repo, "include")
    return src, os.path.join(HERE, "_runtime", "include")


def runtime_path():
    """Path of libdwc_runtime.so (built into the cache on first use)."""
    env = os.environ.get("DWC_RUNTIME")
    if env:
        if not os.path.isfile(env):
            raise FileNotFoundError("DWC_RUNTIME=%s: no such file" % env)
        return os.path.abspath(env)
    src, inc = _runtime_sources()
    if not os.path.isfile(src):
        raise FileNotFoundError("the runtime sources are missing from the package (%s): "
                                "build it with scripts/build-wheel.sh, or set DWC_RUNTIME to "
                                "a built libdwc_runtime.so" % src)
    h = hashlib.sha256()
    for f in (src, os.path.join(inc, "dwc", "runtime.h")):
        h.update(cache.sha256_file(f).encode())
    final = os.path.join(cache.cache_dir(), "runtime", h.hexdigest()[:32])

    def build(tmp):
        cmd = [os.environ.get("CXX", "g++"), "-std=c++17", "-O2", "-fPIC", "-shared",
               "-fvisibility=hidden", "-I" + inc, src, "-Wl,-soname,libdwc_runtime.so",
               "-o", os.path.join(tmp, "libdwc_runtime.so"), "-ldl", "-lpthread"]
        t0 = time.time()
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise cache.CompileError("building libdwc_runtime failed: %s\n%s" % (
                " ".join(cmd), (r.stdout + r.stderr)[-2000:]))
        log.info("dwc_torch: built libdwc_runtime in %.1f s (%s)", time.time() - t0, final)

    cache.publish(build, final)
    return os.path.join(final, "libdwc_runtime.so")


def load_runtime():
    """The runtime, loaded RTLD_GLOBAL (the kernel libraries bind to it)."""
    global _runtime
    with _lock:
        if _runtime is None:
            rt = ctypes.CDLL(runtime_path(), mode=ctypes.RTLD_GLOBAL)
            rt.dwcGetLastErrorMessage.restype = ctypes.c_char_p
            rt.dwcGetErrorString.restype = ctypes.c_char_p
            rt.dwcGetErrorString.argtypes = [ctypes.c_int]
            _runtime = rt
    return _runtime


def _address(fn):
    return ctypes.cast(fn, ctypes.c_void_p).value


def extension_source():
    return os.path.join(HERE, "csrc", "dwc_ops.cpp")


def load_extension(verbose=False):
    """Builds (first time) and loads the C++ extension; attaches the runtime
    and the kernel resolver. Returns the extension module."""
    global _ext
    with _lock:
        if _ext is not None:
            return _ext
    import torch
    import torch.utils.cpp_extension as cpp

    from . import ops  # noqa: F401  (the schemas must exist first)

    prebuilt = os.environ.get("DWC_TORCH_EXT")
    if prebuilt:
        try:
            return _attach(_load_prebuilt(prebuilt))
        except (ImportError, OSError) as e:  # another torch / Python: build it here
            log.warning("dwc_torch: DWC_TORCH_EXT=%s does not load (%s); building the "
                        "extension", prebuilt, e)
    src = extension_source()
    tag = hashlib.sha256((cache.sha256_file(src) + torch.__version__ + sys.version +
                          str(torch._C._GLIBCXX_USE_CXX11_ABI)).encode()).hexdigest()[:24]
    build_dir = os.path.join(cache.cache_dir(), "torch_ext", tag)
    os.makedirs(build_dir, exist_ok=True)
    fresh = not any(f.endswith(".so") for f in os.listdir(build_dir))
    t0 = time.time()
    ext = cpp.load(name="dwc_torch_ext", sources=[src], build_directory=build_dir,
                   extra_cflags=["-O2"], verbose=verbose)
    if fresh:
        log.info("dwc_torch: built the C++ extension in %.1f s (%s)", time.time() - t0,
                 build_dir)
    return _attach(ext)


def _load_prebuilt(path):
    """The extension built before (DWC_TORCH_EXT: its .so, built from this
    package's csrc against this torch and Python -- e.g. on another machine of
    the same image): imported as it is, without a compiler."""
    import importlib.util
    if not os.path.isfile(path):
        raise FileNotFoundError("DWC_TORCH_EXT=%s: no such file" % path)
    spec = importlib.util.spec_from_file_location("dwc_torch_ext", path)
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    log.info("dwc_torch: loaded the prebuilt C++ extension %s", path)
    return ext


def _attach(ext):
    global _ext
    from . import kernels
    rt = load_runtime()
    ext.attach_runtime(_address(rt.dwcSetStream), _address(rt.dwcGetLastErrorMessage),
                       _address(rt.dwcTakeLastError))
    ext.set_resolver(kernels.resolve)
    with _lock:
        _ext = ext
    return ext


def loaded_extension():
    """The extension if it is loaded, else None (never builds)."""
    return _ext
