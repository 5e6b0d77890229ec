"""dwcbench: correctness and speed of dwc's kernels against PyTorch on the
GPU. See bench/README.md. The package reads layer specs from dwc_torch
(python/), which it puts on the import path."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if os.path.join(ROOT, "python") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "python"))
