"""The progress display (dwc_torch.progress): a bar redrawn in place when
stderr is a terminal (a real pty here, and a stream that says it is one),
a plain line per step otherwise, nothing when quiet (quiet=True,
DWC_QUIET=1; quiet=False wins over the variable); convert's tuning loop and
a kernel compiled on first use show it, a cache hit shows nothing, and bars
left open by an error are closed by the enclosing scope.

usage: progress_check.py FAKE_DWC_AOT (a stand-in for dwc-aot)"""
import io
import os
import pty
import subprocess
import sys
import warnings

warnings.filterwarnings("ignore")
import torch  # noqa: E402

from dwc_torch import progress  # noqa: E402

fake_aot = sys.argv[1]


class Terminal(io.StringIO):
    def isatty(self):
        return True


def shown(s):
    """Control characters made visible: \\r -> <CR>, ESC[K -> <EL>."""
    return s.replace("\r", "<CR>").replace("\x1b[K", "<EL>")


def run_bar(stream, quiet=None, n=3):
    with progress.Progress(n, "demo", quiet, stream=stream) as bar:
        for i in range(n):
            bar.step("item%d" % i)
    return stream.getvalue()


os.environ.pop("DWC_QUIET", None)
out = run_bar(Terminal())
print("tty redraws:", out.count("\r\x1b[K"), "ends with summary:",
      shown(out.rsplit("\r", 1)[-1].replace("0.0 s", "T s")).strip())
print("tty last bar:", shown(out.split("\r\x1b[K")[3]).replace(" 0s ", " Ts "))
print("pipe:", run_bar(io.StringIO()).splitlines())
print("quiet=True:", repr(run_bar(Terminal(), quiet=True)), repr(run_bar(io.StringIO(), True)))
os.environ["DWC_QUIET"] = "1"
print("DWC_QUIET=1:", repr(run_bar(Terminal())), repr(run_bar(io.StringIO())))
print("DWC_QUIET=1, quiet=False:", run_bar(io.StringIO(), quiet=False).splitlines()[:1])
os.environ["DWC_QUIET"] = "0"
print("DWC_QUIET=0:", len(run_bar(io.StringIO()).splitlines()), "lines")
del os.environ["DWC_QUIET"]

# A bar of unknown length; a task inside a bar is a note of that bar.
s = io.StringIO()
with progress.Progress(None, "count", stream=s) as bar:
    bar.step("a")
    with progress.task("inner work"):
        pass
print("count and note:", s.getvalue().splitlines())

# A loop left by an error: the scope closes its bar, the next line starts clean.
t = Terminal()
try:
    with progress.quiet_scope(None):
        bar = progress.Progress(5, "loop", stream=t)
        bar.step("first")
        raise RuntimeError("boom")
except RuntimeError:
    pass
print("closed after error:", progress.current() is None, t.getvalue().endswith("\n"))

# A real terminal: stderr of a child process on a pty.
master, slave = pty.openpty()
child = subprocess.run(
    [sys.executable, "-c", "from dwc_torch import progress\n"
     "with progress.Progress(2, 'pty') as b:\n b.step('x'); b.step('y')"],
    stderr=slave, stdout=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=os.pathsep.join(
        sys.path)))
os.close(slave)
got = os.read(master, 4096).decode()
os.close(master)
print("pty: bar", "[" + "#" * 24 + "] 2/2" in got, "summary", "pty: 2/2 in" in got)

# The AOT step on a terminal: the bar on stderr instead of a line per kernel.
master, slave = pty.openpty()
out_dir = os.path.join(os.environ["DWC_CACHE_DIR"], "aot-pty")
child = subprocess.run(
    [sys.executable, "-m", "dwc_torch.aot", "--aot", fake_aot, "--out", out_dir,
     "--spec", "1,8,9,9,3", "--spec", "1,8,9,9,5"], stderr=slave, stdout=subprocess.PIPE,
    text=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
os.close(slave)
got = os.read(master, 8192).decode()
os.close(master)
print("aot on a pty: per-kernel lines", child.stdout.count("  ok "), "bar",
      "] 6/6" in got, "summary", "dwc_torch.aot: compiling: 6/6 in" in got)

# convert's tuning loop (timed on the CPU with tune=True): a line per layer.
sys.path.insert(0, os.path.dirname(__file__))
import dwc_torch  # noqa: E402
from tiny_models import tiny  # noqa: E402

x = torch.randn(2, 3, 17, 19)
for quiet in (None, True):
    err = io.StringIO()
    real, sys.stderr = sys.stderr, err
    try:
        dwc_torch.convert(tiny(), example_inputs=x, tune=True, verbose=False, quiet=quiet)
    finally:
        sys.stderr = real
    lines = [ln for ln in err.getvalue().splitlines() if "tuning [" in ln]
    print("convert quiet=%s:" % quiet, len(lines), "lines", lines[:1], lines[-1:])

# A kernel compiled on first use: a line while dwc-aot runs; none for a hit.
from dwc_torch import kernels  # noqa: E402
from dwc_torch.spec import LayerSpec  # noqa: E402

os.environ["DWC_AOT"] = fake_aot
spec = LayerSpec.make(1, 8, 9, 9, 3, 1, 1, 1, "f32", False)
for attempt in ("first", "cached"):
    err = io.StringIO()
    real, sys.stderr = sys.stderr, err
    try:
        kernels.resolve(spec.registry_key("fwd"))  # the stand-in's object does not link
    finally:
        sys.stderr = real
    print("resolve %s:" % attempt, [ln for ln in err.getvalue().splitlines()
                                    if "compiling" in ln])
