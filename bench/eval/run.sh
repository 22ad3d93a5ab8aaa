#!/usr/bin/env bash
# Full-stack evaluation of real networks (docs/BENCHMARKS.md, "Evaluation"): torchvision
# ResNet-50, ResNet-18 and MobileNetV2 (random weights, batch 1, 224x224) through
# `brickyard eval` on the dense default config, TensorDash (td8) and Boveda (boveda16), each on
# its RTL co-simulation with the area from `brickyard synth`.
# Usage: bench/eval/run.sh [OUT_DIR] [nets...]   (nets: resnet50 resnet18 mobilenet_v2)
# Each net's report folder (report.md, report.json, layers.csv, plots) goes to OUT_DIR/<net>;
# the summary tables are printed at the end (bench/eval/summarize.py). Runs are cached in
# OUT_DIR/cache, so a rerun after an interruption only runs what is missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-$root/out/bench-eval}"
shift || true
nets="${*:-mobilenet_v2 resnet18 resnet50}"
# boveda16 is a config of the tests: by its path.
configs="${BENCH_EVAL_CONFIGS:-default,td8,$root/testbenches/configs/boveda16.yaml}"
"$root/scripts/setup.sh" --bench
"$root/scripts/build.sh" brickyard >/dev/null
by="$root/build/bin/brickyard"
py=/usr/bin/python3
mkdir -p "$out"
# shellcheck disable=SC2086 # nets is a word list
$py "$root/bench/compiler/export_torchvision.py" "$out/tv" $nets
for net in $nets; do
  echo "== brickyard eval $net.onnx --configs $configs --input $net.input.npy --calib-random 1"
  start=$(date +%s)
  "$by" eval "$out/tv/$net.onnx" --configs "$configs" --input "$out/tv/$net.input.npy" \
    --calib-random 1 -o "$out/$net" --cache-dir "$out/cache" ||
    echo "   (a config failed or mismatched: see $out/$net/report.md)"
  echo "   wall time: $(($(date +%s) - start)) s"
done
# shellcheck disable=SC2086
$py "$root/bench/eval/summarize.py" "$out" $nets
