"""Ahead-of-time step (development machine, where MLIR is): layer specs ->
one .mlir per op (forward, backward-data, backward-filter) -> dwc-aot ->
object + header, and a manifest.json that the GPU side reads.

    python3 -m dwc_torch.aot --aot build/bin/dwc-aot --out .carry/torch_kernels \\
        --spec 64,64,32,32,7,1,3,1,f32,bias --spec ... [--specs-file F.json] [-j 2]

A spec is N,C,H,W,kernel[,stride[,padding[,dilation[,dtype[,bias]]]]] (see
spec.parse_spec). Objects whose .mlir did not change and that are newer than
dwc-aot are kept (rebuilds only compile what changed). A failing compile is
recorded in the manifest (`error`) and the others go on; the GPU side then
falls back to PyTorch for that layer. No torch needed.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from dwc_torch.spec import OPS, LayerSpec, parse_spec  # noqa: E402
else:
    from .spec import OPS, LayerSpec, parse_spec

MANIFEST_FORMAT = "dwc_torch-kernels-1"


def _git_commit(path):
    try:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        c = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True,
                           text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=10).stdout.strip()
        return (c + "-dirty") if (c and dirty) else (c or "unknown")
    except Exception:
        return "unknown"


def _compile(aot, mlir_path, extra_flags):
    base = mlir_path[:-len(".mlir")]
    obj, hdr, log = base + ".o", base + ".h", base + ".log"
    if (os.path.exists(obj) and os.path.getmtime(obj) >= os.path.getmtime(mlir_path)
            and os.path.getmtime(obj) >= os.path.getmtime(aot)):
        return None, 0.0, True
    t0 = time.time()
    with open(log, "w") as fh:
        r = subprocess.run([aot, mlir_path, "-o", obj, "--header", hdr] + extra_flags,
                           stdout=fh, stderr=subprocess.STDOUT)
    dt = time.time() - t0
    if r.returncode != 0:
        if os.path.exists(obj):
            os.remove(obj)
        with open(log) as fh:
            return fh.read()[-2000:] or "dwc-aot failed (rc %d)" % r.returncode, dt, False
    return None, dt, False


def build(specs, aot, out, jobs=2, extra_flags=(), ops=OPS, log=print):
    """Writes .mlir files, compiles them, writes out/manifest.json; returns
    the manifest (a dict)."""
    aot = os.path.abspath(aot)
    if not os.access(aot, os.X_OK):
        raise FileNotFoundError("dwc-aot not found or not executable: %s" % aot)
    os.makedirs(out, exist_ok=True)
    specs = list(dict.fromkeys(specs))  # unique, in order
    work = []
    for s in specs:
        for op in ops:
            path = os.path.join(out, s.func_name(op) + ".mlir")
            text = s.mlir(op)
            old = open(path).read() if os.path.exists(path) else None
            if old != text:
                with open(path, "w") as fh:
                    fh.write(text)
            work.append((s, op, path))
    t0 = time.time()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futs = {ex.submit(_compile, aot, p, list(extra_flags)): (s, op) for s, op, p in work}
        for f in concurrent.futures.as_completed(futs):
            s, op = futs[f]
            err, dt, cached = f.result()
            results[(s, op)] = (err, dt, cached)
            log("  %-8s %-10s %s%s" % ("FAILED" if err else ("cached" if cached else "ok"),
                                     op, s.key, "" if cached else " (%.1f s)" % dt))
    manifest = {
        "format": MANIFEST_FORMAT,
        "commit": _git_commit(out),
        "aot": aot,
        "aot_flags": list(extra_flags),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "build_s": round(time.time() - t0, 1),
        "specs": [],
    }
    for s in specs:
        entry = s.to_dict()
        entry["ops"] = {}
        for op in ops:
            err, dt, _ = results[(s, op)]
            entry["ops"][op] = {
                "function": s.func_name(op),
                "symbol": s.symbol(op),
                "object": s.func_name(op) + ".o",
                "header": s.func_name(op) + ".h",
                "compile_s": round(dt, 2),
                "error": err,
            }
        manifest["specs"].append(entry)
    with open(os.path.join(out, "manifest.json"), "w") as fh:
        json.dump(manifest, fh, indent=1)
    return manifest


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--aot", required=True, help="path of dwc-aot")
    ap.add_argument("--out", required=True, help="output directory (kept; stale "
                    "files of other specs are removed with --clean)")
    ap.add_argument("--spec", action="append", default=[],
                    help="N,C,H,W,k[,stride[,pad[,dil[,dtype[,bias]]]]]")
    ap.add_argument("--specs-file", help="JSON list of spec strings or dicts")
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--clean", action="store_true",
                    help="remove files of specs not in this list")
    ap.add_argument("--aot-flag", action="append", default=[],
                    help="extra dwc-aot flag (e.g. --aot-flag=--fast-paths=false)")
    args = ap.parse_args(argv)
    specs = [parse_spec(t) for t in args.spec]
    if args.specs_file:
        for item in json.load(open(args.specs_file)):
            specs.append(parse_spec(item) if isinstance(item, str) else LayerSpec.from_dict(item))
    if not specs:
        ap.error("no spec given (--spec or --specs-file)")
    ops = tuple(o for o in args.ops.split(",") if o)
    for o in ops:
        if o not in OPS:
            ap.error("unknown op %r (ops: %s)" % (o, ",".join(OPS)))
    if args.clean and os.path.isdir(args.out):
        keep = {s.func_name(op) for s in specs for op in ops}
        for f in os.listdir(args.out):
            stem, ext = os.path.splitext(f)
            if ext in (".mlir", ".o", ".h", ".log") and stem not in keep:
                os.remove(os.path.join(args.out, f))
    print("dwc_torch.aot: %d specs x %d ops -> %s" % (len(specs), len(ops), args.out))
    m = build(specs, args.aot, args.out, args.j, args.aot_flag, ops)
    failed = [o["symbol"] for s in m["specs"] for o in s["ops"].values() if o["error"]]
    size = sum(os.path.getsize(os.path.join(args.out, f)) for f in os.listdir(args.out))
    print("dwc_torch.aot: %d compiled, %d failed, %.1f s, %d KiB in %s" % (
        len(specs) * len(ops) - len(failed), len(failed), m["build_s"], size // 1024,
        args.out))
    for f in failed:
        print("dwc_torch.aot: FAILED %s" % f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
