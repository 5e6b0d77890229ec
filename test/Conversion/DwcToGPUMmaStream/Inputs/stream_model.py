#!/usr/bin/env python3
"""CPU model of the streaming band kernel (convert-dwc-to-gpu-mma-stream).

Mirrors the pass's index math - the plan (slices, groups, spans, pitch, zero
row, row blocks and chunks), the channel-major workspace, the band entries,
the lanes' input words, the m16n8k16 fragment layouts for the input as the A
operand and as the B operand, both loop orders of a row block (filter rows
outer / input rows outer) with their row-load schedules and carried rows,
and the staged epilogue - on integer data, and compares with a direct convolution (exact).
Prints '<case>: ok' per case, or 'MISMATCH'. Pure Python.
"""
import random


def cdiv(a, b):
    return -(-a // b)


def plan(N, IH, IW, C, FH, FW, OH, OW, operand="auto", rows=0, prefetch=-1,
         min_blocks=528, b_max=31, order="auto", overlap=False, lookahead=2,
         units_per_producer=1024, pl=0, compact=-1):
    p = {}
    p["inputB"] = operand == "b" or (
        operand == "auto" and FW <= b_max
        and (FW + 15 + 15) // 16 == (FW + 7 + 15) // 16)
    gw = 16 if p["inputB"] else 8
    per_tile = 128 // gw
    p["gw"] = gw
    p["slices"] = (FW + gw - 1 + 15) // 16
    p["words"] = 2 * p["slices"] if p["inputB"] else 2 * p["slices"] + 1
    groups = cdiv(OW, gw)
    if groups >= per_tile:
        p["span"], p["images"], p["colTiles"] = per_tile, 1, cdiv(groups, per_tile)
    else:
        s = 1
        while s < groups:
            s *= 2
        p["span"] = max(1 if p["inputB"] else 2, s)
        p["images"] = per_tile // p["span"]
        p["colTiles"] = 1
    # Workspace column xc holds input column xc - lead (padded column
    # xc + shift); compact rows keep pl mod 2 of the left padding (the
    # default register path; smem-input keeps pl mod 8: not modelled).
    # (compact -1: auto, compact rows up to 2 slices.)
    compact = compact > 0 or (compact < 0 and p["slices"] <= 2)
    p["lead"] = pl % 2 if compact else pl
    p["shift"] = pl - p["lead"]
    p["pitch"] = cdiv(IW + p["lead"] if compact else OW + FW - 1, 8) * 8
    last = p["span"] - 1 if p["inputB"] else p["span"] - 2
    p["readEnd"] = ((128 * (p["colTiles"] - 1) if p["images"] == 1 else 0)
                    + gw * last + 8 * (p["words"] - 1) + 8)
    p["maskCols"] = p["shift"] > 0 or p["readEnd"] - p["shift"] > p["pitch"]
    p["zeroLen"] = max(p["pitch"], cdiv(p["readEnd"] - p["shift"], 8) * 8)
    p["filterOrder"] = order == "filter-rows" or (order == "auto" and p["inputB"])
    if rows == 0:
        rows = 16 if p["filterOrder"] and p["slices"] >= 3 else 8
    p["rows"] = min(rows, OH)
    if prefetch < 0:
        prefetch = 2 if p["filterOrder"] else 4
    p["prefetch"] = min(prefetch, FH if p["filterOrder"] else FH - 1)
    p["rowBlocks"] = cdiv(OH, p["rows"])
    p["tiles"] = cdiv(N, p["images"]) * p["colTiles"]
    blocks = C // 8 * p["tiles"]
    chunks = min(p["rowBlocks"], max(1, cdiv(min_blocks, blocks)))
    p["perChunk"] = cdiv(p["rowBlocks"], chunks)
    p["chunks"] = cdiv(p["rowBlocks"], p["perChunk"])
    # overlap-workspace: image sets, transposition units, producers (P) and
    # consumers (Q) per set, lookahead.
    p["overlap"] = overlap
    p["sets"] = cdiv(N, p["images"])
    p["unitsPerSet"] = p["images"] * IH * (C // 8) * (p["pitch"] // 8)
    p["unitsPerProducer"] = units_per_producer
    p["P"] = cdiv(p["unitsPerSet"], units_per_producer)
    p["Q"] = C // 8 * p["colTiles"] * p["chunks"]
    p["L"] = min(lookahead, p["sets"])
    return p


def ticket_role(t, S, P, Q, L):
    """The role of the block with ticket t: ("produce", set, index) or
    ("consume", set, index) - the kernel's index math."""
    prologue, full, period = L * P, S - L, P + Q
    if t < prologue:
        return ("produce", t // P, t % P)
    u = t - prologue
    if u < full * period:
        k, r = u // period, u % period
        return ("consume", k, r) if r < Q else ("produce", k + L, r - Q)
    v = u - full * period
    return ("consume", full + v // Q, v % Q)


def filter_order_schedule(R, FH, D):
    """Row st of a row block: first used at step max(0, st - R + 1), loaded
    D steps before; rows due before step 0 by the previous row block."""
    cur, nxt, carried = [[] for _ in range(FH)], [[] for _ in range(FH)], 0
    for st in range(R + FH - 1):
        issue = max(0, st - R + 1) - D
        if issue >= 0:
            cur[issue].append(st)
        else:
            nxt[max(0, FH + issue)].append(st)
            carried = st + 1
    return cur, nxt, carried


def input_order_schedule(R, FH, D):
    """Row st loaded at step st - D; rows 0 .. D - 1 are the previous row
    block's rows R .. R + D - 1."""
    steps = R + FH - 1
    cur, nxt = [[] for _ in range(steps)], [[] for _ in range(steps)]
    for st in range(D, steps):
        cur[st - D].append(st)
    return cur, nxt, D


def mma(a, b, c):
    """m16n8k16 on per-lane fragments: a[lane] = 4 pairs, b[lane] = 2 pairs,
    c[lane] = [[c0, c1], [c2, c3]]."""
    A = [[0] * 16 for _ in range(16)]
    B = [[0] * 8 for _ in range(16)]
    for lane in range(32):
        g, q = lane // 4, lane % 4
        for i, (r, k) in enumerate([(g, 2 * q), (g + 8, 2 * q), (g, 2 * q + 8),
                                    (g + 8, 2 * q + 8)]):
            A[r][k], A[r][k + 1] = a[lane][i]
        B[2 * q][g], B[2 * q + 1][g] = b[lane][0]
        B[2 * q + 8][g], B[2 * q + 9][g] = b[lane][1]
    out = []
    for lane in range(32):
        g, q = lane // 4, lane % 4
        d = [[sum(A[m][k] * B[k][n] for k in range(16)) + c[lane][r][i]
              for i, n in enumerate((2 * q, 2 * q + 1))]
             for r, m in enumerate((g, g + 8))]
        out.append(d)
    return out


def run(x, w, bias, N, IH, IW, C, FH, FW, pt, pl, OH, OW, rotate,
        columns=False, **kw):
    # stream_columns: the shape arguments are the swapped problem's (rows
    # are the operands' columns); x, w and y keep their layouts and only
    # their index order swaps.
    p = plan(N, IH, IW, C, FH, FW, OH, OW, pl=pl, **kw)
    x_at = (lambda n, r, col, c: x[n][col][r][c]) if columns else (
        lambda n, r, col, c: x[n][r][col][c])
    w_at = (lambda r, col, c: w[col][r][c]) if columns else (
        lambda r, col, c: w[r][col][c])
    pitch, inB = p["pitch"], p["inputB"]
    zero_base = N * IH * C * pitch
    xt = [7777] * (zero_base + p["zeroLen"])  # poison, then the first kernel
    C8 = C // 8
    col_blocks = pitch // 8

    def transpose_unit(uid):  # 8 columns x 8 channels of one row
        pb = uid % col_blocks
        c8_ = uid // col_blocks % C8
        ih = uid // col_blocks // C8 % IH
        n = uid // col_blocks // C8 // IH
        for ch in range(8):
            c = c8_ * 8 + ch
            for e in range(8):
                ic = pb * 8 + e - p["lead"]
                xt[((n * IH + ih) * C + c) * pitch + pb * 8 + e] = (
                    x_at(n, ih, ic, c) if 0 <= ic < IW else 0)

    total_units = N * IH * C8 * col_blocks
    if not p["overlap"]:
        for uid in range(total_units):
            transpose_unit(uid)
    for i in range(p["zeroLen"]):
        xt[zero_base + i] = 0
    lead = 15 if inB else 7
    offs = [8, 9, 0, 1, 16, 17, 8, 9] if inB else [0, 1, 8, 9]

    def entry(fh, c, e):
        vals = []
        for off in offs:
            tap = e + off - lead
            if not 0 <= tap < FW:
                vals.append(0)
            elif rotate:
                vals.append(w_at(FH - 1 - fh, FW - 1 - tap, c))
            else:
                vals.append(w_at(fh, tap, c))
        return [vals[i:i + 2] for i in range(0, len(vals), 2)]

    y = [[[[None] * C for _ in range(OW)] for _ in range(OH)] for _ in range(N)]
    if columns:
        y = [[[[None] * C for _ in range(OH)] for _ in range(OW)] for _ in range(N)]
    R, D, S, gw, span = p["rows"], p["prefetch"], p["slices"], p["gw"], p["span"]
    steps = R + FH - 1
    # The blocks in start order. Without overlap: block id = (chunk, tile,
    # c8). With overlap: tickets; producers transpose their units (ids past
    # the set skip the stores), consumers require all P producers of their
    # set to be done - blocks running one after another in ticket order is
    # a schedule the hardware may pick, so a consumer whose producers come
    # later would deadlock there.
    def blocks():
        if not p["overlap"]:
            for bx in range(C8 * p["tiles"] * p["chunks"]):
                yield bx % C8, (bx // C8) % p["tiles"], bx // C8 // p["tiles"]
            return
        S, P, Q, L = p["sets"], p["P"], p["Q"], p["L"]
        done = [0] * S
        seen = set()
        for t in range(S * (P + Q)):
            role, k, idx = ticket_role(t, S, P, Q, L)
            assert (role, k, idx) not in seen, "ticket mapped twice"
            seen.add((role, k, idx))
            if role == "produce":
                begin = k * p["unitsPerSet"]
                limit = min(begin + p["unitsPerSet"], total_units)
                for tid in range(p["unitsPerProducer"]):
                    uid = begin + idx * p["unitsPerProducer"] + tid
                    if uid < limit:
                        transpose_unit(uid)
                done[k] += 1
                continue
            assert done[k] == P, "consumer would wait on a later ticket"
            c8_ = idx % C8
            ct_ = idx // C8 % p["colTiles"]
            yield c8_, k * p["colTiles"] + ct_, idx // C8 // p["colTiles"]
        assert len(seen) == S * (P + Q)

    for (c8, tile, chunk) in blocks():
        ct, n0 = tile % p["colTiles"], (tile // p["colTiles"]) * p["images"]
        rb0 = chunk * p["perChunk"]
        rb1 = min(rb0 + p["perChunk"], p["rowBlocks"])
        lanes_of = {}
        for warp in range(8):
            c = c8 * 8 + warp
            lanes = []
            for lane in range(32):
                g, q = lane // 4, lane % 4
                j = g if inB else 2 * g
                col_base = 128 * ct + gw * (j % span)
                image = min(n0 + j // span, N - 1)
                lane_xc = col_base + 2 * q - p["shift"]
                lanes.append((g, q, lane_xc,
                              ((image * IH) * C + c) * pitch + lane_xc))
            lanes_of[warp] = lanes

        def load_row(warp, r0, step):
            ih = r0 + step - pt
            ok_row = 0 <= ih < IH
            regs = []
            for (g, q, lane_xc, lane_base) in lanes_of[warp]:
                base = lane_base + ih * C * pitch if ok_row else zero_base + lane_xc
                rr = []
                for k in range(p["words"]):
                    idx = base + 8 * k
                    ok_col = True
                    if p["maskCols"]:
                        ok_col = 0 <= lane_xc + 8 * k < pitch
                        idx = idx if ok_col else zero_base
                    assert 0 <= idx and idx + 2 <= len(xt), "load out of bounds"
                    rr.append(xt[idx:idx + 2] if ok_col else [0, 0])
                regs.append(rr)
            return regs

        fo = p["filterOrder"]
        cur, nxt, ncar = (filter_order_schedule if fo else input_order_schedule)(R, FH, D)
        carried = {wp: [load_row(wp, rb0 * R, s) for s in range(ncar)]
                   for wp in range(8)}
        for rb in range(rb0, rb1):
            r0 = rb * R
            stage = [[[None] * 128 for _ in range(R)] for _ in range(8)]
            for warp in range(8):
                c = c8 * 8 + warp
                X = carried[warp] + [None] * (steps - ncar)
                nextX = [None] * ncar
                b0 = bias[c] if bias else 0
                acc = [[[[b0, b0], [b0, b0]] for _ in range(32)] for _ in range(R)]

                def multiply(o, fh, sl):
                    row = X[o + fh]
                    assert row is not None, "row used before its load"
                    if inB:
                        inp = [[row[l][2 * sl], row[l][2 * sl + 1]]
                               for l in range(32)]
                    else:
                        inp = [[row[l][k] for k in (2 * sl, 2 * sl + 1,
                                                    2 * sl + 1, 2 * sl + 2)]
                               for l in range(32)]
                    filt = [entry(fh, c, 2 * q - g + 7 + 16 * sl)
                            for (g, q, _, _) in lanes_of[warp]]
                    acc[o] = (mma(filt, inp, acc[o]) if inB
                              else mma(inp, filt, acc[o]))

                for step in range(FH if fo else steps):
                    for st in cur[step]:
                        X[st] = load_row(warp, r0, st)
                    for st in nxt[step]:
                        nextX[st] = load_row(warp, r0 + R, st)
                    for sl in range(S):
                        if fo:
                            for o in range(R):
                                multiply(o, step, sl)
                        else:
                            for o in range(max(0, step - FH + 1),
                                           min(R - 1, step) + 1):
                                multiply(o, step - o, sl)
                carried[warp] = nextX if fo else X[R:R + ncar]
                for o in range(R):
                    for lane, (g, q, _, _) in enumerate(lanes_of[warp]):
                        for r in range(2):
                            for i in range(2):
                                pos = (32 * q + 16 * i + 8 * r + g if inB
                                       else 16 * g + 8 * r + 2 * q + i)
                                stage[warp][o][pos] = acc[o][lane][r][i]
            for tid in range(256):
                for i in range(cdiv(R * 128, 256)):
                    idx = tid + 256 * i
                    o, pos = idx // 128, idx % 128
                    if o >= R or r0 + o >= OH:
                        continue
                    if p["images"] == 1:
                        img, col = n0, 128 * ct + pos
                    else:
                        jj = pos // gw
                        img = n0 + jj // span
                        col = gw * (jj % span) + pos % gw
                    if img >= N or col >= OW:
                        continue
                    for ch in range(8):
                        oh, ow = (col, r0 + o) if columns else (r0 + o, col)
                        y[img][oh][ow][c8 * 8 + ch] = stage[ch][o][pos]
    return y


def reference(x, w, bias, N, IH, IW, C, FH, FW, pt, pl, OH, OW, rotate):
    y = [[[[bias[c] if bias else 0 for c in range(C)] for _ in range(OW)]
          for _ in range(OH)] for _ in range(N)]
    for n in range(N):
        for oh in range(OH):
            for ow in range(OW):
                for fh in range(FH):
                    ih = oh + fh - pt
                    if not 0 <= ih < IH:
                        continue
                    for fw in range(FW):
                        iw = ow + fw - pl
                        if not 0 <= iw < IW:
                            continue
                        for c in range(C):
                            wv = (w[FH - 1 - fh][FW - 1 - fw][c] if rotate
                                  else w[fh][fw][c])
                            y[n][oh][ow][c] += x[n][ih][iw][c] * wv
    return y


CASES = [
    # name, N, IH, IW, C, FH, FW, padding (t, b, l, r), bias, rotate, options
    ("input B, 13x13, W=128 one tile", 1, 9, 128, 8, 13, 13, (6, 6, 6, 6),
     False, False, {"rows": 4, "min_blocks": 1}),
    ("input B, 17x17, W=20: 4 images of 2 groups, N tail, bias", 3, 6, 20,
     8, 17, 17, (8, 8, 8, 8), True, False, {"rows": 3, "prefetch": 1, "min_blocks": 1}),
    ("input B, 11x11, W=150: two column tiles, asymmetric padding", 1, 10,
     150, 8, 11, 11, (1, 3, 7, 2), False, False, {"rows": 2}),
    ("input B, 29x31 backward-data rotation, W=9, prefetch 0, compact", 2, 7,
     9, 8, 29, 31, (14, 14, 15, 15), False, True,
     {"rows": 5, "prefetch": 0, "compact": 1}),
    ("input A, 9x9, W=40: 2 images, rows=3", 3, 6, 40, 8, 9, 9, (4, 4, 4, 4),
     True, False, {"operand": "a", "rows": 3}),
    ("input A, 1x19 (FH = 1), W=8: span 2", 2, 4, 8, 8, 1, 19, (0, 0, 9, 9),
     False, False, {}),
    ("input A (auto, FW = 21), row chunks over the grid", 1, 12, 16, 8, 3,
     21, (1, 1, 10, 10), False, False, {"rows": 2, "min_blocks": 8}),
    ("input B, 27x27 (3 slices), prefetch 8 > FH", 1,
     20, 24, 8, 5, 27, (2, 2, 13, 13), False, False, {"prefetch": 8, "rows": 4, "min_blocks": 1}),
    ("input B in the input-row order, 13x13, rows=3", 2, 9, 30, 8, 13, 13,
     (6, 6, 6, 6), True, False, {"order": "input-rows", "rows": 3, "min_blocks": 1}),
    ("input A in the filter-row order, 9x9, rows=5, prefetch 3, chunks", 1,
     14, 40, 8, 9, 9, (4, 4, 4, 4), False, False,
     {"operand": "a", "order": "filter-rows", "rows": 5, "prefetch": 3,
      "min_blocks": 2}),
    ("compact-workspace=0 (whole padded rows), 17x17, W=20, 2 images", 2,
     5, 20, 8, 17, 17, (8, 8, 8, 8), False, False,
     {"rows": 3, "min_blocks": 1, "compact": 0}),
    ("overlap-workspace, 13x13, 5 images, 3 producers a set, lookahead 2", 5,
     6, 40, 16, 13, 13, (6, 6, 6, 6), False, False,
     {"rows": 3, "min_blocks": 1, "overlap": True, "units_per_producer": 37}),
    ("overlap-workspace, 17x17, W=20: 4 images a set, N tail, chunks, "
     "lookahead 1", 9, 5, 20, 16, 17, 17, (8, 8, 8, 8), True, False,
     {"rows": 2, "min_blocks": 40, "overlap": True, "lookahead": 1,
      "units_per_producer": 50}),
    ("overlap-workspace, 11x11, two column tiles, lookahead past the sets", 2,
     9, 150, 16, 11, 11, (1, 3, 7, 2), False, False,
     {"rows": 2, "overlap": True, "lookahead": 9}),
    # stream_columns: a filter taller than wide streamed along the columns.
    ("stream-columns, 19x5 on 20 x 9, 2 images, rows=4", 2, 20, 9, 8, 19, 5,
     (9, 9, 2, 2), True, False, {"columns": True, "rows": 4, "min_blocks": 1}),
    ("stream-columns, 13x3 backward-data rotation, asymmetric padding, "
     "two column tiles", 1, 150, 6, 8, 13, 3, (5, 7, 2, 0), False, True,
     {"columns": True, "rows": 3}),
    ("stream-columns, 11x1 (FW = 1), input A, overlap-workspace", 3, 12, 7,
     16, 11, 1, (5, 5, 0, 0), False, False,
     {"columns": True, "operand": "a", "rows": 2, "overlap": True,
      "units_per_producer": 20}),
]


def main():
    rng = random.Random(7)
    for (name, N, IH, IW, C, FH, FW, pad, has_bias, rotate, kw) in CASES:
        pt, pb, pl, pr = pad
        OH, OW = IH + pt + pb - FH + 1, IW + pl + pr - FW + 1
        assert OH > 0 and OW > 0, name
        x = [[[[rng.randint(-3, 3) for _ in range(C)] for _ in range(IW)]
              for _ in range(IH)] for _ in range(N)]
        w = [[[rng.randint(-3, 3) for _ in range(C)] for _ in range(FW)]
             for _ in range(FH)]
        bias = [rng.randint(-5, 5) for _ in range(C)] if has_bias else None
        args = (x, w, bias, N, IH, IW, C, FH, FW, pt, pl, OH, OW, rotate)
        if kw.get("columns"):  # the pass's swapped shape, same operands
            got = run(x, w, bias, N, IW, IH, C, FW, FH, pl, pt, OW, OH, rotate,
                      **kw)
        else:
            got = run(*args, **kw)
        ref = reference(*args)
        print(f"{name}: {'ok' if got == ref else 'MISMATCH'}")


if __name__ == "__main__":
    main()
