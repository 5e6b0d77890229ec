"""Which kernel family dwc would run for a layer: the compiler's own choice,
asked of dwc-opt (its kernel-selection pass with `diagnose`, which remarks
on each op the configuration chosen and why the other families refused),
so that explain and bench report what dwc-aot would compile, not a guess.

dwc-opt: $DWC_OPT, else next to dwc-aot (kernels.find_aot), else PATH.
No GPU is needed: the selection depends on the chip's name only.
"""

import functools
import os
import re
import shutil
import subprocess

_REMARK = re.compile(r"remark: dwc\.kernel = #dwc\.(\w+)(<[^:]*>)?: chosen(?:; refused: (.*))?")


def find_opt():
    """Path of dwc-opt, or None."""
    env = os.environ.get("DWC_OPT")
    if env:
        return shutil.which(env)
    from .kernels import find_aot
    aot = find_aot()
    if aot:
        near = os.path.join(os.path.dirname(aot), "dwc-opt")
        if os.access(near, os.X_OK):
            return near
    return shutil.which("dwc-opt")


class Family(tuple):
    """(family, configuration, refused): e.g. ('row_tile', '<channels = 4,
    ...>', 'full_row (...); ...'); family None with the reason in
    `refused` where it is not known."""

    def __new__(cls, family, config="", refused=""):
        return super().__new__(cls, (family, config, refused))

    family = property(lambda self: self[0])
    config = property(lambda self: self[1])
    refused = property(lambda self: self[2])

    def __str__(self):
        return self.family or "unknown (%s)" % self.refused


@functools.lru_cache(maxsize=None)
def _select(mlir, chip, opt):
    cmd = [opt, "--dwc-attach-target=chip=" + chip, "--dwc-select-kernels=diagnose=true",
           "-o", os.devnull]
    try:
        r = subprocess.run(cmd, input=mlir, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return Family(None, "", "dwc-opt did not run: %s" % e)
    m = _REMARK.search(r.stderr)
    if m:
        return Family(m.group(1), m.group(2) or "", m.group(3) or "")
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["rc %d" % r.returncode])[-1]
        return Family(None, "", "dwc-opt failed: %s" % last)
    return Family(None, "", "no family selected ahead of the kernel passes")


def kernel_family(spec, op, chip):
    """The Family dwc-opt selects for `op` of `spec` on `chip`."""
    opt = find_opt()
    if opt is None:
        return Family(None, "", "dwc-opt not found: set DWC_OPT or put it on PATH")
    return _select(spec.mlir(op), chip, opt)
