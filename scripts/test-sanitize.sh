#!/usr/bin/env bash
# Builds dwc with AddressSanitizer + UndefinedBehaviorSanitizer
# (DWC_SANITIZE=ON) into ./build-sanitize and runs the lit suite there (the
# fuzzers included: test/Fuzz). Ends with a plain 'N passed, N failed' line.
# Expects scripts/setup.sh to have installed the toolchain. The torch tests
# are skipped: Python cannot load the sanitized libraries without the ASan
# runtime preloaded.
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${DWC_SANITIZE_BUILD:-build-sanitize}
start=$(date +%s)
if [ ! -f "$dir/build.ninja" ]; then
  cmake -G Ninja -S . -B "$dir" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DCMAKE_BUILD_TYPE=Release -DDWC_SANITIZE=ON >/dev/null ||
    { echo "0 passed, 1 failed"; exit 1; }
fi
cmake --build "$dir" -j "$(nproc)" || { echo "0 passed, 1 failed"; exit 1; }
built=$(date +%s)
out=$(mktemp)
DWC_FORCE_NO_TORCH=1 /usr/lib/llvm-22/bin/lit -v "$dir/test" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
# A sanitizer report in a test that still passed (e.g. in a process whose
# exit status the test ignores) fails the run too.
if grep -qE '(AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:)' "$out"; then
  echo "sanitizer findings in the lit output"
  rc=1
fi
passed=$(grep -cE '^(PASS|XFAIL): ' "$out")
failed=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$out")
skipped=$(grep -cE '^(UNSUPPORTED): ' "$out")
rm -f "$out"
echo "sanitizer build: $((built - start)) s, lit: $(( $(date +%s) - built )) s"
echo "$passed passed, $failed failed, $skipped skipped"
exit $rc
