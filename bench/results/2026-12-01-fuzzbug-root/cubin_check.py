"""Launches one row-tile depthwise kernel cubin directly (driver API via
ctypes, torch's context) on random inputs and prints which outputs differ
from the float64 reference.
  cubin_check.py CUBIN N H W C pt,pb,pl,pr dtype bias(0/1) [threads]"""
import ctypes, sys, re
import torch, torch.nn.functional as F
cub, N, H, W, C, pad, dt, bias = sys.argv[1], *map(int, sys.argv[2:6]), sys.argv[6], sys.argv[7], int(sys.argv[8])
pt, pb, pl, pr = map(int, pad.split(','))
FH = FW = 3
OH, OW = H + pt + pb - 2, W + pl + pr - 2
dt = {'f16': torch.float16, 'bf16': torch.bfloat16}[dt]
torch.cuda.init(); torch.zeros(1, device='cuda')
cu = ctypes.CDLL('libcuda.so.1')
data = open(cub, 'rb').read()
mod = ctypes.c_void_p(); fn = ctypes.c_void_p()
assert cu.cuModuleLoadData(ctypes.byref(mod), data) == 0
name = re.search(rb'\.text\.(\w+_kernel)\x00', data).group(1)
assert cu.cuModuleGetFunction(ctypes.byref(fn), mod, name) == 0, name
torch.manual_seed(0)
worst = 0
for trial in range(3):
    x = torch.randn(N, H, W, C, device='cuda').to(dt)
    w = torch.randn(FH, FW, C, device='cuda').to(dt)
    b = torch.randn(C, device='cuda').to(dt)
    y = torch.full((N, OH, OW, C), float('nan'), device='cuda', dtype=dt)
    def desc(t):
        sizes = list(t.shape); strides = list(t.stride())
        return [t.data_ptr(), t.data_ptr(), 0] + sizes + strides
    args = desc(w) + (desc(b) if bias else []) + desc(x) + desc(y)
    vals = [ctypes.c_uint64(v) for v in args]
    ptrs = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in vals])
    threads = 256
    blocks = (N * -(-OH // 4) * -(-OW // 4) * (C // 4) + 255) // 256
    rc = cu.cuLaunchKernel(fn, blocks, 1, 1, threads, 1, 1, 0, None, ptrs, None)
    torch.cuda.synchronize()
    assert rc == 0, rc
    xn = F.pad(x.double().permute(0, 3, 1, 2), (pl, pr, pt, pb))
    ref = F.conv2d(xn, w.double().permute(2, 0, 1).unsqueeze(1), b.double() if bias else None, groups=C).permute(0, 2, 3, 1)
    bad = ((y.double() - ref).abs() > 2e-2 * (1 + ref.abs())) | torch.isnan(y)
    idx = bad.nonzero()
    worst = max(worst, len(idx))
    if trial == 0:
        print('%s: %d of %d wrong; ow %s; oh %s; n %s' % (cub.split('/')[-1], len(idx), bad.numel(),
              sorted(set(idx[:, 2].tolist())), sorted(set(idx[:, 1].tolist())), sorted(set(idx[:, 0].tolist()))))
        for i in idx[:4].tolist():
            print('   at', i, 'ours %.4f ref %.4f' % (y[tuple(i)].item(), ref[tuple(i)].item()))
print('  worst of 3 trials:', worst)
