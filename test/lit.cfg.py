# lit configuration of the dwc test suite.
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "DWC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".c", ".cpp"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dwc_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

config.substitutions.append(("%PYTHON", config.python_executable))
config.substitutions.append(("%dwc_src", config.dwc_src_root))
config.substitutions.append(("%dwc_lib", config.dwc_lib_dir))
config.substitutions.append(("%dwc_obj", config.dwc_obj_root))
config.substitutions.append(
    ("%mlir_cmake_dir", os.path.join(config.mlir_lib_dir, "cmake", "mlir")))
config.substitutions.append(("%cuda_toolkit", config.cuda_toolkit))
# The sanitizer build (DWC_SANITIZE): host programs linking the sanitized
# runtime are sanitized too; feature 'sanitize' marks tests that cannot run
# there. Leaks are not checked: the runtime's stream pool and module
# registry, and LLVM's statics, live until exit by design. Container
# annotations are off: the uninstrumented LLVM libraries resize containers
# that instrumented dwc code reads. Manual poisoning is off: LLVM's
# BumpPtrAllocator poisons the unused part of a slab in dwc's instrumented
# copies of its inline code, which the uninstrumented libMLIR then
# allocates from without unpoisoning (use-after-poison reports inside
# MLIR's uniquer that are not dwc's). A finding aborts (a signal, which `not`
# does not accept), so that no test expecting a failure passes on one.
host_sanitize = ""
if config.dwc_sanitize:
    config.available_features.add("sanitize")
    host_sanitize = " -fsanitize=address,undefined -fno-sanitize-recover=undefined"
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=0:detect_container_overflow=0:allow_user_poisoning=0:"
        "abort_on_error=1")
    config.environment["UBSAN_OPTIONS"] = (
        "print_stacktrace=1:halt_on_error=1:abort_on_error=1")
config.substitutions.append(("%host_cxx", config.host_cxx + host_sanitize))
config.substitutions.append(("%host_cc", config.host_cc + host_sanitize))
# Compiling/linking host programs against libdwc_runtime (runtime/, dwc-aot).
config.substitutions.append(
    ("%dwc_rt_cflags", "-I" + os.path.join(config.dwc_src_root, "runtime", "include")))
config.substitutions.append(
    ("%dwc_rt_ldflags", "-L%s -ldwc_runtime -Wl,-rpath,%s" % (config.dwc_lib_dir, config.dwc_lib_dir)))
config.substitutions.append(
    ("%mlir_runner_libs",
     os.path.join(config.mlir_lib_dir, "libmlir_runner_utils.so") + "," +
     os.path.join(config.mlir_lib_dir, "libmlir_c_runner_utils.so")))

tools = [
    "dwc-opt",
    ToolSubst("dwc-aot", unresolved="ignore"),
    ToolSubst("mlir-runner", unresolved="ignore"),
    ToolSubst("mlir-translate", unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, [config.dwc_tools_dir, config.llvm_tools_dir])

# Features: 'ptxas' when the CUDA toolkit can assemble cubins on this machine;
# 'gpu' only when a CUDA driver and a device answer (never on CI).
if os.path.exists(os.path.join(config.cuda_toolkit, "bin", "ptxas")):
    config.available_features.add("ptxas")
def _has_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        return subprocess.run([smi, "-L"], capture_output=True, timeout=20).returncode == 0
    except Exception:
        return False
if os.environ.get("DWC_FORCE_NO_GPU") != "1" and _has_gpu():
    config.available_features.add("gpu")
# 'torch' when the Python of the tests imports torch (scripts/setup.sh
# installs a CPU-capable one, so CI runs the binding's CPU tests); the GPU
# tests of the binding need 'gpu' too.
def _has_torch():
    try:
        return subprocess.run([config.python_executable, "-c", "import torch"],
                              capture_output=True, timeout=300).returncode == 0
    except Exception:
        return False
if os.environ.get("DWC_FORCE_NO_TORCH") != "1" and _has_torch():
    config.available_features.add("torch")
# One dwc cache for the Python tests (content-hash keys: sharing is safe), so
# the C++ extension of dwc_torch is built once per build tree.
config.substitutions.append(
    ("%dwc_cache", os.path.join(config.dwc_obj_root, "test", "dwc-cache")))
# 'timm' when that Python also has timm (a registry's real models for the
# binding's CPU tests; scripts/setup.sh does not install it).
def _has_timm():
    try:
        return subprocess.run([config.python_executable, "-c", "import timm"],
                              capture_output=True, timeout=300).returncode == 0
    except Exception:
        return False
if "torch" in config.available_features and _has_timm():
    config.available_features.add("timm")
