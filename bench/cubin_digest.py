"""Digests of the sm_XX ELF images (cubins) embedded in dwc-aot objects, to
tell which kernels two compilers built differently: identical cubins run
the same SASS, so only kernels whose digest differs need re-timing.

    python3 bench/cubin_digest.py DIR_A DIR_B     (objects of the same names)
prints one line per object: same | DIFFERENT | missing, and a summary.
"""
import glob
import hashlib
import os
import struct
import sys


def cubins(data):
    """sha256 of each ELF64 image inside `data` (size from its header:
    section headers come last in the images ptxas writes)."""
    out, pos = [], 0
    while True:
        i = data.find(b"\x7fELF\x02\x01", pos)
        if i < 0:
            return out
        shoff, = struct.unpack_from("<Q", data, i + 0x28)
        shentsize, shnum = struct.unpack_from("<HH", data, i + 0x3A)
        end = i + shoff + shentsize * shnum
        if i == 0 or end > len(data) or shnum == 0:  # the object itself
            pos = i + 4
            continue
        out.append(hashlib.sha256(data[i:end]).hexdigest()[:16])
        pos = end


def main():
    a, b = sys.argv[1], sys.argv[2]
    same = diff = 0
    for pa in sorted(glob.glob(os.path.join(a, "*.o"))):
        pb = os.path.join(b, os.path.basename(pa))
        name = os.path.basename(pa)[:-2]
        if not os.path.exists(pb):
            print(name, "missing")
            continue
        ca, cb = cubins(open(pa, "rb").read()), cubins(open(pb, "rb").read())
        if ca == cb:
            same += 1
            print(name, "same", len(ca))
        else:
            diff += 1
            print(name, "DIFFERENT", len(ca), len(cb))
    print(f"summary: {same} same, {diff} different")


if __name__ == "__main__":
    main()
