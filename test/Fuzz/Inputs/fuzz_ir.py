#!/usr/bin/env python3
"""Seeded malformed-IR fuzzer for the dwc tools.

Generates mutants of valid dwc programs (every op; attributes set to zero,
negative, huge or wrongly sized values; dwc.kernel configurations and
#dwc.target attributes with such fields; shapes with zero, one, huge or
mismatched dimensions; other element types and ranks; token deletions,
duplications and truncations) and feeds them, many per process through
-split-input-file, to dwc-opt: parsing and verification, the CPU pipeline,
and the GPU pipeline to PTX. Functions sometimes return their result twice
or return an argument, or are named like the runtime's entry points; mode
'options' runs the GPU pipeline with random option strings (unknown PTX
versions, toolkit paths that are none, bad chips). A run passes when every
process exits with 0 or 1 (a diagnostic) within the time limit, and with 1
whenever it printed an error: a signal (abort, segfault, SIGFPE), an 'LLVM
ERROR', 'PLEASE submit a bug report', a timeout or an exit status of 0 after
an error is a failure, reported with the input that caused it (bisected to
one split).
"""
import argparse
import os
import glob
import random
import re
import subprocess
import sys
import tempfile

DW = ("%r = dwc.depthwise_conv2d ins(%x, %w : tensor<{x}x{t}>, tensor<{f}x{t}>) "
      "outs(%i : tensor<{y}x{t}>) strides = [{s0}, {s1}] dilations = [{d0}, {d1}] "
      "padding = [{p0}, {p1}, {p2}, {p3}] -> tensor<{y}x{t}>")
BWD_DATA = ("%r = dwc.depthwise_conv2d_backward_data ins(%dy, %w : tensor<{y}x{t}>, "
            "tensor<{f}x{t}>) outs(%i : tensor<{x}x{t}>) strides = [{s0}, {s1}] "
            "dilations = [{d0}, {d1}] padding = [{p0}, {p1}, {p2}, {p3}] -> tensor<{x}x{t}>")
BWD_FILTER = ("%r = dwc.depthwise_conv2d_backward_filter ins(%x, %dy : tensor<{x}x{t}>, "
              "tensor<{y}x{t}>) outs(%i : tensor<{f}x{t}>) strides = [{s0}, {s1}] "
              "dilations = [{d0}, {d1}] padding = [{p0}, {p1}, {p2}, {p3}] -> tensor<{f}x{t}>")
POOL = ("%r = dwc.pool2d {kind} ins(%x : tensor<{x}x{t}>) outs(%i : tensor<{y}x{t}>) "
        "window = [{k0}, {k1}] strides = [{s0}, {s1}] padding = [{p0}, {p1}, {p2}, {p3}]"
        "{flags} -> tensor<{y}x{t}>")
POOL_BWD = ("%r = dwc.pool2d_backward {kind} ins(%x, %dy : tensor<{x}x{t}>, tensor<{y}x{t}>) "
            "outs(%i : tensor<{x}x{t}>) window = [{k0}, {k1}] strides = [{s0}, {s1}] "
            "padding = [{p0}, {p1}, {p2}, {p3}]{flags} -> tensor<{x}x{t}>")
GAP = ("%r = dwc.global_avg_pool ins(%x : tensor<{x}x{t}>) outs(%i : tensor<{g}x{t}>) "
       "-> tensor<{g}x{t}>")
IM2WIN = ("%r = dwc.im2win ins(%x : tensor<{x}x{t}>) outs(%i : tensor<{iw}x{t}>) "
          "window = [{k0}, {k1}] strides = [{s0}, {s1}] dilations = [{d0}, {d1}] "
          "padding = [{p0}, {p1}, {p2}, {p3}] -> tensor<{iw}x{t}>")
CONV = ("%r = dwc.conv2d ins(%x, %w : tensor<{x}x{t}>, tensor<{cf}x{t}>) "
        "outs(%i : tensor<{cy}x{t}>) strides = [{s0}, {s1}] dilations = [{d0}, {d1}] "
        "padding = [{p0}, {p1}, {p2}, {p3}] -> tensor<{cy}x{t}>")
