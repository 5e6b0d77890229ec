#!/usr/bin/env python3
"""Host emulation of the plane kernel (#dwc.plane) for check_ops.py.

The plane kernel stages its band in shared memory and then reads what other
threads wrote, behind one gpu.barrier at the top level of the launch body,
which check_ops.py's serial emulation refuses. This runs check_ops.py with
  * a `gpu_plane` case family (below), and
  * launches emulated by block: the workgroup buffer becomes a memref.alloca
    of each block, and the threads run twice - the part before the barrier
    for every thread, then the whole body again for every thread (the
    staging writes the same values again; every value after the barrier is
    recomputed from the ids, so nothing crosses the barrier in registers).
Arguments are check_ops.py's (--family gpu_plane).
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Integration", "CPU", "Inputs"))
import check_ops  # noqa: E402

WORKGROUP_RE = re.compile(r" workgroup\((%\w+) : (memref<[^>]*), #gpu\.address_space<workgroup>>\)")


def plane_cases(rng):
    dw, bd = check_ops.dw_case, check_ops.bwd_data_case
    return [
        dw(rng, "pl_f16_7x7_c12", "f16", 2, 14, 14, 12, 7, 7, pad=(3, 3, 3, 3)),
        dw(rng, "pl_bf16_7x7_c24_bias", "bf16", 1, 7, 7, 24, 7, 7, pad=(3, 3, 3, 3), bias=True),
        dw(rng, "pl_f32_w_lt_fw", "f32", 2, 9, 5, 8, 7, 7, pad=(3, 3, 3, 3)),
        dw(rng, "pl_f16_odd_hw", "f16", 1, 13, 11, 12, 7, 7, pad=(3, 3, 3, 3)),
        dw(rng, "pl_f16_asym", "f16", 1, 11, 9, 4, 5, 3, pad=(2, 1, 0, 2)),
        dw(rng, "pl_f32_3x3_c6", "f32", 2, 5, 6, 6, 3, 3, pad=(1, 1, 1, 1)),
        # Strided forward ops (the windows' rows staged): stride 2 on
        # 5x5 / 3x3, odd maps, W < FW, unequal strides, a stride larger
        # than the filter (rows and columns no output reads).
        dw(rng, "pl_s2_f16_5x5_c12", "f16", 2, 14, 14, 12, 5, 5, st=(2, 2), pad=(2, 2, 2, 2)),
        dw(rng, "pl_s2_bf16_3x3_odd_bias", "bf16", 1, 13, 11, 20, 3, 3, st=(2, 2), pad=(1, 1, 1, 1), bias=True),
        dw(rng, "pl_s2_f32_w_lt_fw", "f32", 1, 9, 4, 4, 5, 5, st=(2, 2), pad=(2, 2, 2, 2)),
        dw(rng, "pl_s23_f32_asym", "f32", 2, 7, 9, 4, 3, 2, st=(2, 3), pad=(1, 0, 0, 1)),
        dw(rng, "pl_s3_f16_2x2", "f16", 1, 10, 8, 12, 2, 2, st=(3, 3), pad=(0, 1, 1, 0)),
        bd(rng, "pl_bwd_f16_7x7_c12", "f16", 2, 14, 14, 12, 7, 7, pad=(3, 3, 3, 3)),
        bd(rng, "pl_bwd_bf16_asym", "bf16", 1, 9, 7, 4, 4, 2, pad=(1, 2, 1, 0)),
        bd(rng, "pl_bwd_f32_5x5", "f32", 1, 8, 9, 4, 5, 5, pad=(2, 2, 2, 2)),
    ]


def block_loops(ind, g, z, o):
    return ["%sscf.for %s = %s to %s step %s {" % (ind, g[0], z, g[4], o),
            "%sscf.for %s = %s to %s step %s {" % (ind, g[1], z, g[6], o)]


def thread_loop(ind, g, z, o, body):
    out = ["%sscf.for %s = %s to %s step %s {" % (ind, g[9], z, g[13], o)]
    for name in (g[2], g[10], g[11]):
        out.append("%s  %s = arith.constant 0 : index" % (ind, name))
    for name, size in ((g[3], g[4]), (g[5], g[6]), (g[7], g[8]), (g[12], g[13]),
                       (g[14], g[15]), (g[16], g[17])):
        out.append("%s  %s = arith.addi %s, %s : index" % (ind, name, size, z))
    return out + body + ["%s}" % ind]


def launches_by_block(text):
    """Launches with at most one top-level gpu.barrier, run block by block."""
    lines, out, k, i = text.splitlines(), [], 0, 0
    while i < len(lines):
        line = lines[i]
        wg = WORKGROUP_RE.search(line)
        head = WORKGROUP_RE.sub("", line)
        m = check_ops.LAUNCH_RE.search(head)
        if not m:
            out.append(line)
            i += 1
            continue
        ind = line[:m.start()]
        body, i = [], i + 1
        while lines[i].strip() != "gpu.terminator" or not lines[i].startswith(ind + "  "):
            body.append(lines[i].replace(", #gpu.address_space<workgroup>", ""))
            i += 1
        i += 1  # the terminator; the launch's closing brace follows
        barriers = [j for j, l in enumerate(body) if l.strip() == "gpu.barrier"]
        if len(barriers) > 1 or any("gpu.barrier" in l for l in body
                                    if l.strip() != "gpu.barrier"):
            raise SystemExit("launches_by_block: more than one top-level gpu.barrier")
        g = m.groups()
        z, o = "%%emu_zero%d" % k, "%%emu_one%d" % k
        k += 1
        out += ["%s%s = arith.constant 0 : index" % (ind, z),
                "%s%s = arith.constant 1 : index" % (ind, o)]
        out += block_loops(ind, g, z, o)
        if wg:
            out.append("%s  %s = memref.alloca() : %s>" % (ind, wg.group(1), wg.group(2)))
        if barriers:
            out += thread_loop(ind, g, z, o, body[:barriers[0]])
            body = body[:barriers[0]] + body[barriers[0] + 1:]
        out += thread_loop(ind, g, z, o, body)
        out.append("%s}}" % ind)
        # Drop the launch's own closing brace.
        assert lines[i].strip() == "}", lines[i]
        i += 1
    return "\n".join(out) + "\n"


_family = check_ops.family


def family(name, rng, count=0):
    return plane_cases(rng) if name == "gpu_plane" else _family(name, rng, count)


check_ops.family = family
check_ops.launches_to_loops = launches_by_block

if __name__ == "__main__":
    sys.exit(check_ops.main())
