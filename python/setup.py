"""Refuses to build from python/ as it is in the repository: the package
carries the runtime sources and the version file, which live outside python/
and are staged into a build tree by scripts/build-wheel.sh (pyproject.toml
holds the package's metadata)."""

import os
import sys

from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))
STAGED = ["dwc_torch/VERSION", "dwc_torch/_runtime/Runtime.cpp",
          "dwc_torch/_runtime/include/dwc/runtime.h"]

missing = [f for f in STAGED if not os.path.isfile(os.path.join(HERE, f))]
if missing:
    sys.exit("dwc-torch: %s missing from %s: python/ alone is not the package; build the "
             "wheel with scripts/build-wheel.sh from the repository (it stages them), then "
             "pip install the wheel" % (", ".join(missing), HERE))

setup()