CONV_POOL = ("%r = dwc.depthwise_conv2d_pool2d {kind} ins(%x, %w : tensor<{x}x{t}>, "
             "tensor<{f}x{t}>) outs(%i : tensor<{y}x{t}>) strides = [{s0}, {s1}] "
             "dilations = [{d0}, {d1}] padding = [{p0}, {p1}, {p2}, {p3}] window = [{k0}, {k1}] "
             "pool_strides = [{s0}, {s1}] pool_padding = [{p0}, {p1}, {p2}, {p3}]{flags} "
             "-> tensor<{y}x{t}>")
TEMPLATES = [DW, BWD_DATA, BWD_FILTER, POOL, POOL_BWD, GAP, IM2WIN, CONV, CONV_POOL]

INTS = [0, 1, 2, 3, -1, 7, 16, 64, 2**31 - 1, 2**31, 2**32 + 1, 2**62,
        2**62 + 1, 2**63 - 1, 4611686018427387905]
TYPES = ["f32", "f16", "bf16", "f64", "i32", "i8", "f8E4M3FN", "index"]


def dims(rng, rank=4):
    out = []
    for _ in range(rank):
        r = rng.random()
        out.append(rng.choice(INTS) if r < 0.15 else rng.randint(1, 12))
    return "x".join(str(d) for d in out)


def value(rng):
    return rng.choice(INTS) if rng.random() < 0.3 else rng.randint(0, 4)


def instantiate(rng, template):
    """A dwc op with random (mostly plausible, sometimes hostile) values."""
    n, h, w, c = rng.randint(1, 3), rng.randint(1, 12), rng.randint(1, 12), rng.randint(1, 17)
    fh, fw = rng.randint(1, 7), rng.randint(1, 7)
    oc = rng.randint(1, 9)
    fields = dict(
        x=dims(rng) if rng.random() < 0.2 else "%dx%dx%dx%d" % (n, h, w, c),
        y=dims(rng) if rng.random() < 0.5 else "%dx%dx%dx%d" % (n, h, w, c),
        f=dims(rng, rng.choice([3, 3, 3, 2, 4])) if rng.random() < 0.2 else "%dx%dx%d" % (fh, fw, c),
        g="%dx1x1x%d" % (n, c) if rng.random() < 0.8 else dims(rng),
        iw=dims(rng, 5),
        cf="%dx%dx%dx%d" % (fh, fw, c, oc) if rng.random() < 0.7 else dims(rng),
        cy=dims(rng),
        t=rng.choice(TYPES[:3]) if rng.random() < 0.85 else rng.choice(TYPES),
        kind=rng.choice(["max", "avg", "max", "avg", "sum", ""]),
        flags=rng.choice(["", "", " ceil_mode", " count_include_pad",
                          " ceil_mode count_include_pad", " acc = f16",
                          " acc = f64", " activation = relu6"]))
    for k in ["s0", "s1", "d0", "d1", "k0", "k1", "p0", "p1", "p2", "p3"]:
        fields[k] = value(rng)
    for k in ["s0", "s1", "d0", "d1", "k0", "k1"]:
        if rng.random() < 0.7:
            fields[k] = rng.randint(1, 3)
    return template.format(**fields)


def operand_types(op):
    """The %x/%w/%dy/%i operands and their types, read back from the op."""
    import re
    types = {}
    for names, tys in re.findall(r"(?:ins|outs)\(([^:]*):([^)]*)\)", op):
        for name, ty in zip(names.split(","), split_types(tys)):
            types[name.strip()] = ty.strip()
    return types


