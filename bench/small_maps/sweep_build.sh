#!/usr/bin/env bash
# Step 1 of the small-map work (issue 20): the existing row-tile / GEMV
# configurations forced on the 16-bit ConvNeXt small-map forward layers
# (one kernel directory per variant under $OUT_ROOT), plus the kernels of
# the current selection (forward and backward data) in $OUT_ROOT/stride_base.
set -eu
cd "$(dirname "$0")/../.."
OUT_ROOT=${OUT_ROOT:-.carry/f20}
ONLY=n64h28w28c192_f7_s1x1_p3x3x3x3_f16,n64h14w14c384_f7_s1x1_p3x3x3x3_f16,n64h7w7c768_f7_s1x1_p3x3x3x3_f16,n64h28w28c256_f7_s1x1_p3x3x3x3_f16,n64h14w14c512_f7_s1x1_p3x3x3x3_f16,n64h7w7c1024_f7_s1x1_p3x3x3x3_f16,n1h28w28c192_f7_s1x1_p3x3x3x3_f16,n1h14w14c384_f7_s1x1_p3x3x3x3_f16,n1h14w14c512_f7_s1x1_p3x3x3x3_f16,n1h7w7c768_f7_s1x1_p3x3x3x3_f16
python3 bench/stride_configs.py --set s1 --only "$ONLY" --ops fwd,bwd_data --build --tag base --out "$OUT_ROOT/stride_base" -j 2
while read -r tag cfg; do
  python3 bench/stride_configs.py --set s1 --only "$ONLY" --ops fwd --build --tag "$tag" \
    --kernel "fwd=$cfg" --out "$OUT_ROOT/stride_$tag" -j 2
done <<'VARIANTS'
rt277r #dwc.row_tile<channels = 2, rows = 7, columns = 7, filter = "registers">
rt477g #dwc.row_tile<channels = 4, rows = 7, columns = 7, filter = "global">
rt877g #dwc.row_tile<channels = 8, rows = 7, columns = 7, filter = "global">
rt444g #dwc.row_tile<channels = 4, rows = 4, columns = 4, filter = "global">
rt244r #dwc.row_tile<channels = 2, rows = 4, columns = 4, filter = "registers">
rt227r #dwc.row_tile<channels = 2, rows = 2, columns = 7, filter = "registers">
rt222r #dwc.row_tile<channels = 2, rows = 2, columns = 2, filter = "registers">
rt827g #dwc.row_tile<channels = 8, rows = 2, columns = 7, filter = "global">
gv87s #dwc.gemv<channels = 8, outputs = 7, filter = "smem", rows = "loop">
gv814s #dwc.gemv<channels = 8, outputs = 14, filter = "smem", rows = "loop">
gv47g #dwc.gemv<channels = 4, outputs = 7, filter = "global", rows = "loop">
gv47u #dwc.gemv<channels = 4, outputs = 7, filter = "global", rows = "unrolled">
VARIANTS
