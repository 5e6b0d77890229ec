"""On-disk cache of compiled kernels and built libraries (no torch needed).

Entries are keyed by a content hash: for a kernel, the MLIR text, the
dwc-aot flags, the chip, the dwc_torch version and the identity (content
hash) of the dwc-aot binary, so changing any of them -- `--chip` included --
compiles anew instead of reusing a stale object. Default directory:
$DWC_CACHE_DIR, else $XDG_CACHE_HOME/dwc, else ~/.cache/dwc.

Several processes (DDP ranks) may fill the cache at once: an entry is built
in a private temporary directory and published with an atomic rename, under
an fcntl lock per key, so each entry is compiled once and never seen half
written. One log line per compile (logger 'dwc_torch').
"""

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
import time

from .version import __version__

log = logging.getLogger("dwc_torch")
KEY_FORMAT = "dwc-kernel-key-1"


def cache_dir():
    """The cache directory, absolute (entries stay valid across a chdir).
    One that cannot be a directory (DWC_CACHE_DIR naming a file, or a path
    through one) is a clear error here, not a bare NotADirectoryError from
    a makedirs later."""
    d = os.environ.get("DWC_CACHE_DIR")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                 ".cache")
        d = os.path.join(base, "dwc")
    d = os.path.abspath(os.path.expanduser(d))
    existing = d
    while not os.path.exists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise NotADirectoryError("dwc cache directory %s: %s is not a directory (set "
                                 "DWC_CACHE_DIR to a directory)" % (
                                     d, "it" if existing == d else existing))
    return d


def sha256_file(path, _memo={}):
    st = os.stat(path)
    memo_key = (os.path.realpath(path), st.st_size, st.st_mtime_ns)
    if memo_key not in _memo:
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        _memo[memo_key] = h.hexdigest()
    return _memo[memo_key]


def kernel_key(mlir_text, flags, chip, aot_identity, version=__version__):
    """The content hash of one compiled kernel."""
    blob = json.dumps({"format": KEY_FORMAT, "mlir": mlir_text, "flags": list(flags),
                       "chip": chip, "dwc_version": version, "aot": aot_identity},
                      sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


class FileLock:
    """An exclusive fcntl lock on `path` (created), for `with`."""

    def __init__(self, path):
        self.path = path
        self.fh = None

    def __enter__(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self.fh = open(self.path, "a")
        fcntl.flock(self.fh, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fh, fcntl.LOCK_UN)
        self.fh.close()


def publish(build, final):
    """Runs build(tmpdir) once for `final` (a directory) under a lock and
    renames the result into place; returns whether this call built it.
    build() raises on failure (nothing is published)."""
    if os.path.isdir(final):
        return False
    parent = os.path.dirname(final)
    os.makedirs(parent, exist_ok=True)
    with FileLock(os.path.join(parent, ".locks", os.path.basename(final) + ".lock")):
        if os.path.isdir(final):  # another process built it meanwhile
            return False
        tmp = tempfile.mkdtemp(prefix=".tmp-", dir=parent)
        try:
            build(tmp)
            os.rename(tmp, final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return True


class CompileError(RuntimeError):
    pass


def error_summary(text, limit=400):
    """A compile error on one line, for a log line or a report: dwc-aot's
    'error:' lines (the cause: its last line is only 'lowering pipeline
    failed'), else every line; the temporary file's path and the function's
    name (the caller says which) left out, so that one cause reads alike
    for every kernel it failed."""
    text = re.sub(r"^dwc-aot failed on \S+ (\(rc -?\d+\)): ", r"dwc-aot \1: ", str(text))
    lines = [re.sub(r"\S*kernel\.mlir:\d+:\d+: ", "", ln.strip())
             for ln in text.strip().splitlines() if ln.strip()]
    errors = [ln for ln in lines if "error:" in ln]
    out = " / ".join(errors or lines)
    return out if len(out) <= limit else out[:limit - 3] + "..."


def compile_kernel(mlir_text, name, aot, flags=(), chip="sm_90", root=None, around=None):
    """dwc-aot of one function through the cache; returns (entry directory
    with kernel.o/kernel.h/kernel.mlir/meta.json, compiled_now). around():
    a context manager wrapping dwc-aot's run, entered only when it runs (a
    progress line for a compile, none for a cache hit)."""
    aot = os.path.abspath(aot)
    key = kernel_key(mlir_text, flags, chip, sha256_file(aot))
    root = root or cache_dir()
    final = os.path.join(root, "kernels", key[:2], key)
    if os.path.isfile(os.path.join(final, "kernel.o")):
        return final, False

    def build(tmp):
        src = os.path.join(tmp, "kernel.mlir")
        with open(src, "w") as fh:
            fh.write(mlir_text)
        # The one place dwc-aot is invoked: pipeline options as --<name>=<value>.
        cmd = [aot, src, "-o", os.path.join(tmp, "kernel.o"),
               "--header=" + os.path.join(tmp, "kernel.h"), "--chip=" + chip] + list(flags)
        t0 = time.time()
        with around() if around else contextlib.nullcontext():
            r = subprocess.run(cmd, capture_output=True, text=True)
        dt = time.time() - t0
        if r.returncode != 0:
            raise CompileError("dwc-aot failed on %s (rc %d): %s" % (
                name, r.returncode, (r.stdout + r.stderr).strip()[-2000:]))
        with open(os.path.join(tmp, "meta.json"), "w") as fh:
            json.dump({"name": name, "chip": chip, "flags": list(flags), "aot": aot,
                       "dwc_version": __version__, "key": key,
                       "compile_s": round(dt, 3)}, fh, indent=1)
        log.info("dwc_torch: compiled %s for %s in %.2f s (%s)", name, chip, dt, final)

    return final, publish(build, final)


def link_shared(objects, runtime_so, root=None, cxx=None):
    """g++ -shared of `objects` against libdwc_runtime, cached by the
    objects' and the runtime's content; returns the .so path."""
    h = hashlib.sha256()
    for o in list(objects) + [runtime_so]:
        h.update(sha256_file(o).encode())
    key = h.hexdigest()
    root = root or cache_dir()
    final = os.path.join(root, "libs", key[:2], key)
    so = os.path.join(final, "libdwc_kernels.so")
    if os.path.isfile(so):
        return so
    rt_dir = os.path.dirname(os.path.abspath(runtime_so))

    def build(tmp):
        cmd = [cxx or os.environ.get("CXX", "g++"), "-shared", "-o",
               os.path.join(tmp, "libdwc_kernels.so")] + list(objects) + [
            os.path.abspath(runtime_so), "-Wl,-rpath," + rt_dir, "-Wl,--no-undefined"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise CompileError("linking the kernels failed: %s\n%s" % (
                " ".join(cmd), (r.stdout + r.stderr)[-2000:]))

    publish(build, final)
    return so
