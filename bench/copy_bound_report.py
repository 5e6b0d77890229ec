"""Per-layer floors of a bench/stride_harness.py run on a GPU other than the
one the floors assume (stride_configs: the H200's 4.24 TB/s): the byte
floor taken at the device's own copy bandwidth (--copy-tbps, e.g. the
'peak copy' line of the run's script), each forward's verdict: meets the
floor (x >= 1.5 or >= 85 % of it), copy-bound (stride 1 only, see
stride_configs.copy_bound: no kernel can meet it), or open. No torch.

    python3 bench/copy_bound_report.py RUN.json --copy-tbps 2.991 [--out F.md]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stride_configs import COPY_BPS, copy_bound, layer_from_dict  # noqa: E402


def device_floor_ms(r, copy_bps):
    """max(bytes / the device's copy bandwidth, the FLOP floor)."""
    L = layer_from_dict(r)
    byte_ms = L.bytes_moved() / COPY_BPS * 1e3
    flop_ms = r["floor_ms"] if r["floor_ms"] > byte_ms * 1.0001 else 0.0
    return max(L.bytes_moved() / copy_bps * 1e3, flop_ms)


def verdicts(rows, copy_bps):
    out = []
    for r in rows:
        a, t = r.get("after", {}), r.get("torch_best", {})
        if not a.get("fwd_ms") or not t.get("fwd"):
            continue
        dev = dict(r, floor_ms=device_floor_ms(r, copy_bps))
        x, pct = t["fwd"] / a["fwd_ms"], 100 * dev["floor_ms"] / a["fwd_ms"]
        copy = r.get("copy_ms")
        state = ("meets" if x >= 1.5 or pct >= 85 else
                 "copy-bound" if copy_bound(dev, t["fwd"], copy, 1) else "open")
        out.append((r["key"], a["fwd_ms"], t["fwd"], x, pct, copy, state))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run")
    ap.add_argument("--copy-tbps", type=float, required=True)
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    with open(a.run) as f:
        d = json.load(f)
    rows = verdicts(d["rows"], a.copy_tbps * 1e12)
    lines = [f"Forward floors of `{os.path.basename(a.run)}` ({d['meta']['gpu']}) at its "
             f"{a.copy_tbps:.3f} TB/s copy bandwidth (`python3 bench/copy_bound_report.py "
             f"{a.run} --copy-tbps {a.copy_tbps}`)", "",
             "| layer | ours us | PyTorch us | x | % floor | copy us | % copy | verdict |",
             "|---|---|---|---|---|---|---|---|"]
    for key, ours, pt, x, pct, copy, state in rows:
        cp = f"{copy * 1e3:.1f} | {100 * copy / ours:.0f}%" if copy else "- | -"
        lines.append(f"| {key} | {ours * 1e3:.1f} | {pt * 1e3:.1f} | {x:.2f} | {pct:.0f}% | "
                     f"{cp} | {state} |")
    counts = {s: sum(1 for r in rows if r[-1] == s) for s in ("meets", "copy-bound", "open")}
    lines += ["", "Forwards: " + ", ".join(f"{n} {s}" for s, n in counts.items())
              + f" (of {len(rows)})"]
    text = "\n".join(lines) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
