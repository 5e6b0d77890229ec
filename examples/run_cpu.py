#!/usr/bin/env python3
"""Runs the dwc examples on the CPU reference path and prints checksums.

For every example (a tensor-level func.func in examples/*.mlir) this script
  * appends a @main that fills each argument with a cheap deterministic
    pattern, sin(0.37 * linear_index + 0.5 * argument_number), computed in
    MLIR (no large constants),
  * calls the example between two rtclock() readings,
  * reduces each result to its sum and sum of absolute values (in f64) and
    prints them bit-exactly (as i64 bits, decoded here),
  * lowers the module with `dwc-opt --dwc-to-llvm-cpu` and runs it with
    mlir-runner,
and prints one line per result plus the lowering, compute and total times.

Usage: examples/run_cpu.py [BUILD_DIR] [--example NAME] [--runner PATH]
       [--libs LIB1,LIB2] [--json FILE]   (BUILD_DIR defaults to build/)
--json also writes the checksums and times to FILE (read by run_gpu.py).
Plain Python (no numpy).
"""

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = ["convnext_block", "replknet_dw31"]
LLVM_PREFIX = "/usr/lib/llvm-22"


def parse_signature(text, name):
    """Returns (argument types, result types) of func.func @name."""
    m = re.search(r"func\.func\s+@%s\s*\((.*?)\)\s*->\s*(\(.*?\)|tensor<[^>]*>)"
                  % re.escape(name), text, re.S)
    if not m:
        raise SystemExit("no func.func @%s with tensor results found" % name)
    args = re.findall(r"tensor<[^>]*>", m.group(1))
    results = re.findall(r"tensor<[^>]*>", m.group(2))
    return args, results


def shape_and_type(tensor_type):
    body = tensor_type[len("tensor<"):-1]
    parts = body.split("x")
    return [int(p) for p in parts[:-1]], parts[-1]


def ident(rank):
    d = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (d, d)


def fill_ir(var, ttype, argno):
    """A linalg.generic filling `ttype` with sin(0.37 * linear + 0.5 * argno)."""
    shape, elt = shape_and_type(ttype)
    rank = len(shape)
    lines = ["  %%%s_e = tensor.empty() : %s" % (var, ttype),
             "  %%%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} "
             "outs(%%%s_e : %s) {" % (var, ident(rank),
                                      ", ".join(['"parallel"'] * rank), var, ttype),
             "  ^bb0(%%out: %s):" % elt]
    lin = None
    for d in range(rank):
        lines.append("    %%i%d = linalg.index %d : index" % (d, d))
        if lin is None:
            lin = "%i0"
        else:
            lines.append("    %%s%d = arith.constant %d : index" % (d, shape[d]))
            lines.append("    %%m%d = arith.muli %s, %%s%d : index" % (d, lin, d))
            lines.append("    %%l%d = arith.addi %%m%d, %%i%d : index" % (d, d, d))
            lin = "%%l%d" % d
    lines += [
        "    %%li = arith.index_cast %s : index to i64" % lin,
        "    %lf = arith.sitofp %li : i64 to f32",
        "    %k = arith.constant 0.37 : f32",
        "    %%o = arith.constant %f : f32" % (0.5 * argno),
        "    %a = arith.mulf %lf, %k : f32",
        "    %b = arith.addf %a, %o : f32",
        "    %v = math.sin %b : f32",
    ]
    if elt != "f32":
        lines.append("    %%r = arith.truncf %%v : f32 to %s" % elt)
        lines.append("    linalg.yield %%r : %s" % elt)
    else:
        lines.append("    linalg.yield %v : f32")
    lines.append("  } -> %s" % ttype)
    return lines


def checksum_ir(var, ttype, k):
    """Sum and sum of |x| (f64) of a result, printed as i64 bits."""
    shape, elt = shape_and_type(ttype)
    rank = len(shape)
    d = ", ".join("d%d" % i for i in range(rank))
    scalar = "affine_map<(%s) -> ()>" % d
    ext = ("    %%x = arith.extf %%in : %s to f64" % elt)
    return [
        "  %%z%d = arith.constant 0.0 : f64" % k,
        "  %%t%d = tensor.empty() : tensor<f64>" % k,
        "  %%f%d = linalg.fill ins(%%z%d : f64) outs(%%t%d : tensor<f64>) -> tensor<f64>" % (k, k, k),
        "  %%cs%d:2 = linalg.generic {indexing_maps = [%s, %s, %s], iterator_types = [%s]} "
        "ins(%%%s : %s) outs(%%f%d, %%f%d : tensor<f64>, tensor<f64>) {" % (
            k, ident(rank), scalar, scalar, ", ".join(['"reduction"'] * rank),
            var, ttype, k, k),
        "  ^bb0(%%in: %s, %%s: f64, %%sa: f64):" % elt,
        ext,
        "    %ax = math.absf %x : f64",
        "    %s1 = arith.addf %s, %x : f64",
        "    %s2 = arith.addf %sa, %ax : f64",
        "    linalg.yield %s1, %s2 : f64, f64",
        "  } -> (tensor<f64>, tensor<f64>)",
        "  %%sum%d = tensor.extract %%cs%d#0[] : tensor<f64>" % (k, k),
        "  %%abs%d = tensor.extract %%cs%d#1[] : tensor<f64>" % (k, k),
        "  %%sumb%d = arith.bitcast %%sum%d : f64 to i64" % (k, k),
        "  %%absb%d = arith.bitcast %%abs%d : f64 to i64" % (k, k),
        "  call @printI64(%%sumb%d) : (i64) -> ()" % k,
        "  call @printComma() : () -> ()",
        "  call @printI64(%%absb%d) : (i64) -> ()" % k,
        "  call @printNewline() : () -> ()",
    ]


