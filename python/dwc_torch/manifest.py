"""manifest.json of an AOT directory (no torch): which kernels it holds, per
chip. One directory accumulates the kernels of every `python -m
dwc_torch.aot` into it, for one chip or several:

    {"format": "dwc_torch-kernels-2", "dwc_version": ...,
     "chips": {"sm_90a": {"aot": ..., "aot_flags": [...], "created": ...,
                          "build_s": ..., "specs": [spec + {"ops": {...}}]}}}

Each chip's files are under DIR/<chip>/ (an op's "object" and "header"
are relative to DIR). A directory of the first format (one chip, files at
the top, "specs" at the top) reads as one chip's section.
"""

import json
import os
import re
import shutil

from . import cache

FORMAT = "dwc_torch-kernels-2"
FORMAT_PREFIX = "dwc_torch-kernels-"
_NAME = "manifest.json"


def path_of(kernels_dir):
    return os.path.join(kernels_dir, _NAME)


def read(kernels_dir, what="load_kernels"):
    """The manifest of kernels_dir in the current format; a clear error
    naming the directory where there is none or it is not one."""
    path = path_of(kernels_dir)
    if not os.path.isfile(path):
        raise FileNotFoundError("%s(%r): no manifest.json there (the --out directory of "
                                "python -m dwc_torch.aot)" % (what, kernels_dir))
    try:
        with open(path) as fh:
            m = json.load(fh)
    except ValueError as e:
        raise ValueError("%s(%r): manifest.json is not JSON (%s)" % (what, kernels_dir, e))
    if not isinstance(m, dict) or not str(m.get("format", "")).startswith(FORMAT_PREFIX):
        raise ValueError("%s(%r): manifest.json was not written by python -m dwc_torch.aot"
                            % (what, kernels_dir))
    return upgraded(m)


def upgraded(m):
    """A manifest of the first format (one chip, "specs" at the top) as
    the current one."""
    if "chips" in m:
        return m
    section = {k: m[k] for k in ("aot", "aot_flags", "created", "build_s", "specs") if k in m}
    return {"format": FORMAT, "dwc_version": m.get("dwc_version"),
            "chips": {m.get("chip", "sm_90"): section}}


def chips(m):
    return sorted(m.get("chips", {}))


def sm_number(chip):
    """'sm_90a' -> 90 (None for a name that is no chip)."""
    got = re.fullmatch(r"sm_(\d+)[af]?", chip or "")
    return int(got.group(1)) if got else None


def chip_for(m, want):
    """The chip of manifest m whose kernels run on chip `want`: `want`
    itself, else one of the same architecture (sm_90 and sm_90a both run on
    a Hopper); None where there is none."""
    have = chips(m)
    if want in have:
        return want
    same = [c for c in have if sm_number(c) is not None and sm_number(c) == sm_number(want)]
    return same[0] if same else None


def specs(m, chip=None):
    """The spec entries of `chip` (default: the manifest's only chip, or
    its first)."""
    have = chips(m)
    if not have:
        return []
    return m["chips"][chip or have[0]].get("specs", [])


def merged_section(old, new):
    """A chip's section with `new`'s specs and ops added to `old`'s (an op
    compiled again replaces its entry); the rest of `new` wins."""
    out = dict(new)
    by_key = {s["key"]: dict(s, ops=dict(s["ops"])) for s in (old or {}).get("specs", [])}
    for s in new.get("specs", []):
        if s["key"] in by_key:
            by_key[s["key"]]["ops"].update(s["ops"])
        else:
            by_key[s["key"]] = s
    out["specs"] = list(by_key.values())
    return out


def write(kernels_dir, chip, section, version, clean=False):
    """Adds one chip's compiled kernels (section) to kernels_dir's manifest
    under a lock (concurrent AOT runs into one directory), keeping what
    earlier runs put there -- all of it replaced with clean=True (their
    files removed, those of this run kept). Returns the manifest."""
    with cache.FileLock(os.path.join(kernels_dir, ".locks", "manifest.lock")):
        old = _existing(kernels_dir)
        if clean:
            _remove_others(kernels_dir, old, chip, section)
            old = None
        m = old or {"format": FORMAT, "chips": {}}
        m["format"], m["dwc_version"] = FORMAT, version
        m["chips"][chip] = merged_section(m["chips"].get(chip), section)
        tmp = os.path.join(kernels_dir, ".manifest.json.tmp")
        with open(tmp, "w") as fh:
            json.dump(m, fh, indent=1)
        os.replace(tmp, path_of(kernels_dir))
    return m


def _existing(kernels_dir):
    """The directory's manifest before this run, or None (none, or one
    that is not dwc_torch's: replaced)."""
    try:
        return read(kernels_dir, "python -m dwc_torch.aot --out")
    except (OSError, ValueError):
        return None


def _remove_others(kernels_dir, old, chip, section):
    """--clean: the files of earlier runs that this run did not write."""
    keep = {os.path.normpath(o[f]) for s in section.get("specs", [])
            for o in s["ops"].values() for f in ("object", "header", "source") if o.get(f)}
    for c in chips(old) if old else []:
        if c != chip and os.path.isdir(os.path.join(kernels_dir, c)):
            shutil.rmtree(os.path.join(kernels_dir, c))
    for root in (kernels_dir, os.path.join(kernels_dir, chip)):
        if not os.path.isdir(root):
            continue
        for f in os.listdir(root):
            rel = os.path.normpath(os.path.relpath(os.path.join(root, f), kernels_dir))
            if os.path.splitext(f)[1] in (".mlir", ".o", ".h", ".log") and rel not in keep:
                os.remove(os.path.join(root, f))
