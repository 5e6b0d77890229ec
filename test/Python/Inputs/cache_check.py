"""The kernel cache without torch: the key changes with the MLIR, the flags,
the chip, the dwc_torch version and the dwc-aot binary; a second compile is
a hit; --chip sm_80 after sm_90 compiles anew (the stale-object bug of the
old file-time check); several processes compiling the same kernel at once
compile it once and all get the complete entry.

usage: cache_check.py DWC_AOT CACHE_DIR"""
import multiprocessing
import os
import sys

from dwc_torch import cache
from dwc_torch.spec import LayerSpec

def worker(args):
    aot, root = args
    os.environ["DWC_CACHE_DIR"] = root
    s = LayerSpec.make(2, 16, 13, 11, 5, 1, 2, 1, "f16", False)
    entry, fresh = cache.compile_kernel(s.mlir("bwd_data"), s.func_name("bwd_data"), aot, [],
                                        "sm_90")
    return entry, fresh, os.path.isfile(os.path.join(entry, "kernel.o"))



def main():
    aot, root = sys.argv[1], sys.argv[2]
    os.environ["DWC_CACHE_DIR"] = root
    pool_args = [(aot, root)] * 3
    spec = LayerSpec.make(1, 8, 9, 7, 3, 1, 1, 1, "f32", True)
    mlir = spec.mlir("fwd")
    base = cache.kernel_key(mlir, [], "sm_90", "A", "1.0")
    print("key differs with mlir:", base != cache.kernel_key(mlir + " ", [], "sm_90", "A", "1.0"))
    print("key differs with flags:", base != cache.kernel_key(mlir, ["--opt-level=2"], "sm_90",
                                                              "A", "1.0"))
    print("key differs with chip:", base != cache.kernel_key(mlir, [], "sm_80", "A", "1.0"))
    print("key differs with version:", base != cache.kernel_key(mlir, [], "sm_90", "A", "1.1"))
    print("key differs with dwc-aot:", base != cache.kernel_key(mlir, [], "sm_90", "B", "1.0"))
    print("key is stable:", base == cache.kernel_key(mlir, [], "sm_90", "A", "1.0"))

    e1, fresh1 = cache.compile_kernel(mlir, spec.func_name("fwd"), aot, [], "sm_90")
    e2, fresh2 = cache.compile_kernel(mlir, spec.func_name("fwd"), aot, [], "sm_90")
    e3, fresh3 = cache.compile_kernel(mlir, spec.func_name("fwd"), aot, [], "sm_80")
    print("first compiled:", fresh1, "second hit:", not fresh2 and e1 == e2)
    print("sm_80 compiled anew:", fresh3 and e3 != e1, "objects differ:",
          open(os.path.join(e1, "kernel.o"), "rb").read() != open(os.path.join(e3, "kernel.o"),
                                                                   "rb").read())
    print("entry files:", sorted(os.listdir(e1)))
    try:
        cache.compile_kernel("func.func @broken(", "broken", aot, [], "sm_90")
    except cache.CompileError as e:
        print("CompileError:", str(e).splitlines()[0][:60])
    print("no partial entries:", not any(d.startswith(".tmp") for d in
                                         os.listdir(os.path.dirname(e1))))


    with multiprocessing.get_context("spawn").Pool(3) as pool:
        res = pool.map(worker, pool_args)
    print("concurrent: compiled %d time(s), same entry %s, complete %s" % (
        sum(r[1] for r in res), len({r[0] for r in res}) == 1, all(r[2] for r in res)))


if __name__ == "__main__":
    main()
