"""Compiling a set's kernels with dwc-aot (on the machine with MLIR; no GPU,
no torch): one .mlir per op of every item (dwc_torch's spec text), one
object and header each, and OUTDIR/manifest.json naming what was built."""

import json
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def mlir_of(item, op):
    """The op's function as dwc_torch writes it, renamed for a variant's
    tag, with the item's dwc.kernel configuration on the op if it pins one."""
    text = item.spec.mlir(op)
    if item.tag:
        text = text.replace("@%s(" % item.spec.func_name(op), "@%s(" % item.func_name(op), 1)
    config = item.kernels.get(op)
    if config:
        at = text.index(" -> ", text.index("= dwc."))
        text = text[:at] + " {dwc.kernel = %s}" % config + text[at:]
    return text


def checkout_commit():
    r = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                       capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def item_entry(item):
    d = item.spec.to_dict()
    d.update(key=item.key, family=item.spec.family, ops=list(item.ops), net=item.net, odd=item.odd,
             kernels=item.kernels, tag=item.tag, note=item.note)
    return d


def build(items, topic, set_name, aot, outdir, jobs=2, aot_flags=()):
    """Returns (built, total) kernel counts. OUTDIR is emptied first."""
    if os.path.exists(os.path.join(outdir, "manifest.json")) or not os.path.exists(outdir):
        shutil.rmtree(outdir, ignore_errors=True)
    elif os.listdir(outdir):
        raise SystemExit("%s is not a kernel directory; refusing to empty it" % outdir)
    os.makedirs(outdir, exist_ok=True)

    def one(job):
        item, op = job
        base = os.path.join(outdir, item.func_name(op))
        with open(base + ".mlir", "w") as f:
            f.write(mlir_of(item, op))
        with open(base + ".log", "w") as log:
            rc = subprocess.run([aot, base + ".mlir", "-o", base + ".o", "--header", base + ".h"]
                                + list(aot_flags), stdout=log, stderr=subprocess.STDOUT).returncode
        if rc != 0 and os.path.exists(base + ".o"):
            os.remove(base + ".o")
        return item.func_name(op), rc == 0

    jobs_list = [(it, op) for it in items for op in it.ops]
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        built = dict(ex.map(one, jobs_list))
    for name, ok in built.items():
        if not ok:
            print("  FAILED %s (%s.log)" % (name, os.path.join(outdir, name)))
    manifest = {"topic": topic, "set": set_name, "commit": checkout_commit(), "dwc_aot": aot,
                "aot_flags": list(aot_flags), "items": [item_entry(i) for i in items],
                "built": built}
    with open(os.path.join(outdir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    size = sum(os.path.getsize(os.path.join(outdir, f)) for f in os.listdir(outdir))
    if size > 48 << 20:
        print("warning: %s holds %.0f MiB; a device call carries 64 MiB in all"
              % (outdir, size / 2**20))
    return sum(built.values()), len(built)
