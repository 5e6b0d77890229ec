"""CPU model of the convert-dwc-to-gpu-mma kernel's index math.

Replays, block by block and lane by lane, what the generated kernel does:
cp.async staging into the swizzled shared tiles (zero-fill for padding and
tails), per-lane fragment loads, the m16n8k16 mma.sync semantics defined by
the PTX ISA register layouts (independently of how the kernel fills them),
and the epilogue stores. Integer data, so the result must equal a direct
depthwise convolution exactly; every output must be written exactly once.
Formulas mirror lib/Conversion/DwcToGPUMma/DwcToGPUMma.cpp."""

import random
import sys

BN, WARPS, THREADS, VEC, FRAG, TM, GEMVS, Z = 64, 4, 128, 8, 9, 8, 16, 23
CHUNKS = BN // VEC
OFF = (0, 1, 8, 9)


def groups_per_row(ow):
    g = 4
    while g < 16 and 8 * g < ow:
        g *= 2
    return g


def swz(row, h):
    return (h ^ (row % CHUNKS)) * VEC


def kernel(x, w, bias, N, IH, IW, C, FH, FW, pad):
    pt, pb, pl, pr = pad
    OH, OW = IH + pt + pb - FH + 1, IW + pl + pr - FW + 1
    nfrag = -(-FW // FRAG)
    S = FH * nfrag
    G = groups_per_row(OW)
    R = GEMVS // G
    RS = TM * G + TM
    P = R * RS
    tilesW, tilesH = -(-OW // (TM * G)), -(-OH // R)
    gridX, gridY = N * tilesH * tilesW, -(-C // BN)
    y = {}
    for by in range(gridY):
        for bx in range(gridX):
            tw, rest = bx % tilesW, bx // tilesW
            th, n = rest % tilesH, rest // tilesH
            oh0, ow0, cb = th * R, tw * TM * G, by * BN
            ins = [[[None] * BN for _ in range(P)] for _ in range(2)]
            zs = [[[None] * BN for _ in range(Z)] for _ in range(2)]
            for tid in range(THREADS):
                for i in range(-(-2 * 14 * CHUNKS // THREADS)):
                    id_ = tid + i * THREADS
                    if id_ >= 2 * 14 * CHUNKS:
                        continue
                    buf, r = id_ // (14 * CHUNKS), id_ % (14 * CHUNKS)
                    t, hh = r // CHUNKS, r % CHUNKS
                    pos = t if t < 7 else t + FRAG
                    for e in range(VEC):
                        zs[buf][pos][hh * VEC + e] = 0

            def prefetch(s, buf):
                fh, j = s // nfrag, s % nfrag
                ih_base, iw_base = oh0 + fh - pt, ow0 + j * FRAG - pl
                total = P * CHUNKS
                for tid in range(THREADS):
                    for i in range(-(-total // THREADS)):
                        id_ = tid + i * THREADS
                        if id_ >= total:
                            continue
                        pos, hh = id_ // CHUNKS, id_ % CHUNKS
                        r, col = pos // RS, pos % RS
                        ih, iw, ch = ih_base + r, iw_base + col, cb + hh * VEC
                        valid = 0 <= ih < IH and 0 <= iw < IW and ch < C
                        for e in range(VEC):
                            ins[buf][pos][swz(pos, hh) + e] = (
                                x[n][ih][iw][ch + e] if valid else 0)
                    if tid < FRAG * CHUNKS:
                        t, hh = tid // CHUNKS, tid % CHUNKS
                        tap, ch = j * FRAG + t, cb + hh * VEC
                        valid = tap < FW and ch < C
                        zpos = t + 7
                        for e in range(VEC):
                            zs[buf][zpos][swz(zpos, hh) + e] = (
                                w[fh][tap][ch + e] if valid else 0)

            def gemv_row(g, mi):
                m = g + 8 * mi
                return m // G, m % G

            acc = {}
            for warp in range(WARPS):
                for lane in range(32):
                    for cg in range(2):
                        ch = cb + (warp * 2 + cg) * VEC
                        for k in range(VEC):
                            b0 = bias[ch + k] if (bias and ch + k < C) else 0
                            acc[warp, lane, cg * VEC + k] = [[b0, b0], [b0, b0]]
            prefetch(0, 0)
            for s in range(S):
                buf = s % 2
                if s + 1 < S:
                    prefetch(s + 1, 1 - buf)
                for warp in range(WARPS):
                    frags = {}
                    for lane in range(32):
                        g, q = lane // 4, lane % 4
                        for cg in range(2):
                            hh = warp * 2 + cg

                            def load(mem, row):
                                v = mem[buf][row][swz(row, hh):swz(row, hh) + VEC]
                                assert None not in v, "uninitialised shared read"
                                return v
                            va = [[None] * 4 for _ in range(2)]
                            for mi in range(2):
                                r, gi = gemv_row(g, mi)
                                base = r * RS + gi * TM + 2 * q
                                for kk in range(4):
                                    va[mi][kk] = load(ins, base + OFF[kk])
                            zbase = 2 * q - g + 7
                            vb = [load(zs, zbase + OFF[kk]) for kk in range(4)]
                            for k in range(VEC):
                                a = [[va[0][0][k], va[0][1][k]], [va[1][0][k], va[1][1][k]],
                                     [va[0][2][k], va[0][3][k]], [va[1][2][k], va[1][3][k]]]
                                b = [[vb[0][k], vb[1][k]], [vb[2][k], vb[3][k]]]
                                frags[lane, cg * VEC + k] = (a, b)
                    # mma.sync m16n8k16 per channel, PTX ISA fragment layouts.
                    for c in range(2 * VEC):
                        A = [[None] * 16 for _ in range(16)]
                        B = [[None] * 8 for _ in range(16)]
                        D = [[None] * 8 for _ in range(16)]
                        for lane in range(32):
                            g, q = lane // 4, lane % 4
                            a, b = frags[lane, c]
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
                                D[m][i] += sum(A[m][k] * B[k][i] for k in range(16))
                        for lane in range(32):
                            g, q = lane // 4, lane % 4
                            acc[warp, lane, c] = [[D[g][2 * q], D[g][2 * q + 1]],
                                                  [D[g + 8][2 * q], D[g + 8][2 * q + 1]]]
            for warp in range(WARPS):
                for lane in range(32):
                    g, q = lane // 4, lane % 4
                    for cg in range(2):
                        ch = cb + (warp * 2 + cg) * VEC
                        for mi in range(2):
                            r, gi = gemv_row(g, mi)
                            oh = oh0 + r
                            for el in range(2):
                                ow = ow0 + gi * TM + 2 * q + el
                                if oh < OH and ow < OW and ch < C:
                                    for k in range(VEC):
                                        key = (n, oh, ow, ch + k)
                                        assert key not in y, "double write %s" % (key,)
                                        y[key] = acc[warp, lane, cg * VEC + k][mi][el]
    return y, (OH, OW, G, R)


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


def check(N, IH, IW, C, FH, FW, pad, with_bias=False, seed=0):
    rnd = random.Random(seed)
    x = [[[[rnd.randint(-3, 3) for _ in range(C)] for _ in range(IW)]
          for _ in range(IH)] for _ in range(N)]
    w = [[[rnd.randint(-3, 3) for _ in range(C)] for _ in range(FW)] for _ in range(FH)]
    bias = [rnd.randint(-5, 5) for _ in range(C)] if with_bias else None
    got, (OH, OW, G, R) = kernel(x, w, bias, N, IH, IW, C, FH, FW, pad)
    want = reference(x, w, bias, N, IH, IW, C, FH, FW, pad)
    assert set(got) == set(want), "outputs missing: %d of %d" % (
        len(set(want) - set(got)), len(want))
    bad = [k for k in want if got[k] != want[k]]
    status = "ok" if not bad else "MISMATCH %d, first %s: %s vs %s" % (
        len(bad), bad[0], got[bad[0]], want[bad[0]])
    print("N%d %dx%d C%d F%dx%d pad%s bias=%d G=%d R=%d OH=%d OW=%d: %s" % (
        N, IH, IW, C, FH, FW, list(pad), with_bias, G, R, OH, OW, status))
    return not bad


def main():
    ok = True
    ok &= check(1, 5, 13, 16, 3, 3, (1, 1, 1, 1))               # G=4 R=4, H tail
    ok &= check(1, 6, 40, 24, 5, 19, (2, 2, 9, 9), True)         # G=8 R=2, 3 fragments
    ok &= check(2, 3, 70, 8, 2, 11, (0, 1, 5, 5))                # G=16 R=1, W tail
    ok &= check(1, 2, 9, 72, 1, 1, (0, 0, 0, 0), True)           # 2 channel blocks
    ok &= check(1, 4, 6, 8, 4, 9, (3, 0, 1, 3))                  # asymmetric, even F
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
