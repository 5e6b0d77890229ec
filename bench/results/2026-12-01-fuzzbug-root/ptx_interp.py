"""Tiny serial PTX interpreter for the straight-line row-tile kernel (one
thread at a time), to tell whether the PTX itself computes the right values."""
import re, sys, struct
import numpy as np

def parse(path):
    body = open(path).read()
    ins = []
    for ln in body.splitlines():
        ln = ln.strip()
        if not ln or ln.startswith('//') or ln.startswith('.') or ln in '{}' or ln.startswith(')'):
            continue
        if ln.endswith(':'):
            ins.append(('label', ln[:-1], [], None)); continue
        pred = None
        m = re.match(r'@(!?%\w+)\s+(.*)', ln)
        if m: pred, ln = m.group(1), m.group(2)
        ln = ln.rstrip(';')
        parts = ln.split(None, 1)
        op = parts[0]
        ops = []
        if len(parts) > 1:
            s = parts[1]
            ops = [o.strip() for o in re.findall(r'\s*(\{[^}]*\}|\[[^\]]*\]|[^,]+)', s)]
        ins.append((op, ops, pred))
    return ins

F16 = {'f16': np.float16}
def run(ins, params, mem, tid, half='f16'):
    R = {'%tid.x': tid}
    def val(o):
        if o.startswith('%'): return R[o]
        if o.startswith('0f'): return struct.unpack('<f', bytes.fromhex(o[2:])[::-1])[0]
        return int(o)
    def addr(o):
        o = o.strip('[]')
        m = re.match(r'(%\w+)(?:\+?(-?\d+))?$', o)
        if m.group(1) in R: base = R[m.group(1)]
        else: base = params[m.group(1)]
        return base + (int(m.group(2)) if m.group(2) else 0)
    def h2f(b):
        if half == 'f16': return float(np.frombuffer(struct.pack('<H', b), np.float16)[0])
        return struct.unpack('<f', struct.pack('<I', b << 16))[0]
    def f2h(f):
        if half == 'f16': return int(np.frombuffer(np.float16(f).tobytes(), np.uint16)[0])
        import torch
        return int(torch.tensor([f], dtype=torch.float32).to(torch.bfloat16).view(torch.int16).item()) & 0xffff
    labels = {}
    for i, it in enumerate(ins):
        if it[0] == 'label': labels[it[1]] = i
    pc = 0
    while pc < len(ins):
        it = ins[pc]; pc += 1
        if it[0] == 'label': continue
        op, ops, pred = it
        if pred:
            v = R[pred.lstrip('!')]
            if pred.startswith('!'): v = not v
            if not v: continue
        base = op.split('.')[0]
        M16, M32, M64 = 0xffff, 0xffffffff, (1 << 64) - 1
        bits = 64 if op.endswith('64') else 32 if op.endswith('32') else 16
        mask = (1 << bits) - 1
        if op == 'ret': return
        if op == 'bra': pc = labels[ops[0]]; continue
        if op.startswith('ld.param'): R[ops[0]] = params[ops[1].strip('[]')]; continue
        if op.startswith('cvta'): R[ops[0]] = val(ops[1]); continue
        if op == 'mov.u32': R[ops[0]] = val(ops[1]); continue
        if op == 'mov.b32':
            if ops[0].startswith('{'):
                a, b = [x.strip() for x in ops[0].strip('{}').split(',')]
                v = val(ops[1]); R[a] = v & M16; R[b] = v >> 16
            else:
                a, b = [x.strip() for x in ops[1].strip('{}').split(',')]
                R[ops[0]] = val(a) | (val(b) << 16)
            continue
        if op.startswith('setp'):
            cmp = op.split('.')[1]; a, b = val(ops[1]), val(ops[2])
            R[ops[0]] = {'gt': a > b, 'lt': a < b, 'eq': a == b, 'ge': a >= b, 'le': a <= b, 'ne': a != b}[cmp]; continue
        if op.startswith('selp.'): R[ops[0]] = val(ops[1]) if R[ops[3]] else val(ops[2]); continue
        if op.startswith('cvt.f32.f16'): R[ops[0]] = h2f(val(ops[1])); continue
        if op.startswith('cvt.f32.bf16'): R[ops[0]] = h2f(val(ops[1])); continue
        if op.startswith('cvt.rn.f16x2.f32') or op.startswith('cvt.rn.bf16x2.f32'):
            R[ops[0]] = f2h(val(ops[2])) | (f2h(val(ops[1])) << 16); continue
        if op.startswith('cvt.u'): R[ops[0]] = val(ops[1]) & mask; continue
        if op == 'fma.rn.f32':
            R[ops[0]] = float(np.float32(val(ops[1]) * val(ops[2]) + val(ops[3]))); continue
        if base in ('add', 'sub', 'mul', 'and', 'or', 'shl', 'shr', 'min', 'max', 'mad'):
            a = val(ops[1]); b = val(ops[2])
            if base == 'add': r = a + b
            elif base == 'sub': r = a - b
            elif base == 'mul': r = a * b
            elif base == 'mad': r = a * b + val(ops[3])
            elif base == 'and': r = a & b
            elif base == 'or': r = a | b
            elif base == 'shl': r = a << b
            elif base == 'shr': r = a >> b
            elif base == 'min': r = min(a, b)
            elif base == 'max': r = max(a, b)
            if '.wide.' in op: mask = M64
            R[ops[0]] = r & mask; continue
        if op.startswith('ld.global'):
            a = addr(ops[1]); regs = [x.strip() for x in ops[0].strip('{}').split(',')]
            w = 2 if op.endswith('b16') else 4
            for k, r in enumerate(regs):
                R[r] = int.from_bytes(mem[a + k * w:a + k * w + w], 'little')
            continue
        if op.startswith('st.global'):
            a = addr(ops[0]); regs = [x.strip() for x in ops[1].strip('{}').split(',')]
            w = 2 if op.endswith('b16') else 4
            for k, r in enumerate(regs):
                mem[a + k * w:a + k * w + w] = val(r).to_bytes(w, 'little')
            continue
        raise SystemExit('unknown op ' + op)
