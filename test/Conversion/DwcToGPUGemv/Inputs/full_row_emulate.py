#!/usr/bin/env python3
"""Host emulation of the full-row kernel (#dwc.full_row) for check_ops.py.

The kernel has no barrier and no shared memory, so check_ops.py's serial
emulation of each 1-D launch runs it as is; this adds a `gpu_full_row`
case family: filters larger than the map in one or both directions (the
taps restricted to the map), W < FW, odd H and W, asymmetric padding, FH !=
FW, padding that leaves output rows without any input row, bias, C = 12 /
24 / 6, batch 1 and 2, f32/f16/bf16, forward and backward data. Arguments
are check_ops.py's (--family gpu_full_row).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Integration", "CPU", "Inputs"))
import check_ops  # noqa: E402


def full_row_cases(rng):
    dw, bd = check_ops.dw_case, check_ops.bwd_data_case
    return [
        dw(rng, "fr_f16_13x13_on_7x7_c12", "f16", 1, 7, 7, 12, 13, 13, pad=(6, 6, 6, 6)),
        dw(rng, "fr_f32_11x11_on_5x6_c6_bias", "f32", 2, 5, 6, 6, 11, 11, pad=(5, 5, 5, 5), bias=True),
        dw(rng, "fr_bf16_13x3_tall_c24", "bf16", 1, 6, 7, 24, 13, 3, pad=(6, 6, 1, 1)),
        dw(rng, "fr_f32_3x13_wide_c4", "f32", 1, 7, 5, 4, 3, 13, pad=(1, 1, 6, 6)),
        dw(rng, "fr_f16_3x3_odd_c12", "f16", 2, 9, 11, 12, 3, 3, pad=(1, 1, 1, 1)),
        dw(rng, "fr_f32_5x5_asym_c6", "f32", 1, 8, 7, 6, 5, 4, pad=(0, 3, 2, 1)),
        dw(rng, "fr_f16_w_lt_fw_c4", "f16", 1, 10, 3, 4, 5, 7, pad=(2, 2, 3, 3)),
        dw(rng, "fr_f32_pad_past_map_c4", "f32", 1, 3, 4, 4, 3, 3, pad=(4, 4, 1, 5)),
        bd(rng, "fr_bwd_f16_13x13_c12", "f16", 1, 7, 7, 12, 13, 13, pad=(6, 6, 6, 6)),
        bd(rng, "fr_bwd_bf16_asym_c6", "bf16", 2, 9, 7, 6, 9, 4, pad=(3, 5, 1, 2)),
        bd(rng, "fr_bwd_f32_5x5_c4", "f32", 1, 6, 9, 4, 5, 5, pad=(2, 2, 2, 2)),
    ]


_family = check_ops.family


def family(name, rng, count=0):
    return full_row_cases(rng) if name == "gpu_full_row" else _family(name, rng, count)


check_ops.family = family

if __name__ == "__main__":
    sys.exit(check_ops.main())
