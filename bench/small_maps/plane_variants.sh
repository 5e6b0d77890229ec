#!/usr/bin/env bash
# Plane-kernel variants on the ConvNeXt layers of maps up to 28 x 28 (fwd and
# dX), one kernel directory each under $OUT_ROOT (tag = directory suffix).
set -eu
cd "$(dirname "$0")/../.."
OUT_ROOT=${OUT_ROOT:-.carry/f20}
while read -r tag dtypes cfg; do
  python3 bench/small_maps/plane_configs.py variant --tag "$tag" --dtypes "$dtypes" \
    --kernel "$cfg" --out "$OUT_ROOT/stride_$tag" -j 2
done <<'VARIANTS'
pv2 f16,f32 #dwc.plane<channels = 2>
pv1 f16,f32 #dwc.plane<channels = 1>
pv4 f16 #dwc.plane<channels = 4>
pv2r1 f16 #dwc.plane<channels = 2, rows = 1>
pv2r4 f16 #dwc.plane<channels = 2, rows = 4>
pv1r4 f16 #dwc.plane<channels = 1, rows = 4>
pv2c14 f16 #dwc.plane<channels = 2, columns = 14>
VARIANTS
