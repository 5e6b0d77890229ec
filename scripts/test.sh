#!/usr/bin/env bash
# Sets up and builds dwc, then runs the whole test suite (lit + FileCheck).
# Ends with a plain 'N passed, N failed' line.
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }
out=$(mktemp)
/usr/lib/llvm-22/bin/lit -v build/test 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
passed=$(grep -cE '^(PASS|XFAIL): ' "$out")
failed=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$out")
skipped=$(grep -cE '^(UNSUPPORTED): ' "$out")
rm -f "$out"
echo "$passed passed, $failed failed, $skipped skipped"
exit $rc
