"""Compiling benchmark configurations with dwc-aot (here, no GPU, no torch).

build_objects() writes one .mlir per configuration into OUTDIR (wiped; its
name must end in the given suffix), compiles each with dwc-aot into an object
and a header (a log per configuration, the object removed when it failed), in
parallel, and writes OUTDIR/manifest.json: the set, the kind, the commit of
this checkout, the dwc-aot used and one entry per configuration (its
to_dict(), the object name, whether it built and the log tail if not).
A configuration provides name, mlir(), to_dict() and, optionally,
aot_flags() (extra dwc-aot arguments).
"""

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor


def checkout_commit():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        return subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True,
                              text=True).stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def build_objects(cfgs, set_name, kind, aot, outdir, jobs, suffix):
    """Returns the number of configurations that built."""
    if not outdir.rstrip("/").endswith(suffix):
        raise SystemExit(f"--out must end in {suffix} (it is wiped)")
    subprocess.run(["rm", "-rf", outdir], check=True)
    os.makedirs(outdir)

    def one(c):
        base = os.path.join(outdir, c.name)
        with open(base + ".mlir", "w") as f:
            f.write(c.mlir())
        flags = c.aot_flags() if hasattr(c, "aot_flags") else []
        with open(base + ".log", "w") as log:
            rc = subprocess.run([aot, base + ".mlir", "-o", base + ".o", "--header", base + ".h"]
                                + flags, stdout=log, stderr=subprocess.STDOUT).returncode
        if rc != 0 and os.path.exists(base + ".o"):
            os.remove(base + ".o")
        return c, rc == 0

    with ThreadPoolExecutor(max_workers=jobs) as ex:
        results = list(ex.map(one, cfgs))
    entries = []
    for c, ok in results:
        e = c.to_dict()
        e["object"], e["built"] = c.name + ".o", ok
        if not ok:
            with open(os.path.join(outdir, c.name + ".log"), errors="replace") as f:
                e["build_error"] = f.read()[-2000:]
            print(f"  FAILED {c.name}")
        entries.append(e)
    with open(os.path.join(outdir, "manifest.json"), "w") as f:
        json.dump({"set": set_name, "kind": kind, "commit": checkout_commit(), "dwc_aot": aot,
                   "configs": entries}, f, indent=1)
    return sum(ok for _, ok in results)
