"""The entry points, one per purpose:

  layers   depthwise convolution layers (networks' layer set, grids, odd shapes)
  pool     max / average pooling and global average pooling
  conv     dense conv2d
  networks whole networks through dwc_torch (and exported through MLIR)
  fusion   fused depthwise layers (BatchNorm / activation neighbours) and their networks
  fusion-sweep  the fused layers under each candidate kernel configuration

each with `list` and `build` (here, with MLIR) and `run` (on the GPU
machine: bench/run_on_gpu.sh calls it); `layers report` composes the
layer-set summary. Tools the tests use: ptxas-audit, ptx-identity."""

import argparse
import os

from . import ROOT

TOPICS = ("layers", "pool", "conv")


def _topic_parser(sub, topic):
    from .sets import SETS
    p = sub.add_parser(topic, help="%s kernels vs PyTorch" % topic)
    acts = p.add_subparsers(dest="action", required=True)
    sets = ", ".join(SETS[topic])
    for act in ("list", "build"):
        q = acts.add_parser(act)
        q.add_argument("--set", default=next(iter(SETS[topic])),
                       help="set names joined by '+' (%s)" % sets)
        q.add_argument("--only", default="", help="keys containing one of these (comma-separated)")
        if act == "build":
            q.add_argument("--aot", default=os.path.join(ROOT, "build/bin/dwc-aot"))
            q.add_argument("--out", default=os.path.join(ROOT, ".carry", topic))
            q.add_argument("--aot-flag", action="append", default=[],
                           help="extra dwc-aot flag for every kernel (e.g. --chip=sm_90a)")
            q.add_argument("--kernel", action="append", default=[], metavar="OP=CONFIG",
                           help="dwc.kernel configuration on every OP (a variant; "
                                "docs/KernelSelection.md)")
            q.add_argument("--tag", default="", help="entry-point suffix of a variant")
            q.add_argument("-j", type=int, default=2)
    q = acts.add_parser("run", help="on the GPU machine (bench/run_on_gpu.sh)")
    q.add_argument("--kernels", default=os.path.join(ROOT, ".carry", topic))
    q.add_argument("--baseline", default="", help="a second kernel directory timed alongside")
    q.add_argument("--runtime-lib", required=True)
    q.add_argument("--work", default="/tmp/dwcbench")
    q.add_argument("--out", required=True)
    q.add_argument("--label", default=topic)
    q.add_argument("--only", default="")
    q.add_argument("--iters", type=int, default=500, help="most timed runs per op")
    q.add_argument("--target-s", type=float, default=0.75, help="timed seconds per op and side")
    q.add_argument("--time-budget", type=float, default=480,
                   help="seconds after which items are checked but no longer timed")
    q.add_argument("--no-graphs", dest="graphs", action="store_false",
                   help="per-call CUDA events only (no CUDA-graph kernel times)")
    q.add_argument("--no-timing", action="store_true", help="correctness only")
    q.add_argument("--seed", type=int, default=2020)
    if topic == "layers":
        q = acts.add_parser("report", help="the layer-set summary from runs of set net")
        q.add_argument("runs", nargs="+", help="RUN.json[:OPS[:KEYS]], later runs win")
        q.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
        q.add_argument("--label", required=True)
        q.add_argument("--plot", action="store_true")
        q.add_argument("--command", default="", help="the runs' command lines, to record")


def _items(a, topic):
    from .sets import get_set, select
    items = select(get_set(topic, a.set), a.only)
    kernels = dict(k.split("=", 1) for k in getattr(a, "kernel", []))
    if kernels or getattr(a, "tag", ""):
        for it in items:
            it.kernels = {op: c for op, c in kernels.items() if op in it.ops} or it.kernels
            it.tag = a.tag or it.tag
    return items


def main(argv=None):
    ap = argparse.ArgumentParser(prog="dwcbench", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="topic", required=True)
    for t in TOPICS:
        _topic_parser(sub, t)
    n = sub.add_parser("networks", help="whole networks (python3 bench/dwcbench networks "
                       "{prepare,run,report,profile,exported,exported-cpu} -h)")
    n.add_argument("action", choices=("prepare", "run", "report", "profile", "exported",
                                      "exported-cpu"))
    n.add_argument("rest", nargs=argparse.REMAINDER)
    f = sub.add_parser("fusion", help="fused depthwise layers and the networks that have them "
                       "(python3 bench/dwcbench fusion {prepare,run} -h)")
    f.add_argument("rest", nargs=argparse.REMAINDER)
    f = sub.add_parser("fusion-sweep", help="kernel configurations of the fused layers, measured "
                       "(python3 bench/dwcbench fusion-sweep {prepare,run} -h)")
    f.add_argument("rest", nargs=argparse.REMAINDER)
    p = sub.add_parser("ptxas-audit", help="ptxas -v over a folder of layer MLIR")
    p.add_argument("dir")
    p.add_argument("--chip", default="sm_90")
    p.add_argument("--dwc-opt", default=os.path.join(ROOT, "build/bin/dwc-opt"))
    p.add_argument("-j", type=int, default=2)
    p.add_argument("--only", default="", help="only files whose name contains this")
    p.add_argument("--json")
    p = sub.add_parser("ptx-identity", help="PTX of every benchmark kernel, before vs after")
    acts = p.add_subparsers(dest="action", required=True)
    s = acts.add_parser("snapshot")
    s.add_argument("dir")
    s.add_argument("--dwc-opt", default=os.path.join(ROOT, "build/bin/dwc-opt"))
    s.add_argument("--chips", default="sm_90,sm_90a")
    s.add_argument("--only", default="")
    s.add_argument("-j", type=int, default=2)
    c = acts.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    c.add_argument("--renamed", action="store_true",
                   help="count kernels whose PTX differs only in what kernel names decide "
                        "(__wg_<kernel>_<i> buffer names, entry indices) as identical")
    a = ap.parse_args(argv)

    if a.topic == "networks":
        from importlib import import_module
        mod = {"prepare": "networks", "run": "networks", "report": "networks_report",
               "profile": "networks_profile", "exported": "exported_models",
               "exported-cpu": "exported_cpu"}[a.action]
        rest = ([a.action] if a.action in ("prepare", "run") else []) + a.rest
        return import_module("dwcbench." + mod).main(rest)
    if a.topic == "fusion":
        from .fusion import main as fusion_main
        return fusion_main(a.rest)
    if a.topic == "fusion-sweep":
        from .fusion_sweep import main as sweep_main
        return sweep_main(a.rest)
    if a.topic == "ptxas-audit":
        from .ptx import ptxas_audit
        return ptxas_audit(a)
    if a.topic == "ptx-identity":
        from .ptx import compare, snapshot
        return snapshot(a) if a.action == "snapshot" else compare(a)
    if a.action == "list":
        from .machine import floor_ms
        for it in _items(a, a.topic):
            print(it.key, " ".join("%s %.4f ms" % (op, floor_ms(it.spec, op)) for op in it.ops),
                  "(odd)" if it.odd else it.net)
        return 0
    if a.action == "build":
        from .build import build
        items = _items(a, a.topic)
        ok, total = build(items, a.topic, a.set, a.aot, a.out, a.j, a.aot_flag)
        print("%d/%d kernels built into %s" % (ok, total, a.out))
        return 0 if ok == total else 1
    if a.action == "report":
        from .report import layer_report
        return layer_report(a)
    from .driver import run
    return run(a)
