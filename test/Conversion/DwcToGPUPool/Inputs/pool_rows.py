"""check_ops.py with two more families, gpu_pool_forward_rows: pool2d cases
for the row-tiled forward kernel of convert-dwc-to-gpu-pool (windows
overlapping in height), with row tails (OH not a multiple of the 8-row
tile), padding, ceil_mode, count_include_pad, f32/f16/bf16, and
pool_backward_wide (windows too wide for the gather strips); and
`--request OP=CONFIG` (repeatable): dwc.kernel = CONFIG on every OP (e.g.
'dwc.pool2d_backward max') whose configuration rules take it, the others
left to dwc-select-kernels: the kernel variants a test forces on the cases
they fit (the compiler's verifier decides which)."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Integration", "CPU", "Inputs"))
import check_ops  # noqa: E402

_family = check_ops.family


def family(name, rng, count=0):
    if name == "pool_backward_wide":
        return wide_backward(rng)
    if name != "gpu_pool_forward_rows":
        return _family(name, rng, count)
    pc = check_ops.pool_case
    return [
        pc(rng, "rows_avg_3x3_s1_p1_excl_h11", "f32", "avg", 2, 11, 13, 8, (3, 3), (1, 1), (1, 1, 1, 1)),
        pc(rng, "rows_avg_3x3_s1_p1_incl_h19", "f32", "avg", 1, 19, 9, 4, (3, 3), (1, 1), (1, 1, 1, 1), cip=True),
        pc(rng, "rows_max_3x3_s1_p1_h11", "f32", "max", 2, 11, 13, 8, (3, 3), (1, 1), (1, 1, 1, 1)),
        pc(rng, "rows_max_3x3_s1_p0_h13", "f32", "max", 1, 13, 10, 4, (3, 3), (1, 1), (0, 0, 0, 0)),
        pc(rng, "rows_avg_f16_3x3_s1_p1_h10", "f16", "avg", 1, 10, 11, 16, (3, 3), (1, 1), (1, 1, 1, 1)),
        pc(rng, "rows_max_f16_3x3_s1_p1_h9", "f16", "max", 1, 9, 12, 8, (3, 3), (1, 1), (1, 1, 1, 1)),
        pc(rng, "rows_avg_bf16_5x3_s1_asym_incl", "bf16", "avg", 1, 12, 7, 8, (5, 3), (1, 1), (2, 1, 1, 0), cip=True),
        pc(rng, "rows_max_5x5_s2_ceil", "f32", "max", 1, 21, 11, 4, (5, 5), (2, 2), (2, 2, 2, 2), ceil=True),
        pc(rng, "rows_avg_4x2_s2_ceil_incl", "f32", "avg", 2, 19, 9, 4, (4, 2), (2, 1), (1, 2, 0, 1), ceil=True, cip=True),
    ]


def wide_backward(rng):
    """pool2d_backward cases whose windows are too wide for the gather strips
    (the rolled gather): recomputed and stored argmax with ties, padding,
    strides, ceil_mode, count_include_pad, f32/f16/bf16, scalar channels."""
    pb = check_ops.pool_bwd_case
    return [
        pb(rng, "wide_max_7x28", "f32", "max", 1, 9, 30, 8, (7, 28), (1, 1), (0, 0, 0, 0)),
        pb(rng, "wide_max_5x20_s2x3_pad_ceil", "f32", "max", 2, 11, 31, 4, (5, 20), (2, 3), (2, 1, 9, 4), ceil=True),
        pb(rng, "wide_max_f16_3x50_scalar_c3", "f16", "max", 1, 5, 52, 3, (3, 50), (1, 2), (1, 1, 0, 0)),
        pb(rng, "wide_avg_7x160_excl", "f32", "avg", 1, 9, 170, 8, (7, 160), (1, 1), (3, 3, 2, 2)),
        pb(rng, "wide_avg_4x33_s2_incl_ceil", "bf16", "avg", 1, 8, 40, 8, (4, 33), (2, 2), (1, 2, 16, 3), ceil=True, cip=True),
    ]


def where_it_fits(module, requests, dwc_opt):
    """`module` with each request's config on the ops it fits: attached to
    every matching op, then removed from the ops dwc-opt's verifier rejects
    it on (one verification per round)."""
    lines = module.split("\n")
    tagged = set()
    for req in requests:
        op, config = req.split("=", 1)
        pat = re.compile(r"= " + re.escape(op) + r"( max| avg)? ins\(")
        for i, line in enumerate(lines):
            if pat.search(line) and " -> " in line and "dwc.kernel" not in line:
                lines[i] = line.replace(" -> ", " {dwc.kernel = %s} -> " % config, 1)
                tagged.add(i)
    for _ in range(len(tagged) + 1):
        r = subprocess.run([dwc_opt], input="\n".join(lines), capture_output=True,
                           text=True)
        bad = {int(m.group(1)) - 1 for m in
               re.finditer(r"^<stdin>:(\d+):\d+: error: 'dwc.kernel'", r.stderr, re.M)}
        if not bad & tagged:
            break
        for i in bad & tagged:
            lines[i] = re.sub(r" \{dwc.kernel = .*\} -> ", " -> ", lines[i], count=1)
            tagged.discard(i)
    return "\n".join(lines)


def with_requests(requests, dwc_opt):
    build = check_ops.build_module
    check_ops.build_module = lambda cases: where_it_fits(build(cases), requests, dwc_opt)


check_ops.family = family
if __name__ == "__main__":
    requests = []
    while "--request" in sys.argv:
        i = sys.argv.index("--request")
        requests.append(sys.argv[i + 1])
        del sys.argv[i:i + 2]
    if requests:
        opt = sys.argv[sys.argv.index("--dwc-opt") + 1] if "--dwc-opt" in sys.argv else "dwc-opt"
        with_requests(requests, opt)
    sys.exit(check_ops.main())
