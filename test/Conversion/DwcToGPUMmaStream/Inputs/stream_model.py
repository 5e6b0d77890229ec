#!/usr/bin/env python3
"""CPU model of the streaming band kernel (convert-dwc-to-gpu-mma-stream).

Mirrors the pass's index math - the channel-major workspace, the lanes' block
registers X_k, the band entries (v[s], v[s+1], v[s+8], v[s+9]), the m16n8k16
fragment layouts, the row blocks with carried prefetch rows, the row-chunk
split of the grid and the staged epilogue - on integer data, and compares
with a direct convolution (exact). Prints one '<case>: ok' line per case or
'MISMATCH'.
"""
import numpy as np


def plan(N, IH, IW, C, FH, FW, OH, OW, rows=8, prefetch=4, min_blocks=528):
    p = {}
    p["slices"] = (FW + 7 + 15) // 16
    p["blocks"] = 2 * p["slices"] + 1
    groups = -(-OW // 8)
    if groups >= 16:
        p["span"], p["images"], p["colTiles"] = 16, 1, -(-groups // 16)
    else:
        s = 1
        while s < groups:
            s *= 2
        p["span"] = max(2, s)
        p["images"] = 16 // p["span"]
        p["colTiles"] = 1
    span = 16 * p["colTiles"] if p["images"] == 1 else p["span"]
    p["pitch"] = -(-(OW + FW - 1) // 8) * 8
    p["maskCols"] = 8 * span + 16 * p["slices"] - 8 > p["pitch"]
    p["rows"] = min(rows, OH)
    p["prefetch"] = min(prefetch, FH - 1)
    p["rowBlocks"] = -(-OH // p["rows"])
    p["tiles"] = -(-N // p["images"]) * p["colTiles"]
    blocks = C // 8 * p["tiles"]
    chunks = min(p["rowBlocks"], max(1, -(-min_blocks // blocks)))
    p["perChunk"] = -(-p["rowBlocks"] // chunks)
    p["chunks"] = -(-p["rowBlocks"] // p["perChunk"])
    return p


def mma(a, b, c):
    """a: 32 lanes x 4 regs x 2, b: 32 x 2 x 2, c: 32 x 2 x 2 (m16n8k16)."""
    A = np.zeros((16, 16), np.int64)
    B = np.zeros((16, 8), np.int64)
    for lane in range(32):
        g, q = lane // 4, lane % 4
        for i, (r, k) in enumerate([(g, 2 * q), (g + 8, 2 * q), (g, 2 * q + 8),
                                    (g + 8, 2 * q + 8)]):
            A[r, k:k + 2] = a[lane][i]
        B[2 * q:2 * q + 2, g] = b[lane][0]
        B[2 * q + 8:2 * q + 10, g] = b[lane][1]
    D = A @ B
    out = []
    for lane in range(32):
        g, q = lane // 4, lane % 4
        out.append(np.array([D[g, 2 * q:2 * q + 2], D[g + 8, 2 * q:2 * q + 2]])
                   + c[lane])
    return out


def run(x, w, bias, pt, pl, OH, OW, rotate=False, **kw):
    N, IH, IW, C = x.shape
    FH, FW = w.shape[:2]
    p = plan(N, IH, IW, C, FH, FW, OH, OW, **kw)
    pitch = p["pitch"]
    # First kernel: xt[n][ih][c][pc] = x[n][ih][pc - pl][c].
    xt = np.zeros(N * IH * C * pitch, np.int64)
    for n in range(N):
        for ih in range(IH):
            for c in range(C):
                for pc in range(pitch):
                    ic = pc - pl
                    if 0 <= ic < IW:
                        xt[((n * IH + ih) * C + c) * pitch + pc] = x[n, ih, ic, c]
    y = np.full((N, OH, OW, C), -999999, np.int64)
    R, D, S = p["rows"], p["prefetch"], p["slices"]
    steps = R + FH - 1
    C8 = C // 8
    for bx in range(C8 * p["tiles"] * p["chunks"]):
        c8 = bx % C8
        tile = (bx // C8) % p["tiles"]
        chunk = bx // C8 // p["tiles"]
        ct, imageSet = tile % p["colTiles"], tile // p["colTiles"]
        n0 = imageSet * p["images"]
        stage = np.zeros((8, R, 128), np.int64)
        rb0 = chunk * p["perChunk"]
        rb1 = min(rb0 + p["perChunk"], p["rowBlocks"])
        for rb in range(rb0, rb1):
            r0 = rb * R
            for warp in range(8):
                c = c8 * 8 + warp
                # band entries of channel c
                def v(fh, i):
                    tap = i - 7
                    if not 0 <= tap < FW:
                        return 0
                    return (w[FH - 1 - fh, FW - 1 - tap, c] if rotate
                            else w[fh, tap, c])
                lanes = []
                for lane in range(32):
                    g, q = lane // 4, lane % 4
                    if p["images"] == 1:
                        colBase, image = ct * 128 + 16 * g, n0
                    else:
                        colBase = 8 * ((2 * g) % p["span"])
                        image = min(n0 + (2 * g) // p["span"], N - 1)
                    laneCol = colBase + 2 * q
                    lanes.append((g, q, laneCol,
                                  ((image * IH) * C + c) * pitch + laneCol))

                def load_row(step):
                    ih = r0 + step - pt
                    ok_row = 0 <= ih < IH
                    ihc = min(max(ih, 0), IH - 1)
                    regs = []
                    for (g, q, laneCol, laneBase) in lanes:
                        base = laneBase + ihc * C * pitch
                        rr = []
                        for k in range(p["blocks"]):
                            ok = ok_row
                            idx = base + 8 * k
                            if p["maskCols"]:
                                okc = laneCol + 8 * k < pitch
                                ok = ok and okc
                                idx = idx if okc else base
                            val = xt[idx:idx + 2]
                            rr.append(val if ok else np.zeros(2, np.int64))
                        regs.append(rr)
                    return regs

                acc = [[np.full((2, 2), bias[c] if bias is not None else 0,
                                np.int64) for _ in range(32)] for _ in range(R)]
                X = [load_row(s) if s < max(D, 1) else None for s in range(steps)]
                for st in range(steps):
                    if D and st + D < steps:
                        X[st + D] = load_row(st + D)
                    elif not D:
                        X[st] = load_row(st)
                    for o in range(max(0, st - FH + 1), min(R - 1, st) + 1):
                        fh = st - o
                        for sl in range(S):
                            a = [[X[st][l][k] for k in (2 * sl, 2 * sl + 1,
                                                        2 * sl + 1, 2 * sl + 2)]
                                 for l in range(32)]
                            b = []
                            for (g, q, _, _) in lanes:
                                e = 2 * q - g + 7 + 16 * sl
                                b.append(np.array([[v(fh, e), v(fh, e + 1)],
                                                   [v(fh, e + 8), v(fh, e + 9)]]))
                            acc[o] = mma(a, b, acc[o])
                for o in range(R):
                    for (g, q, _, _), lane in zip(lanes, range(32)):
                        for half in range(2):
                            pos = 16 * g + 2 * q + 8 * half
                            stage[warp, o, pos:pos + 2] = acc[o][lane][half]
            for tid in range(256):
                for i in range(-(-R * 128 // 256)):
                    idx = tid + 256 * i
                    o, pos = idx // 128, idx % 128
                    if o >= R or r0 + o >= OH:
                        continue
                    if p["images"] == 1:
                        img, col = n0, ct * 128 + pos
                    else:
                        j = pos // 8
                        img = n0 + j // p["span"]
                        col = 8 * (j % p["span"]) + pos % 8
                    if img >= N or col >= OW:
                        continue
                    y[img, r0 + o, col, c8 * 8:c8 * 8 + 8] = stage[:, o, pos]
    return y


def reference(x, w, bias, pt, pl, OH, OW, rotate=False):
    N, IH, IW, C = x.shape
    FH, FW = w.shape[:2]
    if rotate:
        w = w[::-1, ::-1]
    y = np.zeros((N, OH, OW, C), np.int64)
    for fh in range(FH):
        for fw in range(FW):
            for oh in range(OH):
                ih = oh + fh - pt
                if not 0 <= ih < IH:
                    continue
                for ow in range(OW):
                    iw = ow + fw - pl
                    if 0 <= iw < IW:
                        y[:, oh, ow, :] += x[:, ih, iw, :] * w[fh, fw, :]
    if bias is not None:
        y += bias
    return y


CASES = [
    # name, N, IH, IW, C, FH, FW, padding (t, b, l, r), bias, rotate, options
    ("9x9 W=128 one tile", 1, 10, 128, 8, 9, 9, (4, 4, 4, 4), False, False, {}),
    ("13x13 W=40 two images per tile, rows=3", 3, 7, 40, 8, 13, 13,
     (6, 6, 6, 6), True, False, {"rows": 3}),
    ("17x17 W=20 four images, N tail", 5, 9, 20, 16, 17, 17, (8, 8, 8, 8),
     False, False, {"rows": 4, "prefetch": 2}),
    ("9x11 W=150 two column tiles, asymmetric padding", 1, 6, 150, 8, 9, 11,
     (1, 3, 7, 2), False, False, {"rows": 2}),
    ("31x31 W=9, prefetch 0, backward-data rotation", 2, 12, 9, 8, 31, 31,
     (15, 15, 15, 15), False, True, {"rows": 5, "prefetch": 0}),
    ("1x9 filter (FH = 1), W=8 span 2", 2, 5, 8, 8, 1, 9, (0, 0, 4, 4),
     True, False, {}),
    ("row chunks over the grid", 1, 20, 16, 8, 9, 9, (4, 4, 4, 4), False,
     False, {"rows": 2, "min_blocks": 8}),
]


def main():
    rng = np.random.default_rng(7)
    for (name, N, IH, IW, C, FH, FW, pad, has_bias, rotate, kw) in CASES:
        pt, pb, pl, pr = pad
        OH, OW = IH + pt + pb - FH + 1, IW + pl + pr - FW + 1
        x = rng.integers(-3, 4, (N, IH, IW, C))
        w = rng.integers(-3, 4, (FH, FW, C))
        bias = rng.integers(-5, 6, C) if has_bias else None
        got = run(x, w, bias, pt, pl, OH, OW, rotate, **kw)
        ref = reference(x, w, bias, pt, pl, OH, OW, rotate)
        print(f"{name}: {'ok' if np.array_equal(got, ref) else 'MISMATCH'}")


if __name__ == "__main__":
    main()
