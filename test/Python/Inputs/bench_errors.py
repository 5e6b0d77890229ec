"""python -m dwc_torch.bench with LAYER arguments that are not layers:
each gives one line on stderr naming the mistake, exit status 2, no
traceback. usage: bench_errors.py PYTHON_DIR"""
import os
import subprocess
import sys

BAD = ["conv:1x2x3x4:k3", "dw:64x96x56:k3", "dw", "dw:0x8x8x8:k3", "dw:64x96x56x56",
       "max:1x8x8x8", "dw:1x8x4x4:k7:p0", "dw:1x8x4x4:k3:f16:f32", "dw:1x8x8x8:k3:s2:s1",
       "dw:1x8x8x8:k3:ceil", "max:1x8x8x8:k3:cip", "gap:1x8x4x4:k3", "max:1x8x8x8:k3:d2",
       "dw:1x8x8x8:k0", "dw:1x8x8x8:k3x3x3", "dw:1x8x8x8:k3:q1", "dw:1x8x8x8:k3:s",
       "dw:1x8x8x8:k3:f8"]
env = dict(os.environ, PYTHONPATH=sys.argv[1])
for layer in BAD:
    r = subprocess.run([sys.executable, "-m", "dwc_torch.bench", layer], env=env,
                       capture_output=True, text=True)
    lines = r.stderr.strip().splitlines()
    prefix = "python -m dwc_torch.bench: error: LAYER %s: " % layer
    text = lines[0][len(prefix):] if len(lines) == 1 and lines[0].startswith(prefix) \
        else "UNEXPECTED %r" % r.stderr
    print("%s -> %d: %s" % (layer, r.returncode, text.split(": LayerSpec(")[0]))