def wrapper(name, args, results):
    lines = ["",
             "// ---- generated by run_cpu.py ----",
             "func.func private @printI64(i64)",
             "func.func private @printF64(f64)",
             "func.func private @printComma()",
             "func.func private @printNewline()",
             "func.func private @rtclock() -> f64",
             "func.func @main() {"]
    for i, t in enumerate(args):
        lines += fill_ir("arg%d" % i, t, i)
    outs = ", ".join("%%res%d" % i for i in range(len(results)))
    lines.append("  %start = call @rtclock() : () -> f64")
    call = "call @%s(%s) : (%s) -> (%s)" % (
        name, ", ".join("%%arg%d" % i for i in range(len(args))),
        ", ".join(args), ", ".join(results))
    if len(results) == 1:
        lines.append("  %%res0 = %s" % call)
    else:
        lines.append("  %%res:%d = %s" % (len(results), call))
    lines.append("  %stop = call @rtclock() : () -> f64")
    for i, t in enumerate(results):
        var = "res0" if len(results) == 1 else "res#%d" % i
        lines += checksum_ir(var, t, i)
    lines += ["  %elapsed = arith.subf %stop, %start : f64",
              "  %eb = arith.bitcast %elapsed : f64 to i64",
              "  call @printI64(%eb) : (i64) -> ()",
              "  call @printNewline() : () -> ()",
              "  return", "}"]
    return "\n".join(lines) + "\n"


def as_f64(bits):
    return struct.unpack("<d", struct.pack("<q", bits))[0]


def find_runner(explicit):
    if explicit:
        return explicit
    for cand in (os.path.join(LLVM_PREFIX, "bin", "mlir-runner"),
                 shutil.which("mlir-runner") or "", shutil.which("mlir-runner-22") or ""):
        if cand and os.path.exists(cand):
            return cand
    raise SystemExit("mlir-runner not found; pass --runner")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build_dir", nargs="?", default="build",
                    help="build directory holding bin/dwc-opt (default: build)")
    ap.add_argument("--example", action="append", choices=EXAMPLES,
                    help="run only this example (repeatable)")
    ap.add_argument("--runner", help="mlir-runner executable")
    ap.add_argument("--libs", help="comma-separated runner utility libraries")
    ap.add_argument("--keep", help="directory to keep the generated modules in")
    ap.add_argument("--json", help="also write the checksums and times here")
    args = ap.parse_args()

    dwc_opt = os.path.join(args.build_dir, "bin", "dwc-opt")
    if not os.path.exists(dwc_opt):
        raise SystemExit("%s not found (build dwc-opt first)" % dwc_opt)
    runner = find_runner(args.runner)
    libs = args.libs or ",".join(
        os.path.join(LLVM_PREFIX, "lib", l)
        for l in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))

    status = 0
    report = {}
    for name in args.example or EXAMPLES:
        path = os.path.join(HERE, name + ".mlir")
        with open(path) as fh:
            text = fh.read()
        fargs, fresults = parse_signature(text, name)
        module = text + wrapper(name, fargs, fresults)
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(args.keep or tmp, name + ".main.mlir")
            with open(src, "w") as fh:
                fh.write(module)
            t0 = time.time()
            low = subprocess.run([dwc_opt, "--dwc-to-llvm-cpu", src],
                                 capture_output=True, text=True)
            t1 = time.time()
            if low.returncode != 0:
                print("%s: lowering failed\n%s" % (name, low.stderr[-3000:]))
                status = 1
                continue
            run = subprocess.run([runner, "-e", "main", "-entry-point-result=void",
                                  "-O3", "--shared-libs=" + libs],
                                 input=low.stdout, capture_output=True, text=True)
            t2 = time.time()
        if run.returncode != 0:
            print("%s: mlir-runner failed\n%s" % (name, run.stderr[-3000:]))
            status = 1
            continue
        rows = [l.strip() for l in run.stdout.splitlines() if l.strip()]
        print("%s (%s -> %s)" % (name, ", ".join(fargs), ", ".join(fresults)))
        entry = {"args": fargs, "results": []}
        for i, t in enumerate(fresults):
            s, sa = (as_f64(int(v)) for v in rows[i].split(","))
            print("  result %d %s: sum = %.9g  sum|x| = %.9g" % (i, t, s, sa))
            entry["results"].append({"type": t, "sum": s, "abs": sa})
        compute = as_f64(int(rows[len(fresults)]))
        print("  time: lower %.2f s, run %.2f s (compute %.3f s)" %
              (t1 - t0, t2 - t1, compute))
        entry.update(lower_s=t1 - t0, run_s=t2 - t1, compute_s=compute)
        report[name] = entry
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(report, fh, indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main())
