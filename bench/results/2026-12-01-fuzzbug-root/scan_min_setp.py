"""Counts, in PTX files, the comparisons of a min/max result against the
same constant (`min.u16 %r, %x, C` ... `setp.eq|ne.* %p, %r, C`): the shape
ptxas 13.0 miscompiles (VIMNMX predicate output) in 16-bit form."""
import re, sys
tot = {}
for path in sys.argv[1:]:
    s = open(path).read()
    mins = {m.group(3): (m.group(1), m.group(2), m.group(4)) for m in re.finditer(
        r'\b(min|max)\.([us]\d+)\s+(%\w+),\s*%\w+,\s*(-?\d+);', s)}
    for m in re.finditer(r'setp\.(eq|ne)\.\w+\s+%\w+,\s*(%\w+),\s*(-?\d+);', s):
        if m.group(2) in mins and mins[m.group(2)][2] == m.group(3):
            key = mins[m.group(2)][0] + '.' + mins[m.group(2)][1]
            tot.setdefault(key, []).append(path.split('/')[-1])
for k, v in tot.items():
    print(k, len(v), sorted(set(v))[:20])
print('files', len(sys.argv) - 1)
