#!/bin/sh
# s16-tc device call 2: the whole-step CUDA-graph check after the graph_step fix. From the checkout root.
export DWC_CACHE_DIR=/tmp/dwcc PYTHONUNBUFFERED=1
cd .carry/s16tc
[ "$(python3 -c 'import sys; print(sys.version_info[:2] == (3, 12))')" = True ] && \
  export DWC_TORCH_EXT=$PWD/ext/dwc_torch_ext_py312.so
T0=$(date +%s)
PYTHONPATH=python timeout 62 python3 bench/torch_graph_capture_check.py --kernels kernels \
  --out $OUT --cases stock,dwc --timeout 30 > $OUT/graph.log 2>&1
rc=$?; echo "B $(( $(date +%s) - T0 )) s rc=$rc"
LEFT=$(( ${S16_LIMIT:-92} - ($(date +%s) - T0) ))
[ $LEFT -gt 24 ] && PYTHONPATH=python timeout $LEFT python3 bench/torch_graph_capture_check.py \
  --kernels kernels --out $OUT --cases dwc --dtype bf16 --timeout $(( LEFT - 2 )) >> $OUT/graph.log 2>&1
echo "C $(( $(date +%s) - T0 )) s"
grep -i "extension\|Error" $OUT/graph.log | head -5
cut -c1-700 $OUT/graph-capture-check.jsonl