def split_types(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def conv_out(i, f, s, d, p0, p1):
    span = i + p0 + p1 - d * (f - 1) - 1
    return span // s + 1 if span >= 0 else 0


def pool_out(i, k, s, p0, p1, ceil):
    span = i + p0 + p1 - k
    if span < 0:
        return 0
    out = (-(-span // s) if ceil else span // s) + 1
    if ceil and (out - 1) * s >= i + p0:
        out -= 1
    return out


def edgy(rng, lo, hi, extremes):
    """Mostly [lo, hi], sometimes one of `extremes` (unusual but valid)."""
    return rng.choice(extremes) if rng.random() < 0.2 else rng.randint(lo, hi)


def consistent_op(rng):
    """A verifiable op with unusual values (wide strides, big dilations and
    padding, C = 1 or odd, W < filter, long filters) and the output shape
    its attributes imply, so that the pipelines' lowerings run."""
    n, h, w = edgy(rng, 1, 4, [1, 64]), edgy(rng, 1, 16, [1, 57, 200]), edgy(rng, 1, 16, [1, 57, 200])
    c = edgy(rng, 1, 24, [1, 3, 72, 129])
    t = rng.choice(["f32", "f16", "bf16", "f32"])
    # (Strides and windows that drive the code size of the unrolled kernels.)
    st = (edgy(rng, 1, 3, [7, 9, 64, 1000, 4096, 70000]),
          edgy(rng, 1, 3, [7, 9, 64, 1000, 4096, 70000]))
    kind = rng.randrange(6)
    if kind < 3 or kind == 5:
        fh, fw = edgy(rng, 1, 7, [13, 31, 51]), edgy(rng, 1, 7, [13, 31, 51])
        dl = (edgy(rng, 1, 2, [9, 100]), edgy(rng, 1, 2, [9, 100]))
        pad = [edgy(rng, 0, 3, [30, 60]) for _ in range(4)]
        oh = conv_out(h, fh, st[0], dl[0], pad[0], pad[1])
        ow = conv_out(w, fw, st[1], dl[1], pad[2], pad[3])
        if oh < 1 or ow < 1:
            return None
        f = dict(x="%dx%dx%dx%d" % (n, h, w, c), y="%dx%dx%dx%d" % (n, oh, ow, c),
                 f="%dx%dx%d" % (fh, fw, c), t=t, s0=st[0], s1=st[1], d0=dl[0],
                 d1=dl[1], p0=pad[0], p1=pad[1], p2=pad[2], p3=pad[3])
        if kind == 5:
            oc = edgy(rng, 1, 9, [1, 33])
            f.update(cf="%dx%dx%dx%d" % (fh, fw, c, oc), cy="%dx%dx%dx%d" % (n, oh, ow, oc))
            return CONV.format(**f)
        return [DW, BWD_DATA, BWD_FILTER][kind].format(**f)
    if kind == 4:
        return GAP.format(x="%dx%dx%dx%d" % (n, h, w, c), g="%dx1x1x%d" % (n, c), t=t)
    k = (edgy(rng, 1, 4, [7, 16, 28, 57]), edgy(rng, 1, 4, [7, 16, 28, 57, 200]))
    pad = [rng.randint(0, k[0] - 1), rng.randint(0, k[0] - 1),
           rng.randint(0, k[1] - 1), rng.randint(0, k[1] - 1)]
    ceil = rng.random() < 0.3
    oh = pool_out(h, k[0], st[0], pad[0], pad[1], ceil)
    ow = pool_out(w, k[1], st[1], pad[2], pad[3], ceil)
    if oh < 1 or ow < 1 or k[0] > h + pad[0] + pad[1] or k[1] > w + pad[2] + pad[3]:
        return None
    pk = rng.choice(["max", "avg"])
    flags = (" ceil_mode" if ceil else "") + (
        " count_include_pad" if pk == "avg" and rng.random() < 0.5 else "")
    f = dict(x="%dx%dx%dx%d" % (n, h, w, c), y="%dx%dx%dx%d" % (n, oh, ow, c), t=t,
             kind=pk, flags=flags, k0=k[0], k1=k[1], s0=st[0], s1=st[1],
             p0=pad[0], p1=pad[1], p2=pad[2], p3=pad[3])
    return rng.choice([POOL, POOL_BWD]).format(**f)


HUGE = [0, -1, 3, 9, 33, 129, 2**31, 2**62, 2**63 - 1]


CONFIG_TD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                         "include", "dwc", "Dialect", "Dwc", "IR")


def config_families():
    """(mnemonic, field names) of every kernel configuration attribute, read
    from the ODS files so that new families are fuzzed without a change here."""
    families = []
    for td in [os.path.join(CONFIG_TD, "DwcAttrs.td")] + sorted(
            glob.glob(os.path.join(CONFIG_TD, "Configs", "*.td"))):
        text = open(td).read()
        for m in re.finditer(r'Dwc_KernelConfig<"\w+",\s*"(\w+)">', text):
            body = text[m.end():].split("\ndef ", 1)[0]
            params = re.search(r"let parameters = \(ins(.*?)\);", body, re.S)
            names = re.findall(r"\$(\w+)", params.group(1)) if params else []
            families.append((m.group(1), names))
    return families


def kernel_config(rng):
    """A dwc.kernel value: a configuration of some family with fields small,
    zero, negative or huge, or not a configuration at all."""
    field = lambda: rng.choice([1, 2, 4, 8] * 3 + HUGE)
    fields = lambda names: ", ".join("%s = %d" % (n, field()) for n in names
                                     if rng.random() < 0.7)
    family, names = rng.choice(config_families())
    config = "#dwc." + family + ("<%s>" % fields(names) if names else "")
    return rng.choice([config] * 6 + [
        "3", '"strided"', "#dwc.target<chip = \"sm_90\">", "#dwc.strided_forward<rows = 1",
    ])


def target_attr(rng):
    """A #dwc.target with plausible, zero, negative or huge fields."""
    v = lambda good: rng.choice([good] * 4 + HUGE)
    return ('#dwc.target<chip = "%s", features = "%s", sm_count = %d, '
            "shared_memory_per_block = %d, shared_memory_per_sm = %d, "
            "threads_per_sm = %d, registers_per_sm = %d>" % (
                rng.choice(["sm_90", "sm_90a", "sm_80", "sm_75", "sm_9", "", "sm_90x"]),
                rng.choice(["+ptx80", "+ptx86", "ptx80", "", "+ptx9999"]),
                v(132), v(232448), v(233472), v(2048), v(65536)))


def with_configs(rng, text):
    """`text` with a random dwc.kernel on its op and, sometimes, the function
    in a module carrying a random dwc.target."""
    if rng.random() < 0.3 and " -> " in text:
        head, tail = text.rsplit(" -> ", 1)
        if "\n  return" in tail or "return" in tail:
            line_end = text.index("\n  return") if "\n  return" in text else -1
            if line_end > 0:
                op_line = text[:line_end]
                k = op_line.rfind(" -> ")
                if k > 0:
                    text = (op_line[:k] + " {dwc.kernel = %s}" % kernel_config(rng)
                            + op_line[k:] + text[line_end:])
    if rng.random() < 0.15:
        text = "module attributes {dwc.target = %s} {\n%s}\n" % (target_attr(rng), text)
    return text


# Names of the runtime's entry points and the generated host code's symbols
# (refused), and look-alikes (accepted).
RESERVED = ["mgpuLaunchKernel", "mgpuModuleLoad", "mgpuStreamCreate",
            "mgpuModuleGetFunction", "mgpuMemcpy", "dwcTakeLastError",
            "dwcInit", "_mlir_ciface_f", "malloc", "free", "dwc_f", "mgp"]


def results(rng, types, result):
    """The returned values and their types: the result, sometimes twice or
    three times, sometimes with an argument."""
    values, tys = ["%r"], [result]
    r = rng.random()
    if r < 0.1:
        copies = rng.randint(2, 3)
        values, tys = ["%r"] * copies, [result] * copies
    elif r < 0.15 and types:
        arg = rng.choice([n for n in types if n.startswith("%")] or ["%r"])
        values.append(arg)
        tys.append(types.get(arg, result))
    return values, tys


def function(rng, i, consistent=0.5):
    op = None
    if rng.random() < consistent:
        while op is None:
            op = consistent_op(rng)
    else:
        op = instantiate(rng, rng.choice(TEMPLATES))
    types = operand_types(op)
    args = ", ".join("%s: %s" % (n, t) for n, t in types.items() if n.startswith("%"))
    result = op.rsplit("->", 1)[-1].strip()
    values, tys = results(rng, types, result)
    name = rng.choice(["f%d" % i, "f%d" % i, '"conv-%d"' % i, '"a.b%d"' % i]
                      + [rng.choice(RESERVED)] * (rng.random() < 0.05))
    text = "func.func @%s(%s) -> (%s) {\n  %s\n  return %s : %s\n}\n" % (
        name, args, ", ".join(tys), op, ", ".join(values), ", ".join(tys))
    return mutate(rng, with_configs(rng, text))


def mutate(rng, text):
    r = rng.random()
    if r < 0.6:
        return text
    tokens = text.split(" ")
    k = rng.randrange(len(tokens))
    if r < 0.75:
        del tokens[k]
    elif r < 0.85:
        tokens.insert(k, tokens[rng.randrange(len(tokens))])
    elif r < 0.93:
        return text[:rng.randrange(len(text))]
    else:
        tokens[k] = rng.choice(["[", "]", "<", ">", "(", ")", "0", "-1", "x",
                                "%x", "dwc.pool2d", "tensor<1xf32>", "{", "}"])
    return " ".join(tokens)


MODES = {
    "verify": [],
    "cpu": ["--dwc-to-llvm-cpu"],
    "gpu": ["--dwc-to-nvvm=format=isa"],
    "options": None,  # random_options()
}


def random_options(rng):
    """A --dwc-to-nvvm option string with plausible and hostile values."""
    pick = lambda good, bad: rng.choice(good * 3 + bad)
    opts = []
    if rng.random() < 0.7:
        opts.append("chip=" + pick(["sm_90", "sm_90a", "sm_80", "sm_100"],
                                   ["sm_91", "", "sm_80a", "90"]))
    if rng.random() < 0.7:
        opts.append("features=" + pick(
            ["+ptx80", "+ptx86", "+ptx88"],
            ["+ptx999", "+ptx79", "+ptx89", "+ptx100", "+ptx0", "+ptx", "ptx80",
             "+ptx8a", "+ptx+80", "+ptx80,+ptx81"]))
    if rng.random() < 0.3:
        opts.append("toolkit=" + rng.choice(["/nonexistent", "/tmp", "/", ""]))
    if rng.random() < 0.3:
        opts.append("opt-level=" + rng.choice(["0", "3", "-1", "4", "x"]))
    if rng.random() < 0.3:
        opts.append("sm-count=" + rng.choice(["0", "1", "132", "-1", "1025"]))
    opts.append("format=isa")
    return ["--dwc-to-nvvm=" + " ".join(opts)]
CRASH_MARKS = ("LLVM ERROR", "PLEASE submit a bug report", "Stack dump",
               "Assertion", "UNREACHABLE")


def run_batch(dwc_opt, splits, mode, timeout):
    """Runs one process over `splits` (`mode`: a MODES key or an argument
    list); returns None or a failure reason."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as fh:
        fh.write("\n// -----\n".join(splits))
        path = fh.name
    extra = MODES[mode] if isinstance(mode, str) else mode
    try:
        p = subprocess.run([dwc_opt, path, "-split-input-file", "-o", os.devnull]
                           + extra, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout after %d s" % timeout
    finally:
        os.unlink(path)
    if p.returncode not in (0, 1):
        return "exit %d" % p.returncode
    for mark in CRASH_MARKS:
        if mark in p.stderr:
            return mark
    if p.returncode == 0 and "error:" in p.stderr:
        return "exit 0 after an error"
    return None


def bisect(dwc_opt, splits, mode, timeout):
    """The smallest failing single split (the batch failed as a whole)."""
    for s in splits:
        why = run_batch(dwc_opt, [s], mode, timeout)
        if why:
            return s, why
    return None, "not reproducible one split at a time"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dwc-opt", default="dwc-opt")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--mode", choices=sorted(MODES), default="verify")
    ap.add_argument("--timeout", type=int, default=120)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    inputs = [function(rng, i) for i in range(args.count)]
    crashes = hangs = silent = 0
    for b in range(0, len(inputs), args.batch):
        batch = inputs[b:b + args.batch]
        mode = random_options(rng) if args.mode == "options" else args.mode
        why = run_batch(args.dwc_opt, batch, mode, args.timeout * 2)
        if not why:
            continue
        split, why = bisect(args.dwc_opt, batch, mode, args.timeout)
        hangs += why.startswith("timeout")
        silent += why.startswith("exit 0")
        crashes += not why.startswith(("timeout", "exit 0"))
        print("FAIL (%s) on:\n%s%s" % (why, split, "" if isinstance(mode, str)
                                        else "\n(options: %s)" % mode))
    print("fuzz %s seed %d: %d inputs, %d crashes, %d hangs, %d exit-0-after-error" %
          (args.mode, args.seed, len(inputs), crashes, hangs, silent))
    return 1 if crashes or hangs or silent else 0


if __name__ == "__main__":
    sys.exit(main())
