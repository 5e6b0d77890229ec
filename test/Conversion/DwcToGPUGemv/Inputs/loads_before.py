"""Reads dwc-opt output (split-input-file chunks) and prints, per function,
how many input loads (%arg0) its kernel issues before the first use of an
input: the first vector.fma for f32 tiles, the first arith.extf of an input
vector for 16-bit ones (filter widenings follow filter loads, %arg1), and
whether it carries a register budget (dwc.max_registers)."""
import re
import sys

text = sys.stdin.read()
for chunk in text.split("// -----"):
    m = re.search(r"func\.func @(\w+)", chunk)
    if not m:
        continue
    loads, seen_use, input_vals = 0, False, set()
    for line in chunk.splitlines():
        d = re.match(r"\s*(%[\w#]+) = vector\.load %arg0", line)
        if d and not seen_use:
            loads += 1
        if d:
            input_vals.add(d.group(1))
        if "vector.fma" in line:
            seen_use = True
        e = re.search(r"arith\.extf (%[\w#]+)", line)
        # The filter's loads and widenings come first: a widening after the
        # first input load is an input's (of its selected words).
        if e and input_vals:
            seen_use = True
    print(f"{m.group(1)}: loads before first use {loads}, max_registers "
          f"{'yes' if 'dwc.max_registers' in chunk else 'no'}")
