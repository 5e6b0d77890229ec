"""CPU model of the band-packing row-ring kernel of convert-dwc-to-gpu-mma
(#dwc.mma_band; printed in the former option names: band-rows = rows,
band-filter-pairs = filter_pairs, ...).

Replays, block by block and lane by lane, what the generated kernel does:
the row ring (R + 1 input row slots, one gap position after every 16
columns, 72-element positions), the zero-padded filter row v (v[t + 7] =
tap t) in two buffers, the per-lane block registers (columns 2q, 2q + 1 of
an 8-column block, packed from two 16-byte loads) shared by GEMV rows 2g and
2g + 1 and carried from slice p to p + 1, the m16n8k16 mma.sync semantics of
the PTX ISA register layouts, and the epilogue stores. Integer data: the
result must equal a direct depthwise convolution exactly, every output
written once. It also checks that every 16-byte shared load of a quarter
warp hits 8 distinct bank groups. Fields filter_pairs (B registers
from a workspace of filter pairs (v[s], v[s + 1])) and input_pairs
(the ring copies rows of an input workspace whose column pairs are
interleaved per channel; 256-byte pair positions, XOR-swizzled chunks) are
modelled too, workspaces included, and rows (T spatial tiles per warp
stacked along the height sharing the B registers of a slice; T R output rows
and T R + 1 ring slots per block) with warp_channels 16 or 8, and
one_barrier (one more ring slot, three filter buffers, no barrier after
the multiplies: the model checks that the copies issued in stage s only
target slots and buffers last read in stage s - 2 or earlier, two barriers:
s - 1). Formulas mirror lib/Conversion/DwcToGPUMma/DwcToGPUMma.cpp and
the layout of lib/Dialect/Dwc/IR/Configs/Mma.cpp."""

import random
import sys

BN, VEC, TM, GEMVS, PITCH = 64, 8, 8, 16, 72
PAIR_PITCH = 2 * BN + VEC      # filter pairs: 272-byte positions
IN_PAIR_PITCH = 2 * BN         # input pairs: 256-byte pair positions (elements)
CHUNKS = BN // VEC
OFF = (0, 1, 8, 9)


def groups_per_row(ow):
    g = 4
    while g < 16 and 8 * g < ow:
        g *= 2
    return g


