"""dwc GPU harness: correctness and timing of dwc-aot kernels against cuDNN.

Runs on the GPU machine (torch + ctypes); bench/gpu.sh builds the libraries
and calls it. For every configuration of the manifest written by
bench/build_kernels.sh:

  1. correctness (every config, always): fresh U(-1,1) inputs, NaN-poisoned
     output, our entry point on torch's stream, float64 reference through
     torch conv2d(groups=C) -> ||ours - ref|| / ||ref|| and a NaN count;
  2. timing (until --time-budget runs out): ours and torch conv2d (cuDNN,
     channels_last) in the same process on the same data, CUDA events,
     median, rotating buffers so the working set exceeds L2.

A kernel that kills the CUDA context makes this process exit with code 3
after saving its state; gpu.sh then restarts it with --resume, which marks
that config as crashed and goes on with the rest.
"""

import argparse
import ctypes
import datetime
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from configs import L2_BYTES, Config, config_from_dict, select  # noqa: E402
import report  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

TORCH_DTYPE = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
EXIT_CONTEXT_LOST = 3      # gpu.sh restarts with --resume
EXIT_SOME_INCORRECT = 10   # report written, not every config correct


def log(*a):
    print("[harness]", *a, flush=True)


class ContextLost(Exception):
    pass


# --- libraries -------------------------------------------------------------
class Kernels:
    """The runtime (loaded RTLD_GLOBAL) and the kernel libraries."""

    def __init__(self, runtime_lib, kernel_libs):
        mode = getattr(os, "RTLD_GLOBAL", 0) | getattr(os, "RTLD_NOW", 0)
        self.rt = ctypes.CDLL(runtime_lib, mode=mode)
        self.rt.dwcInit.restype = ctypes.c_int
        self.rt.dwcSetStream.argtypes = [ctypes.c_void_p]
        self.rt.dwcSetStream.restype = ctypes.c_int
        self.rt.dwcGetLastErrorMessage.restype = ctypes.c_char_p
        self.rt.dwcTakeLastError.restype = ctypes.c_int
        self.libs = []
        self.lib_errors = []
        for p in kernel_libs:
            try:
                self.libs.append(ctypes.CDLL(p, mode=mode))
            except OSError as e:
                self.lib_errors.append(f"{p}: {e}")
                log("cannot load", p, e)

    def message(self):
        m = self.rt.dwcGetLastErrorMessage()
        return m.decode(errors="replace") if m else ""

    def check(self, rc, what):
        if rc != 0:
            raise RuntimeError(f"{what} returned {rc}: {self.message()}")

    def entry(self, symbol, nargs):
        for lib in self.libs:
            try:
                fn = getattr(lib, symbol)
            except AttributeError:
                continue
            fn.argtypes = [ctypes.c_void_p] * nargs
            fn.restype = ctypes.c_int
            return fn
        return None


# --- helpers ---------------------------------------------------------------
def make_inputs(c: Config, gen):
    dt = TORCH_DTYPE[c.dtype]
    dev = "cuda"
    # NHWC contiguous (= channels_last NCHW), FH x FW x C contiguous.
    x = torch.empty(c.N, c.H, c.W, c.C, dtype=dt, device=dev).uniform_(-1, 1, generator=gen)
    w = torch.empty(c.FH, c.FW, c.C, dtype=dt, device=dev).uniform_(-1, 1, generator=gen)
    b = torch.empty(c.C, dtype=dt, device=dev).uniform_(-1, 1, generator=gen) if c.bias else None
    return x, w, b


GUARD_FRONT_BYTES = 256
GUARD_BACK_ELEMS = 4096


def poisoned_output(c: Config, guarded=False):
    """NaN-filled NHWC output. guarded: it sits inside a larger NaN buffer
    (256 bytes before, 4096 elements after) so stray writes show up;
    returns (output, whole buffer, front guard elements)."""
    dt = TORCH_DTYPE[c.dtype]
    if not guarded:
        return torch.full((c.N, c.OH, c.OW, c.C), float("nan"), dtype=dt, device="cuda")
    front = GUARD_FRONT_BYTES // torch.tensor([], dtype=dt).element_size()
    n = c.out_elems()
    buf = torch.full((front + n + GUARD_BACK_ELEMS,), float("nan"), dtype=dt, device="cuda")
    return buf[front:front + n].view(c.N, c.OH, c.OW, c.C), buf, front


def guard_writes(buf, front, n) -> int:
    """Elements written outside the output (guards no longer NaN)."""
    return int((~torch.isnan(buf[:front])).sum().item() + (~torch.isnan(buf[front + n:])).sum().item())


