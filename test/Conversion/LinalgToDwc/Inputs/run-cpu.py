"""Runs an LLVM-dialect module from stdin with mlir-runner (entry @main),
loading the runner utility libraries from the runner's own installation
(<prefix>/bin/mlir-runner -> <prefix>/lib), and prints its output with the
buffer addresses removed (so two runs can be compared with diff)."""
import os
import re
import shutil
import subprocess
import sys

runner = shutil.which(sys.argv[1]) or sys.argv[1]
lib = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(runner))), "lib")
libs = ",".join(os.path.join(lib, n) for n in
                ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
run = subprocess.run([runner, "-e", "main", "-entry-point-result=void",
                      "--shared-libs=" + libs],
                     stdin=sys.stdin, capture_output=True, text=True)
sys.stdout.write(re.sub(r"base@ = 0x[0-9a-f]+ ", "", run.stdout))
sys.stderr.write(run.stderr)
sys.exit(run.returncode)