def pair_swizzle(j):
    return j % 4 + 4 * ((j // 8) % 2)


def check_banks(addrs, what):
    """addrs: 32 element offsets of one 16-byte load (lane order)."""
    for quarter in range(4):
        units = [(a * 2 // 16) % 8 for a in addrs[8 * quarter:8 * quarter + 8]]
        assert len(set(units)) == 8, "bank conflict in %s: %s" % (what, units)


def kernel(x, w, bias, N, IH, IW, C, FH, FW, pad, fpairs=False, ipairs=False,
           rows=1, wc=16, ob=False):
    pt, pb, pl, pr = pad
    OH, OW = IH + pt + pb - FH + 1, IW + pl + pr - FW + 1
    G = groups_per_row(OW)
    R = GEMVS // G
    WARPS, CGS = BN // wc, wc // VEC
    T = rows
    while T > 1 and R * (T // 2) >= OH:   # (the smem limit is not modelled)
        T //= 2
    RB = R * T
    SLOTS, ZBUFS = RB + 1 + ob, 2 + ob
    SAFE = 2 if ob else 1     # stages between the last read and a refill
    nband = (FW + TM - 1 + 15) // 16
    RS = TM * G + 16 * nband - TM
    RSg = RS + (RS + 15) // 16
    ZS = 16 * nband + 6 if fpairs else 16 * nband + 7
    JR = RS // 2
    par = pl % 2
    JW = (IW + par + 1) // 2
    if ipairs:
        RSg = JR
    # Workspaces of the first kernels.
    ws = xp = None
    if fpairs:
        ws = [[[0] * (2 * C) for _ in range(ZS)] for _ in range(FH)]
        for fh in range(FH):
            for sp in range(ZS):
                for c in range(C):
                    for e in range(2):
                        tap = sp + e - 7
                        ws[fh][sp][2 * c + e] = w[fh][tap][c] if 0 <= tap < FW else 0
    if ipairs:
        xp = [[[[0] * (2 * C) for _ in range(JW)] for _ in range(IH)] for _ in range(N)]
        for n in range(N):
            for h in range(IH):
                for j in range(JW):
                    for c in range(C):
                        for e in range(2):
                            iw = 2 * j + e - par
                            xp[n][h][j][2 * c + e] = x[n][h][iw][c] if 0 <= iw < IW else 0
    tilesW, tilesH = -(-OW // (TM * G)), -(-OH // RB)
    gridX, gridY = N * tilesH * tilesW, -(-C // BN)
    y = {}
    for by in range(gridY):
        for bx in range(gridX):
            tw, rest = bx % tilesW, bx // tilesW
            th, n = rest % tilesH, rest // tilesH
            oh0, ow0, cb = th * RB, tw * TM * G, by * BN
            ins = [[None] * (IN_PAIR_PITCH if ipairs else PITCH) for _ in range(SLOTS * RSg)]
            zs = [[[None] * (PAIR_PITCH if fpairs else PITCH) for _ in range(ZS)] for _ in range(ZBUFS)]
            last_read = {}    # ("slot", i) / ("buf", i) -> last stage reading it

            def refill(key, stage):
                assert last_read.get(key, -99) <= stage - SAFE, \
                    "stage %d refills %s read in stage %d" % (stage, key, last_read[key])

            def copy_ring_row(t, stage=-1):
                ih = oh0 + t - pt
                refill(("slot", t % SLOTS), stage)
                slot_base = (t % SLOTS) * RSg
                if ipairs:
                    j_base = ow0 // 2 - (pl - par) // 2
                    for j in range(JR):
                        for u in range(2 * CHUNKS):
                            jg, col = j_base + j, 2 * cb + 8 * u
                            valid = 0 <= ih < IH and 0 <= jg < JW and col < 2 * C
                            dst = 8 * (u ^ pair_swizzle(j))
                            for e in range(VEC):
                                ins[slot_base + j][dst + e] = xp[n][ih][jg][col + e] if valid else 0
                    return
                for col in range(RS):
                    for hh in range(CHUNKS):
                        pos = slot_base + col + col // 16
                        iw, ch = ow0 - pl + col, cb + hh * VEC
                        valid = 0 <= ih < IH and 0 <= iw < IW and ch < C
                        for e in range(VEC):
                            ins[pos][hh * VEC + e] = x[n][ih][iw][ch + e] if valid else 0

            def prefetch(fh, buf, stage=-1):
                refill(("buf", buf), stage)
                if fpairs:
                    for pos in range(ZS):
                        for hh in range(2 * CHUNKS):
                            col = 2 * cb + 8 * hh
                            for e in range(VEC):
                                zs[buf][pos][8 * hh + e] = ws[fh][pos][col + e] if col < 2 * C else 0
                    return
                for pos in range(ZS):
                    for hh in range(CHUNKS):
                        tap, ch = pos - 7, cb + hh * VEC
                        valid = 0 <= tap < FW and ch < C
                        for e in range(VEC):
                            zs[buf][pos][hh * VEC + e] = w[fh][tap][ch + e] if valid else 0

            acc = {}
            for warp in range(WARPS):
                for lane in range(32):
                    for tt in range(T):
                        for cg in range(CGS):
                            ch = cb + (warp * CGS + cg) * VEC
                            for k in range(VEC):
                                b0 = bias[ch + k] if (bias and ch + k < C) else 0
                                acc[warp, lane, (tt * CGS + cg) * VEC + k] = [[b0, b0], [b0, b0]]
            for t in range(RB):
                copy_ring_row(t)
            prefetch(0, 0)
            for s in range(FH):
                buf = s % ZBUFS
                if s + 1 < FH:
                    copy_ring_row(s + RB, s)   # slot of row s - 1 (- 2): not read below
                    prefetch(s + 1, (s + 1) % ZBUFS, s)
                last_read[("buf", buf)] = s
                for i in range(RB):
                    last_read[("slot", (s + i) % SLOTS)] = s
                for warp in range(WARPS):
                  for cg in range(CGS):
                    for tt in range(T):   # tile tt: rows tt R .. tt R + R - 1
                        hh = warp * CGS + cg
                        lane_base, z_lane, lane_j, gi0s = [], [], [], []
                        for lane in range(32):
                            g, q = lane // 4, lane % 4
                            m0 = 2 * g
                            r, gi0 = m0 // G, m0 % G
                            slot_base = ((s + r + tt * R) % SLOTS) * RSg
                            lane_base.append(slot_base + gi0 * TM + gi0 // 2 + 2 * q)
                            lane_j.append(slot_base + 4 * gi0 + q)
                            gi0s.append(gi0)
                            z_lane.append(2 * q - g + 7)

                        def blocks(b):
                            """Block b's registers of all lanes (columns 2q, 2q + 1)."""
                            out = []
                            if ipairs:
                                loads = []
                                for e2 in (0, 1):
                                    u = 2 * hh + e2
                                    addrs = []
                                    for lane in range(32):
                                        q = lane % 4
                                        jl = 4 * gi0s[lane] + 4 * b + q
                                        addrs.append((lane_j[lane] + 4 * b, 8 * (u ^ pair_swizzle(jl))))
                                    check_banks([p_ * IN_PAIR_PITCH + c_ for p_, c_ in addrs], "A pairs")
                                    loads.append([ins[p_][c_:c_ + VEC] for p_, c_ in addrs])
                                for lane in range(32):
                                    v = loads[0][lane] + loads[1][lane]
                                    assert None not in v, "uninitialised input read"
                                    out.append([[v[2 * k], v[2 * k + 1]] for k in range(VEC)])
                                return out
                            offset = 8 * b + b // 2
                            for e in (0, 1):
                                check_banks([(lb + offset + e) * PITCH + hh * VEC
                                             for lb in lane_base], "A")
                            for lane in range(32):
                                p0 = lane_base[lane] + offset
                                v0 = ins[p0][hh * VEC:hh * VEC + VEC]
                                v1 = ins[p0 + 1][hh * VEC:hh * VEC + VEC]
                                assert None not in v0 + v1, "uninitialised input read"
                                out.append([[v0[k], v1[k]] for k in range(VEC)])
                            return out
                        carried = blocks(0)
                        for p in range(nband):
                            b1 = blocks(2 * p + 1)
                            b2 = blocks(2 * p + 2)
                            vb = []
                            if fpairs:
                                # vb[kk][lane][k]: v[zb + OFF[kk]] of channel k, from
                                # the pairs at zb (b0, b1) and zb + 8 (b2, b3).
                                raw = []
                                for kk in range(4):
                                    sp, half = 8 * (kk // 2), kk % 2
                                    check_banks([(zl + 16 * p + sp) * PAIR_PITCH + 16 * hh + 8 * half
                                                 for zl in z_lane], "B pairs")
                                    raw.append([zs[buf][zl + 16 * p + sp][16 * hh + 8 * half:16 * hh + 8 * half + 8]
                                                for zl in z_lane])
                                for kk in range(4):
                                    sp_lo = raw[2 * (kk // 2)]
                                    sp_hi = raw[2 * (kk // 2) + 1]
                                    vb.append([[(sp_lo if k < 4 else sp_hi)[lane][2 * (k % 4) + kk % 2]
                                                for k in range(VEC)] for lane in range(32)])
                            for off in (OFF if not fpairs else ()):
                                check_banks([(zl + 16 * p + off) * PITCH + hh * VEC
                                             for zl in z_lane], "B")
                                vb.append([zs[buf][zl + 16 * p + off][hh * VEC:hh * VEC + VEC]
                                           for zl in z_lane])
                            for k in range(VEC):
                                c = (tt * CGS + cg) * VEC + k
                                A = [[None] * 16 for _ in range(16)]
                                B = [[None] * 8 for _ in range(16)]
                                D = [[None] * 8 for _ in range(16)]
                                for lane in range(32):
                                    g, q = lane // 4, lane % 4
                                    a = [carried[lane][k], b1[lane][k], b1[lane][k], b2[lane][k]]
                                    b = [[vb[0][lane][k], vb[1][lane][k]],
                                         [vb[2][lane][k], vb[3][lane][k]]]
                                    for reg in range(4):
                                        for hf in range(2):
                                            A[g + 8 * (reg % 2)][2 * q + hf + 8 * (reg // 2)] = a[reg][hf]
                                    for reg in range(2):
                                        for hf in range(2):
                                            B[2 * q + hf + 8 * reg][g] = b[reg][hf]
                                    for reg in range(2):
                                        for hf in range(2):
                                            D[g + 8 * reg][2 * q + hf] = acc[warp, lane, c][reg][hf]
                                for m in range(16):
                                    for i in range(8):
                                        D[m][i] += sum(A[m][kk] * B[kk][i] for kk in range(16))
                                for lane in range(32):
                                    g, q = lane // 4, lane % 4
                                    acc[warp, lane, c] = [[D[g][2 * q], D[g][2 * q + 1]],
                                                          [D[g + 8][2 * q], D[g + 8][2 * q + 1]]]
                            carried = b2
            for warp in range(WARPS):
                for lane in range(32):
                    g, q = lane // 4, lane % 4
                    for tt in range(T):
                      for cg in range(CGS):
                        ch = cb + (warp * CGS + cg) * VEC
                        for mi in range(2):
                            m = 2 * g + mi
                            r, gi = m // G, m % G
                            oh = oh0 + tt * R + r
                            for el in range(2):
                                ow = ow0 + gi * TM + 2 * q + el
                                if oh < OH and ow < OW and ch < C:
                                    for k in range(VEC):
                                        key = (n, oh, ow, ch + k)
                                        assert key not in y, "double write %s" % (key,)
                                        y[key] = acc[warp, lane, (tt * CGS + cg) * VEC + k][mi][el]
    return y, (OH, OW, G, R, nband, T)


def reference(x, w, bias, N, IH, IW, C, FH, FW, pad):
    pt, pb, pl, pr = pad
    OH, OW = IH + pt + pb - FH + 1, IW + pl + pr - FW + 1
    y = {}
    for n in range(N):
        for oh in range(OH):
            for ow in range(OW):
                for c in range(C):
                    s = bias[c] if bias else 0
                    for fh in range(FH):
                        for fw in range(FW):
                            ih, iw = oh + fh - pt, ow + fw - pl
                            if 0 <= ih < IH and 0 <= iw < IW:
                                s += x[n][ih][iw][c] * w[fh][fw][c]
                    y[n, oh, ow, c] = s
    return y


def check(N, IH, IW, C, FH, FW, pad, with_bias=False, seed=0, fpairs=False, ipairs=False,
          rows=1, wc=16, ob=False):
    rnd = random.Random(seed)
    x = [[[[rnd.randint(-3, 3) for _ in range(C)] for _ in range(IW)]
          for _ in range(IH)] for _ in range(N)]
    w = [[[rnd.randint(-3, 3) for _ in range(C)] for _ in range(FW)] for _ in range(FH)]
    bias = [rnd.randint(-5, 5) for _ in range(C)] if with_bias else None
    got, (OH, OW, G, R, nband, T) = kernel(x, w, bias, N, IH, IW, C, FH, FW, pad, fpairs, ipairs,
                                           rows, wc, ob)
    want = reference(x, w, bias, N, IH, IW, C, FH, FW, pad)
    assert set(got) == set(want), "outputs missing: %d of %d" % (
        len(set(want) - set(got)), len(want))
    bad = [k for k in want if got[k] != want[k]]
    status = "ok" if not bad else "MISMATCH %d, first %s: %s vs %s" % (
        len(bad), bad[0], got[bad[0]], want[bad[0]])
    print("N%d %dx%d C%d F%dx%d pad%s bias=%d G=%d R=%d slices=%d OH=%d OW=%d%s%s%s%s: %s" % (
        N, IH, IW, C, FH, FW, list(pad), with_bias, G, R, nband, OH, OW,
        " filter-pairs" if fpairs else "", " input-pairs" if ipairs else "",
        " band-rows=%d(T=%d) warp-channels=%d" % (rows, T, wc) if rows > 1 or wc != 16 else "",
        " one-barrier" if ob else "",
        status))
    return not bad


def main():
    ok = True
    ok &= check(1, 5, 13, 16, 3, 9, (1, 1, 4, 4))               # G=4 R=4, 1 slice, H tail
    ok &= check(1, 6, 40, 24, 5, 19, (2, 2, 9, 9), True)         # G=8 R=2, 2 slices, bias
    ok &= check(1, 3, 70, 8, 2, 31, (0, 1, 15, 15))              # G=16 R=1, 3 slices, W tail
    ok &= check(1, 2, 12, 72, 1, 51, (0, 0, 25, 25))             # 4 slices, 2 channel blocks
    ok &= check(1, 4, 9, 8, 4, 10, (3, 0, 1, 3))                 # asymmetric, even F
    for fp, ip in ((True, False), (True, True), (False, True)):
        ok &= check(1, 5, 13, 16, 3, 9, (1, 1, 4, 4), fpairs=fp, ipairs=ip)
        ok &= check(1, 3, 70, 8, 2, 31, (0, 1, 15, 15), True, fpairs=fp, ipairs=ip)
        ok &= check(1, 4, 9, 72, 3, 10, (1, 1, 1, 3), fpairs=fp, ipairs=ip)  # odd pl, 2 channel blocks
    ok &= check(1, 6, 40, 24, 5, 19, (2, 2, 9, 9), True, fpairs=True, ipairs=True)
    # band-rows: T tiles per warp sharing B (G = 4/8/16, height tails, T
    # clamped by a short output, 8 warps of 8 channels).
    ok &= check(1, 11, 13, 16, 3, 9, (1, 1, 4, 4), fpairs=True, rows=2)          # R=4, RB=8, H tail
    ok &= check(1, 7, 40, 24, 5, 19, (2, 2, 9, 9), True, fpairs=True, rows=4)   # R=2, RB=8, bias
    ok &= check(1, 5, 70, 8, 2, 31, (0, 1, 15, 15), fpairs=True, rows=4, wc=8)  # R=1, RB=4, W tail
    ok &= check(1, 6, 9, 72, 3, 10, (1, 1, 1, 3), fpairs=True, rows=2, wc=8)    # 2 channel blocks
    ok &= check(1, 3, 13, 16, 3, 9, (1, 1, 4, 4), fpairs=True, rows=4)           # OH=3 < R: T=1
    ok &= check(1, 6, 40, 24, 5, 19, (2, 2, 9, 9), ipairs=True, rows=2)          # no filter pairs
    # band-one-barrier (refill hazards checked), alone and with band rows.
    ok &= check(1, 5, 13, 16, 3, 9, (1, 1, 4, 4), fpairs=True, ob=True)
    ok &= check(1, 7, 40, 24, 5, 19, (2, 2, 9, 9), True, fpairs=True, rows=2, wc=8, ob=True)
    ok &= check(1, 5, 70, 8, 4, 31, (1, 2, 15, 15), ob=True, rows=4)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
