#!/usr/bin/env bash
# Builds the dwc_torch wheel from this repository: python/ plus what it
# needs from outside it (runtime/'s sources, the VERSION file) staged into a
# temporary build tree, so that the checkout is never written to and no
# symlink leaves python/. The wheel goes to $1 (default ./dist of the
# current directory); the last line printed is its path.
#
#   scripts/build-wheel.sh [OUTDIR]
#   pip install 'OUTDIR/dwc_torch-<version>-py3-none-any.whl[torch]'
#
# The build backend (setuptools, wheel) comes from the running Python where
# it has both, else pip fetches them into an isolated build environment.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)
python=${PYTHON:-python3}
stage=$(mktemp -d "${TMPDIR:-/tmp}/dwc-wheel.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# python/'s sources: in a git checkout the files git tracks or would track
# (not what it ignores: caches, local build output), else the whole folder.
if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard python |
     while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
     xargs -0 cp --parents -t "$stage")
else
  cp -r "$repo/python" "$stage/python"
  rm -rf "$stage/python/build" "$stage"/python/*.egg-info
fi
pkg="$stage/python/dwc_torch"
mkdir -p "$pkg/_runtime/include/dwc"
cp "$repo/runtime/lib/Runtime.cpp" "$pkg/_runtime/"
cp "$repo/runtime/include/dwc/runtime.h" "$pkg/_runtime/include/dwc/"
cp "$repo/VERSION" "$pkg/VERSION"

isolation=()
if "$python" -c 'import setuptools, wheel, sys
sys.exit(int(setuptools.__version__.split(".")[0]) < 61)' 2>/dev/null; then
  isolation=(--no-build-isolation)
fi
"$python" -m pip wheel -q --disable-pip-version-check --no-deps "${isolation[@]}" \
  -w "$out" "$stage/python" >&2
version=$(cat "$repo/VERSION")
wheel="$out/dwc_torch-$version-py3-none-any.whl"
if [ ! -f "$wheel" ]; then
  echo "build-wheel: pip wrote no $wheel (in $out: $(ls "$out" | tr '\n' ' '))" >&2
  exit 1
fi
echo "$wheel"
