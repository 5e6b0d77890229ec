"""check_ops.py with one more family, gpu_pool_forward_rows: pool2d cases
for the row-tiled forward kernel of convert-dwc-to-gpu-pool (windows
overlapping in height), with row tails (OH not a multiple of the 8-row
tile), padding, ceil_mode, count_include_pad, f32/f16/bf16. `--row-tile N`
passes row-tile=N to convert-dwc-to-gpu-pool (with --gpu-pool-emulate)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Integration", "CPU", "Inputs"))
import check_ops  # noqa: E402

_family = check_ops.family


def family(name, rng, count=0):
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


def with_row_tile(n):
    lower = check_ops.lower_gpu_pool_emulated

    def lowered(dwc_opt, src, pool_options=""):
        opts = ",".join(o for o in (pool_options, "row-tile=%s" % n) if o)
        return lower(dwc_opt, src, opts)
    check_ops.lower_gpu_pool_emulated = lowered


check_ops.family = family
if __name__ == "__main__":
    if "--row-tile" in sys.argv:
        i = sys.argv.index("--row-tile")
        with_row_tile(sys.argv[i + 1])
        del sys.argv[i:i + 2]
    sys.exit(check_ops.main())
