"""The strided-layer table of the compiler's current choice of backward-filter
kernel, from a run of bench/stride_harness.py that timed both candidates
(no GPU here; torch is only imported for the harness's report writer).

The streaming and split-z backward-filter kernels differ only in which one
dwc-to-nvvm selects; a run that timed the default kernels ("after") next to
a variant built with the backward-filter ops configured as
#dwc.bwd_filter_split_z (split-z everywhere; formerly
--bwd-filter-options=stream-max-taps=0) measured both. This script asks
dwc-aot which of the two the current default emits for every layer (the
kernel names of the pipeline's MLIR: <func>_bwd_filter_split_z or
<func>_bwd_filter_stream), takes that side's backward-filter time,
recomputes the training-step sums and writes the report.

    python3 bench/stride_compose.py bench/results/stride-RUN.json \\
        --split-z-sides v3,v5 --aot build/bin/dwc-aot --out bench/results --label NAME
"""

import argparse
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stride_configs import OPS, layer_from_dict  # noqa: E402


def pipeline_mlir(aot, src, flags):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "k.mlir")
        with open(p, "w") as f:
            f.write(src)
        out = subprocess.run([aot, p, "--emit=mlir", "-o", "/dev/stdout"] + flags,
                             capture_output=True, text=True, check=True).stdout
    return re.sub(r"properties = \{[^}]*\}", "", out)


def default_is_split_z(aot, layer):
    out = pipeline_mlir(aot, layer.mlir("bwd_filter"), [])
    if "_bwd_filter_split_z" not in out and "_bwd_filter_stream" not in out:
        raise SystemExit("stride_compose: no backward-filter kernel in the "
                         "pipeline's output for " + layer.name("bwd_filter"))
    return "_bwd_filter_split_z" in out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_json")
    ap.add_argument("--split-z-sides", required=True,
                    help="comma-separated variant sides built with split-z everywhere")
    ap.add_argument("--aot", default="build/bin/dwc-aot")
    ap.add_argument("--out", default="bench/results")
    ap.add_argument("--label", required=True)
    a = ap.parse_args()
    with open(a.run_json) as f:
        run = json.load(f)
    sz_sides = a.split_z_sides.split(",")
    rows = []
    for r in run["rows"]:
        r = copy.deepcopy(r)
        rows.append(r)
        if r.get("odd") or "after" not in r:
            continue
        L = layer_from_dict(r)
        split = default_is_split_z(a.aot, L)
        r["bwd_filter_kernel"] = "split-z" if split else "stream"
        if split:
            src = next((r[s] for s in sz_sides if r.get(s, {}).get("bwd_filter_ms")), None)
            if src is None:
                r["after"].pop("bwd_filter_ms", None)
            else:
                r["after"]["bwd_filter_ms"] = src["bwd_filter_ms"]
                r["after"]["bwd_filter_status"] = src["bwd_filter_status"]
                r["after"]["bwd_filter_rel_err"] = src["bwd_filter_rel_err"]
        a_ = r["after"]
        if all(a_.get(op + "_ms") for op in OPS):
            a_["step_ms"] = sum(a_[op + "_ms"] for op in OPS)
        else:
            a_.pop("step_ms", None)
    meta = dict(run["meta"])
    meta["sides"] = ["after", "before"]
    meta["command"] = (meta["command"] + "`, composed by `python3 bench/stride_compose.py "
                       + " ".join(sys.argv[1:]))
    import stride_harness  # noqa: E402  (imports torch)
    for r in rows:
        for s in list(r):
            if s not in ("after", "before") and isinstance(r[s], dict) and "fwd_status" in r[s]:
                del r[s]
    stride_harness.write(a.out, a.label, meta, rows)
    print(open(os.path.join(a.out, f"stride-{a.label}.md")).read())


if __name__ == "__main__":
    main()
