"""Persistent tuning cache of convert(): what timing a layer (its per-op
times, route and agreement with PyTorch) and a whole model (which converted
layers made it faster) found, so a second convert of the same model on the
same machine and software reuses the answer instead of timing again.

An entry is keyed by a content hash of what the answer depends on: the
layer's spec (shape, kernel, stride, padding, dilation, dtype, bias), the
input's strides and dtype, training or inference, the autocast dtype -- and
the environment: GPU name, torch and cuDNN versions, dwc_torch's version,
and the kernels' identity (the manifests of the loaded kernel directories
and the dwc-aot binary of compile-on-first-use). Anything else gives another
key, so a stale answer is never read. Entries live in the kernel cache
directory (cache.cache_dir()/tuning), one JSON file each, written to a
temporary file and renamed into place (atomic: several processes may tune
at once; the last writer wins with an equally valid answer). A file that
cannot be read or parsed is a miss. DWC_TUNING_CACHE=0 turns the cache off.
"""

import hashlib
import json
import logging
import os
import tempfile

from . import cache
from .version import __version__

log = logging.getLogger("dwc_torch")
FORMAT = "dwc-tuning-1"


def enabled():
    return os.environ.get("DWC_TUNING_CACHE", "1") != "0"


def kernel_identity():
    """Hash of the kernels convert's timings ran: the loaded kernel
    directories' manifests and the dwc-aot binary (compile on first use)."""
    from . import kernels
    h = hashlib.sha256()
    for d in sorted(kernels._kernel_dirs):
        m = os.path.join(d, "manifest.json")
        h.update((cache.sha256_file(m) if os.path.isfile(m) else d).encode())
    aot = kernels.find_aot()
    if aot:
        h.update(cache.sha256_file(aot).encode())
        h.update(kernels.current_chip().encode())
    return h.hexdigest()[:32]


def environment():
    import torch
    on_gpu = torch.cuda.is_available() and torch.cuda.is_initialized()
    return {"device": torch.cuda.get_device_name() if on_gpu else "cpu",
            "torch": torch.__version__, "cudnn": torch.backends.cudnn.version(),
            "dwc_torch": __version__, "kernels": kernel_identity()}


def key(kind, fields, env=None):
    blob = json.dumps({"format": FORMAT, "kind": kind, "fields": fields,
                       "env": environment() if env is None else env},
                      sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def entry_path(k):
    return os.path.join(cache.cache_dir(), "tuning", k[:2], k + ".json")


def load(k):
    """The value stored under key k, or None (missing, unreadable, corrupt)."""
    if not enabled():
        return None
    try:
        with open(entry_path(k)) as fh:
            d = json.load(fh)
    except (OSError, ValueError):
        return None
    return d.get("value") if isinstance(d, dict) and d.get("key") == k else None


def store(k, value):
    """Writes value under key k atomically; a failure (read-only cache
    directory, full disk) is logged, never raised: the cache is an
    optimisation."""
    if not enabled():
        return False
    path = k
    try:
        path = entry_path(k)  # raises where the cache directory cannot be one
        d = os.path.dirname(path)
        os.makedirs(d, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=d)
        try:
            with os.fdopen(fd, "w") as fh:
                json.dump({"key": k, "value": value}, fh)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as e:
        log.info("dwc_torch: tuning cache not written (%s): %s", path, e)
        return False
    return True