def torch_conv(c: Config, x_nhwc, w_hwc, b):
    """torch conv2d(groups=C) on the NHWC data viewed as channels_last NCHW.
    Asymmetric padding goes through an explicit F.pad."""
    x = x_nhwc.permute(0, 3, 1, 2)                       # channels_last view
    w = w_hwc.permute(2, 0, 1).unsqueeze(1)              # C x 1 x FH x FW
    pt, pb, pl, pr = c.padding
    if pt == pb and pl == pr:
        pad = (pt, pl)
    else:
        x = F.pad(x, (pl, pr, pt, pb))
        pad = (0, 0)
    return F.conv2d(x, w, b, stride=tuple(c.stride), padding=pad,
                    dilation=tuple(c.dilation), groups=c.C)


def ref_weights(w):
    """The filter as C x 1 x FH x FW in the layout cuDNN gets for a
    channels_last input, made once so no per-call copy is timed."""
    return w.permute(2, 0, 1).unsqueeze(1).contiguous(memory_format=torch.channels_last)


def check_batches(c: Config, full: bool):
    if full or c.N <= 4:
        return list(range(c.N))
    return sorted({0, 1, c.N // 2, c.N - 1})


def sync():
    try:
        torch.cuda.synchronize()
    except RuntimeError as e:
        raise ContextLost(str(e))


def cuda_alive() -> bool:
    try:
        torch.cuda.synchronize()
        return torch.ones(1, device="cuda").item() == 1.0
    except Exception:
        return False


def call_ours(k: Kernels, fn, c: Config, x, w, b, y):
    args = [x.data_ptr(), w.data_ptr()] + ([b.data_ptr()] if b is not None else []) + [y.data_ptr()]
    rc = fn(*args)
    if rc != 0:
        msg = k.message()
        k.rt.dwcTakeLastError()
        raise RuntimeError(f"entry point returned {rc}: {msg}")


# --- phases ----------------------------------------------------------------
def correctness(k: Kernels, c: Config, row: dict, args, gen):
    fn = k.entry(row.get("symbol") or c.symbol, 3 + (1 if c.bias else 0))
    if fn is None:
        row["status"] = ("build failed" if row.get("build_error")
                         else "symbol not found in the loaded kernel libraries")
        return
    x, w, b = make_inputs(c, gen)
    y, ybuf, front = poisoned_output(c, guarded=True)
    sync()
    try:
        call_ours(k, fn, c, x, w, b, y)
    except RuntimeError as e:
        row["status"] = f"call failed: {e}"
        return
    sync()  # raises ContextLost on an illegal access etc.
    row["nan_count"] = int(torch.isnan(y).sum().item())
    row["guard_writes"] = guard_writes(ybuf, front, y.numel())
    idx = check_batches(c, args.full_check)
    row["checked_batches"] = len(idx)
    it = torch.tensor(idx, device="cuda")
    torch.backends.cudnn.benchmark = False
    x64, w64 = x.index_select(0, it).double(), w.double()
    b64 = b.double() if b is not None else None
    ref = torch_conv(c, x64, w64, b64).permute(0, 2, 3, 1)
    ys = y.index_select(0, it).double()
    nref = torch.linalg.vector_norm(ref).item()
    row["rel_err"] = torch.linalg.vector_norm(ys - ref).item() / max(nref, 1e-300)
    row["max_abs_err"] = (ys - ref).abs().max().item()
    # cuDNN's own error in the working precision, for comparison.
    torch.backends.cudnn.benchmark = autotune_for(c, args)
    refnat = torch_conv(c, x.index_select(0, it), w, b).permute(0, 2, 3, 1).double()
    row["ref_rel_err"] = torch.linalg.vector_norm(refnat - ref).item() / max(nref, 1e-300)
    # Distance to torch's own result (0.0: bitwise the same, e.g. the same
    # summation order).
    row["diff_vs_torch"] = torch.linalg.vector_norm(ys - refnat).item() / max(nref, 1e-300)
    ok = (row["nan_count"] == 0 and row["guard_writes"] == 0
          and math.isfinite(row["rel_err"]) and row["rel_err"] <= c.tolerance())
    row["correct"] = bool(ok)
    row["status"] = ("ok" if ok else "NaN/unwritten output" if row["nan_count"]
                     else "wrote outside the output" if row["guard_writes"] else "wrong result")
    del x, w, b, y, ybuf, x64, w64, ref, ys, refnat
    sync()


def autotune_for(c: Config, args) -> bool:
    return args.cudnn_autotune_all or max(c.FH, c.FW) <= 7


def n_buffers(c: Config) -> int:
    """Copies of (input, output) rotated during timing so that the working
    set exceeds L2 at least 3 times (never fewer than 2 copies)."""
    per = max(1, c.bytes_moved())
    return int(min(64, max(2, math.ceil(3 * L2_BYTES / per))))


def time_fn(launch, nbuf, args, deadline):
    """Median of per-run CUDA-event timings. The number of runs adapts to a
    first measured run: enough for ~args.target_s, at least args.min_runs
    (3 when one run is slower than args.max_config_s / args.min_runs), at
    most args.iters, and within the deadline."""
    stream = torch.cuda.current_stream()
    t0 = time.time()
    launch(0)               # warm-up: autotune, module load, allocator
    sync()
    if time.time() - t0 < 1.0:
        launch(1 % nbuf)
        sync()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record(stream)
    launch(0)
    e1.record(stream)
    sync()
    t1 = max(e0.elapsed_time(e1) / 1e3, 1e-7)
    runs = min(args.iters, int(args.target_s / t1))
    runs = min(runs, int(0.8 * (deadline - time.time()) / t1))
    runs = max(runs, args.min_runs)
    if t1 * runs > args.max_config_s:
        runs = max(3, int(args.max_config_s / t1))
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    for i in range(runs):
        starts[i].record(stream)
        launch(i % nbuf)
        ends[i].record(stream)
    sync()
    ts = [s.elapsed_time(e) for s, e in zip(starts, ends)]
    return statistics.median(ts), runs, min(ts), max(ts)


def timing(k: Kernels, c: Config, row: dict, args, gen, deadline):
    fn = k.entry(row.get("symbol") or c.symbol, 3 + (1 if c.bias else 0))
    nbuf = n_buffers(c)
    row["buffers"] = nbuf
    row["working_set_bytes"] = nbuf * c.bytes_moved()
    sets = [make_inputs(c, gen) for _ in range(nbuf)]
    w, b = sets[0][1], sets[0][2]
    xs = [s[0] for s in sets]
    ys = [poisoned_output(c) for _ in range(nbuf)]
    sync()

    if fn is not None and row.get("correct") or (fn is not None and args.time_incorrect):
        def ours(i):
            call_ours(k, fn, c, xs[i], w, b, ys[i])
        try:
            med, runs, lo, hi = time_fn(ours, nbuf, args, deadline)
            row.update(ours_ms=med, ours_runs=runs, ours_min_ms=lo, ours_max_ms=hi)
        except RuntimeError as e:
            row["status"], row["correct"] = f"call failed while timing: {e}", False
        sync()
        # Re-check one output of the timed runs: the same function every time.
        row["nan_after_timing"] = int(torch.isnan(ys[0]).sum().item())
    ys.clear()  # frees the outputs (the closure keeps only the list)

    if time.time() > deadline:
        row["timing"] = "ref skipped: time budget"
        return
    if args.ref_max_f and max(c.FH, c.FW) > args.ref_max_f:
        # Big filters: cuDNN's heuristic choice costs 0.1-1 s per run and
        # its autotuning minutes; compare with the autotuned anchor instead.
        row["timing"] = "ref skipped: F > --ref-max-f (see the anchor)"
        return
    auto = autotune_for(c, args)
    torch.backends.cudnn.benchmark = auto
    row["cudnn_benchmark"] = auto
    row["ref"] = "cudnn-autotuned" if auto else "cudnn-heuristic"
    if c.padding[0] != c.padding[1] or c.padding[2] != c.padding[3]:
        row["ref"] += "+pad"
    wt = ref_weights(w)
    xv = [x.permute(0, 3, 1, 2) for x in xs]
    pt, pb, pl, pr = c.padding
    if pt == pb and pl == pr:
        def ref(i):
            F.conv2d(xv[i], wt, b, stride=tuple(c.stride), padding=(pt, pl),
                     dilation=tuple(c.dilation), groups=c.C)
    else:
        def ref(i):
            F.conv2d(F.pad(xv[i], (pl, pr, pt, pb)), wt, b, stride=tuple(c.stride),
                     padding=(0, 0), dilation=tuple(c.dilation), groups=c.C)
    t0 = time.time()
    med, runs, lo, hi = time_fn(ref, nbuf, args, deadline)
    row.update(ref_ms=med, ref_runs=runs, ref_min_ms=lo, ref_max_ms=hi,
               ref_wall_s=time.time() - t0)
    row["timing"] = "done"
    xs.clear()
    xv.clear()
    sets.clear()
    sync()


def row_getter(rows, anchors, entries):
    """row_for(config): its row in `rows`, created with the static fields
    (floor, anchor, ...) and the manifest's symbol/variant/build error."""
    def row_for(c):
        r = rows.get(c.name)
        if r is None or "floor_ms" not in r:
            base = report.base_row(c, anchors)
            base.update(r or {})
            r = rows[c.name] = base
        e = entries.get(c.name, {})
        for key in ("variant", "build_error", "symbol"):
            if e.get(key):
                r[key] = e[key]
        return r
    return row_for


# --- state (for --resume after a lost context) ------------------------------
def load_state(path):
    if path and os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return {"rows": {}, "in_progress": None, "phase": None, "started": time.time()}


def save_state(path, st):
    if not path:
        return
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(st, f)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description="dwc correctness + timing vs cuDNN")
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--runtime-lib", required=True)
    ap.add_argument("--kernel-lib", action="append", default=[], help="repeatable")
    ap.add_argument("--out", required=True)
    ap.add_argument("--label", default="")
    ap.add_argument("--set", default=None, help="only configs of the manifest from this set")
    ap.add_argument("--only", default="", help="comma-separated name substrings")
    ap.add_argument("--iters", type=int, default=500, help="most timed runs per config")
    ap.add_argument("--min-runs", type=int, default=5)
    ap.add_argument("--target-s", type=float, default=0.75, help="timed seconds per config and side")
    ap.add_argument("--max-config-s", type=float, default=4.0,
                    help="cap on timed seconds per config and side (slow kernels get >= 3 runs)")
    ap.add_argument("--time-budget", type=float, default=420.0,
                    help="seconds from the first start; timing stops after it, correctness does not")
    ap.add_argument("--cudnn-autotune-all", action="store_true",
                    help="cudnn.benchmark=True for every F (default: only F <= 7)")
    ap.add_argument("--full-check", action="store_true", help="check every batch index")
    ap.add_argument("--time-incorrect", action="store_true", help="also time incorrect kernels")
    ap.add_argument("--no-timing", action="store_true")
    ap.add_argument("--ref-max-f", type=int, default=0,
                    help="time cuDNN only for max(FH, FW) <= this (0: always)")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--state", default="", help="state file for --resume")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--report-only", action="store_true",
                    help="write the report from --state without running anything")
    ap.add_argument("--anchors", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "anchors-h200.json"))
    args = ap.parse_args()

    with open(args.manifest) as f:
        man = json.load(f)
    entries = {e["name"]: e for e in man["configs"]}
    cfgs = [config_from_dict(e) for e in man["configs"]]
    if args.set and man.get("set") not in (None, args.set, "all"):
        log(f"warning: manifest holds set '{man.get('set')}', asked for '{args.set}'")
    cfgs = select(cfgs, args.only)
    anchors = report.load_anchors(args.anchors)

    st = load_state(args.state) if (args.resume or args.report_only) else load_state(None)
    deadline = st["started"] + args.time_budget
    rows = st["rows"]
    if args.report_only and st.get("in_progress"):
        name, phase = st["in_progress"], st.get("phase")
        r = rows.setdefault(name, {})
        r["status"] = f"unfinished: {phase} did not complete (time limit or harness error, see harness.log)"
        r["timing"] = f"cut off during {phase}"
    elif args.resume and st.get("in_progress"):
        name, phase = st["in_progress"], st.get("phase")
        r = rows.setdefault(name, {})
        why = st.get("last_error") or f"process exited with rc {os.environ.get('DWC_LAST_RC', '?')}"
        r["status"] = f"crashed during {phase}: {why}"
        r["correct"] = False
        r["timing"] = f"skipped: crashed during {phase}"
        r["crashed_in"] = phase
        log(f"resume: {name} crashed during {phase} ({why})")
        st["last_error"] = ""
    st["in_progress"] = None
    if not args.report_only:
        save_state(args.state, st)
    if args.report_only:
        return write_report(args, man, cfgs, rows, anchors, entries, None)

    torch.cuda.init()
    torch.zeros(1, device="cuda")
    stream = torch.cuda.Stream()
    torch.cuda.set_stream(stream)
    k = Kernels(args.runtime_lib, args.kernel_lib)
    k.check(k.rt.dwcInit(), "dwcInit")
    k.check(k.rt.dwcSetStream(ctypes.c_void_p(stream.cuda_stream)), "dwcSetStream")
    gen = torch.Generator(device="cuda")
    gen.manual_seed(args.seed + len(rows))
    log(f"{torch.cuda.get_device_name()} torch {torch.__version__} cudnn {torch.backends.cudnn.version()}"
        f" | {len(cfgs)} configs | budget left {deadline - time.time():.0f} s")

    row_for = row_getter(rows, anchors, entries)

    def run_phase(phase, fn):
        for c in cfgs:
            r = row_for(c)
            if r.get("crashed_in") or r.get(phase + "_done"):
                continue
            st["in_progress"], st["phase"] = c.name, phase
            save_state(args.state, st)
            t0 = time.time()
            try:
                fn(c, r)
            except ContextLost as e:
                st["last_error"] = str(e).splitlines()[0][:300]
                save_state(args.state, st)
                log(f"{c.name}: CUDA context lost during {phase}: {st['last_error']}")
                sys.exit(EXIT_CONTEXT_LOST)
            except torch.cuda.OutOfMemoryError as e:
                r["status" if phase == "check" else "timing"] = f"out of memory in {phase}"
                log(f"{c.name}: OOM in {phase}: {str(e)[:200]}")
                torch.cuda.empty_cache()
            except Exception as e:  # record, then go on if CUDA still works
                msg = f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"
                log(f"{c.name}: error in {phase}: {msg}")
                if phase == "check":
                    r["status"], r["correct"] = f"error: {msg}", False
                else:
                    r["timing"] = f"error: {msg}"
                if not cuda_alive():
                    st["last_error"] = msg
                    save_state(args.state, st)
                    log("CUDA context lost; exiting for a resume")
                    sys.exit(EXIT_CONTEXT_LOST)
            r[phase + "_done"] = True
            r[phase + "_wall_s"] = time.time() - t0
            st["in_progress"] = None
            save_state(args.state, st)
            torch.cuda.empty_cache()
            if phase == "check":
                log(f"{c.name}: {r['status']} rel_err={r.get('rel_err')} ref_rel_err={r.get('ref_rel_err')}"
                    f" ({time.time() - t0:.1f} s)")
            else:
                log(f"{c.name}: ours {r.get('ours_ms')} ms ({r.get('ours_runs')} runs), "
                    f"{r.get('ref')} {r.get('ref_ms')} ms ({r.get('ref_runs')} runs), {r.get('timing')}"
                    f" ({time.time() - t0:.1f} s)")

    run_phase("check", lambda c, r: correctness(k, c, r, args, gen))

    def timed(c, r):
        if args.no_timing:
            r["timing"] = "skipped: --no-timing"
        elif time.time() > deadline:
            r["timing"] = "skipped: time budget"
        else:
            timing(k, c, r, args, gen, deadline)
    run_phase("time", timed)

    return write_report(args, man, cfgs, rows, anchors, entries, k)


