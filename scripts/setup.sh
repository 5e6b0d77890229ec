#!/usr/bin/env bash
# Installs what dwc needs on Debian 12 (idempotent), then configures and
# builds the project into ./build. Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for pkg in libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 \
           cmake ninja-build g++ python3; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  if ! apt-cache policy libmlir-22-dev 2>/dev/null | grep -q Candidate: ||
     apt-cache policy libmlir-22-dev | grep -q 'Candidate: (none)'; then
    $SUDO apt-get update -qq
  fi
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# PyTorch for dwc_torch's CPU tests (test/Python, lit feature 'torch'): the
# PyPI wheel (a CUDA build that runs on the CPU; ~40 s, ~4.5 GB here).
# DWC_SKIP_TORCH=1 skips it (those tests are then UNSUPPORTED).
if [ "${DWC_SKIP_TORCH:-0}" != 1 ] && ! python3 -c "import torch" >/dev/null 2>&1; then
  echo "setup: installing torch for the dwc_torch tests"
  if ! python3 -m pip --version >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null
  fi
  pip_args=(-q --disable-pip-version-check "torch==2.11.*" numpy)
  python3 -m pip install "${pip_args[@]}" 2>/dev/null ||
    python3 -m pip install --break-system-packages "${pip_args[@]}"
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
fi
cmake --build build -j "$(nproc)"
