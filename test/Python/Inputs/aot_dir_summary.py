"""What an AOT output directory holds: its manifest's chips, specs and ops,
the object files on disk, and whether every listed object exists.

usage: aot_dir_summary.py DIR"""
import os
import sys

from dwc_torch import manifest

d = sys.argv[1]
m = manifest.read(d)
print("format", m["format"])
for chip in manifest.chips(m):
    for s in sorted(manifest.specs(m, chip), key=lambda s: s["key"]):
        print("%s: %s %s" % (chip, s["key"], ",".join(sorted(s["ops"]))))
objs = sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs
              if f.endswith(".o"))
print("files:", " ".join(objs))
print("all listed objects exist:", all(
    os.path.isfile(os.path.join(d, o["object"])) for c in manifest.chips(m)
    for s in manifest.specs(m, c) for o in s["ops"].values()))
