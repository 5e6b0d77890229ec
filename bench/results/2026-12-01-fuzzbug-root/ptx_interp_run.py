"""Runs a row-tile kernel's PTX serially through ptx_interp.py on random
f16 inputs of N=3 H=4 W=6 C=72, 3x3, and compares with float64:
    python3 ptx_interp_run.py KERNEL.ptx pt,pb,pl,pr THREADS [bias]"""
import os, sys, numpy as np, re
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptx_interp import parse, run
import torch, torch.nn.functional as F
N,H,W,C,FH,FW = 3,4,6,72,3,3
pt,pb,pl,pr = [int(v) for v in sys.argv[2].split(',')]
OH = H+pt+pb-FH+1; OW = W+pl+pr-FW+1
ptx = sys.argv[1]; nthreads = int(sys.argv[3]); bias = len(sys.argv) > 4
ins = parse(ptx)
rng = np.random.default_rng(0)
x = rng.standard_normal((N,H,W,C)).astype(np.float16)
w = rng.standard_normal((FH,FW,C)).astype(np.float16)
b = rng.standard_normal((C,)).astype(np.float16)
y = np.full((N,OH,OW,C), np.nan, np.float16)
mem = bytearray(1 << 20)
offs = {}
pos = 0
for nm, arr in (('x', x), ('w', w), ('b', b), ('y', y)):
    offs[nm] = pos; mem[pos:pos+arr.nbytes] = arr.tobytes(); pos += (arr.nbytes + 255) // 256 * 256
name = re.search(r'\.entry (\w+)\(', open(ptx).read()).group(1)
params = {}
# parameter layout: filter(9), bias(5), x(11), y(11)
order = [('w', 3), ('b', 1), ('x', 4), ('y', 4)] if bias else [('w', 3), ('x', 4), ('y', 4)]
k = 0
for nm, rank in order:
    params[f'{name}_param_{k}'] = offs[nm]; params[f'{name}_param_{k+1}'] = offs[nm]
    for j in range(1 + 2 * rank): params[f'{name}_param_{k+2+j}'] = 0
    k += 3 + 2 * rank
for t in range(nthreads):
    run(ins, params, mem, t)
yo = np.frombuffer(bytes(mem[offs['y']:offs['y'] + y.nbytes]), np.float16).reshape(y.shape).astype(np.float64)
xn = F.pad(torch.from_numpy(x.astype(np.float64)).permute(0,3,1,2), (pl,pr,pt,pb))
ref = F.conv2d(xn, torch.from_numpy(w.astype(np.float64)).permute(2,0,1).unsqueeze(1), torch.from_numpy(b.astype(np.float64)) if bias else None, groups=C).permute(0,2,3,1).numpy()
bad = (np.abs(yo - ref) > 2e-2 * (1 + np.abs(ref))) | np.isnan(yo)
print('wrong', bad.sum(), 'of', bad.size, 'ow:', sorted(set(np.nonzero(bad)[2].tolist())))
idx = np.argwhere(bad)
for k, nm in enumerate('n oh ow c'.split()):
    print(nm, sorted(set(idx[:, k].tolist()))[:40])
for i in idx[:5]:
    print(i, yo[tuple(i)], ref[tuple(i)])
