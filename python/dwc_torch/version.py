"""dwc_torch version: the compiler's (the repository's file VERSION, which
CMakeLists.txt reads too; scripts/build-wheel.sh stages it into the package
as dwc_torch/VERSION). Part of every kernel cache key."""

import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _read():
    # The package's own copy (an installed wheel), else the checkout's (tests
    # and development run the sources in python/ directly).
    for path in (os.path.join(_HERE, "VERSION"), os.path.join(_HERE, "..", "..", "VERSION")):
        if os.path.isfile(path):
            with open(path) as fh:
                return fh.read().strip()
    raise ImportError("dwc_torch: no VERSION file next to %s nor at the repository's root; "
                      "build the package with scripts/build-wheel.sh" % _HERE)


__version__ = _read()
