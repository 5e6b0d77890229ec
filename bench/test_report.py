"""CPU check of the harness's non-GPU parts: config sets, names, floors,
anchors, MLIR text, and the JSON/markdown/PNG report on synthetic rows.

    python3 bench/test_report.py [OUTDIR]
"""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import configs  # noqa: E402
import report  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def check_sets():
    grid, odd, smoke = configs.grid_set(), configs.odd_set(), configs.smoke_set()
    assert len(grid) == 48, len(grid)
    assert 10 <= len(odd) <= 20 and len(smoke) == 3
    names = [c.name for c in grid + odd + smoke]
    assert len(set(names)) == len(names), "names must be unique"
    c = configs.Config(128, 64, 64, 256, 31, 31, "f16")
    assert c.name == "dwc_fwd_n128h64w64c256_f31_s1_d1_f16", c.name
    assert c.symbol == "dwc_" + c.name
    assert (c.OH, c.OW, c.padding) == (64, 64, [15, 15, 15, 15])
    s2 = configs.Config(4, 57, 57, 96, 5, 5, "f16", stride=[2, 2])
    assert (s2.OH, s2.OW) == (29, 29)
    d2 = configs.Config(2, 33, 35, 64, 5, 5, "f16", stride=[2, 2], dilation=[2, 2])
    assert d2.padding == [4, 4, 4, 4] and (d2.OH, d2.OW) == (17, 18)
    a = configs.Config(2, 30, 31, 40, 4, 4, "f32", padding=[1, 2, 2, 1])
    assert (a.OH, a.OW) == (30, 31) and "_p1x2x2x1_" in a.name
    assert "_f51x5_" in configs.Config(2, 64, 64, 64, 51, 5).name
    assert all(" " not in n and n.isascii() for n in names)
    for cfg in grid + odd + smoke:
        t = cfg.mlir()
        assert f"func.func @{cfg.name}(" in t and "dwc.depthwise_conv2d" in t
        assert ("bias(" in t) == cfg.bias


def check_floors_against_anchors():
    anchors_doc = json.load(open(os.path.join(HERE, "anchors-h200.json")))
    anchors = report.load_anchors(os.path.join(HERE, "anchors-h200.json"))
    n = 0
    for r in anchors_doc["rows"]:
        if r["op"] != "dwc_fwd":
            continue
        dt = {"float32": "f32", "float16": "f16"}[r["dtype"]]
        c = configs.Config(r["N"], r["H"], r["W"], r["C"], r["F"], r["F"], dt)
        assert abs(c.floor_ms() - r["floor_ms"]) / r["floor_ms"] < 2e-3, (c.name, c.floor_ms(), r["floor_ms"])
        assert report.anchor_ms(anchors, c) == r["ms"]
        n += 1
    assert n == 48, n
    assert all(report.anchor_ms(anchors, c) is not None for c in configs.grid_set())
    assert all(report.anchor_ms(anchors, c) is None for c in configs.odd_set())


def synthetic_rows():
    anchors = report.load_anchors(os.path.join(HERE, "anchors-h200.json"))
    rows = []
    for i, c in enumerate(configs.grid_set() + configs.odd_set()[:4]):
        r = report.base_row(c, anchors)
        r.update(status="ok", correct=i % 17 != 5, rel_err=1e-6 if c.dtype == "f32" else 4e-4,
                 ours_ms=c.floor_ms() * 1.6, ref="cudnn-autotuned" if c.FH <= 7 else "cudnn-heuristic",
                 ref_ms=(r["anchor_cudnn_ms"] or c.floor_ms() * 3) * 1.01, timing="done")
        if i == 7:
            r.update(ours_ms=None, ref_ms=None, timing="skipped: time budget")
        rows.append(r)
    return rows


def main():
    check_sets()
    check_floors_against_anchors()
    out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="dwc-report-")
    meta = {"date": "2026-12-01T10:00:00Z", "gpu": "NVIDIA H200", "commit": "abc",
            "command": "bench/gpu.sh --set grid", "torch": "2.11.0+cu130", "cudnn": 91300,
            "label": "synthetic"}
    doc = report.write_all(synthetic_rows(), meta, out, "synthetic")
    back = json.load(open(os.path.join(out, "synthetic.json")))
    for k in ("date", "gpu", "commit", "command", "torch", "cudnn", "ceilings", "rows"):
        assert k in back, k
    r0 = back["rows"][0]
    for k in ("op", "N", "H", "W", "C", "FH", "FW", "stride", "dilation", "padding", "dtype",
              "variant", "ours_ms", "ref", "ref_ms", "speedup", "floor_ms", "rel_err", "correct"):
        assert k in r0, k
    assert abs(r0["speedup"] - r0["ref_ms"] / r0["ours_ms"]) < 1e-12
    assert abs(r0["pct_of_floor"] - 62.5) < 1e-9
    md = open(os.path.join(out, "synthetic.md")).read()
    assert md.count("\n| dwc_fwd_") == len(back["rows"])
    print(report.short_table(doc))
    png = os.path.join(out, "synthetic.png")
    print("outputs in", out, "(png:", "yes" if os.path.exists(png) else "no matplotlib here", ")")
    print("test_report: OK")


if __name__ == "__main__":
    main()
