"""python3 bench/dwcbench TOPIC ACTION ... (or python3 -m dwcbench with
bench/ on PYTHONPATH); see bench/README.md."""

import os
import sys

if __package__ in (None, ""):  # run as `python3 bench/dwcbench`
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from dwcbench.cli import main
else:
    from .cli import main

code = main()
sys.stdout.flush()
# The dwc runtime and CUDA tear down in an order that can crash at exit
# after a GPU run; the results are written by then.
os._exit(code or 0)