def gpu_name():
    try:
        return torch.cuda.get_device_name()
    except Exception:  # report-only on a machine without a GPU
        return os.environ.get("DWC_GPU_NAME", "unknown")


def write_report(args, man, cfgs, rows, anchors, entries, k):
    row_for = row_getter(rows, anchors, entries)
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "gpu": gpu_name(),
        "commit": os.environ.get("DWC_COMMIT") or man.get("commit"),
        "checkout_commit": os.environ.get("DWC_CHECKOUT_COMMIT") or None,
        "command": os.environ.get("DWC_BENCH_COMMAND") or " ".join(sys.argv),
        "torch": torch.__version__,
        "cudnn": torch.backends.cudnn.version(),
        "label": args.label,
        "set": man.get("set"),
        "dwc_aot": man.get("dwc_aot"),
        "cudnn_policy": "benchmark=True for F<=7" + ("" if not args.cudnn_autotune_all else " and all F (--cudnn-autotune-all)")
                        + ", benchmark=False (heuristic) otherwise",
        "allow_tf32_cudnn": torch.backends.cudnn.allow_tf32,
        "timing": {"min_runs": args.min_runs, "max_runs": args.iters, "target_s": args.target_s,
                   "time_budget_s": args.time_budget, "statistic": "median of per-run CUDA events"},
        "check": {"reference": "torch conv2d groups=C in float64 on the GPU",
                  "batches": "all" if args.full_check else "{0,1,N/2,N-1}"},
        "library_errors": k.lib_errors if k else None,
    }
    ordered = [row_for(c) for c in cfgs]
    stem = (meta["date"][:10] + "-" + (args.label or "run")).replace("/", "_")
    doc = report.write_all(ordered, meta, args.out, stem)
    print(report.short_table(doc), flush=True)
    return 0 if doc["summary"]["correct"] == doc["summary"]["configs"] else EXIT_SOME_INCORRECT


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # Everything is written: skip interpreter/library teardown, so a crash
    # in some library's exit-time destructors cannot turn a finished run
    # into a failed one.
    os._exit(code)
