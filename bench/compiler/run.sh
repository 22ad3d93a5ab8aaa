#!/usr/bin/env bash
# Compiler benchmarks (docs/BENCHMARKS.md, "Compiler"), all on RTL co-simulations:
#   1. the digits CNN's top-1 accuracy: the float model (torch) against the int8 program on the
#      default config, 500 test images in one batch;
#   2. torchvision ResNet-18, MobileNetV2 and ResNet-50 (random weights, 224x224) compiled and
#      run whole on the default config: cycles and utilization per layer, wall time;
#   3. the digits CNN and ResNet-18 on td8 (TensorDash) and boveda16 (Boveda weights).
# Usage: bench/compiler/run.sh [OUT_DIR] [sections...]   (sections: digits nets td boveda)
# Each run's JSON report and log stay in OUT_DIR (default out/bench-compiler); the Markdown
# tables are printed at the end (bench/compiler/summarize.py).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-$root/out/bench-compiler}"
shift || true
sections="${*:-digits nets td boveda}"
"$root/scripts/setup.sh" --bench
"$root/scripts/build.sh" brickyard >/dev/null
by="$root/build/bin/brickyard"
py=/usr/bin/python3
models="$root/testbenches/compiler/models"
summ="$py $root/bench/compiler/summarize.py"
mkdir -p "$out"

run() { # NAME MODEL.onnx CONFIG INPUT [brickyard run options...]
  local name="$1" model="$2" config="$3" input="$4"
  shift 4
  echo "== $name: brickyard run $(basename "$model") --config $config $*"
  local start end
  start=$(date +%s.%N)
  "$by" run "$model" --config "$config" --input "$input" --report "$out/$name.json" "$@" \
    >"$out/$name.log" 2>"$out/$name.err" || { tail -5 "$out/$name.err"; return 1; }
  end=$(date +%s.%N)
  tail -4 "$out/$name.log"
  printf "   wall time of the whole command: %.0f s\n" "$(echo "$end - $start" | bc)"
}

# The digits test set (500 images; the first 16 for the smaller runs) and the networks.
$py "$root/bench/compiler/train_digits.py" --test-set 500 --model "$models/digits.onnx" "$out"
$py -c "import numpy as np; np.save('$out/digits_test_x16.npy', np.load('$out/digits_test_x.npy')[:16])"
[[ " $sections " == *" nets "* || " $sections " == *" td "* || " $sections " == *" boveda "* ]] &&
  $py "$root/bench/compiler/export_torchvision.py" "$out/tv"

if [[ " $sections " == *" digits "* ]]; then
  run digits_default_b500 "$models/digits.onnx" default "$out/digits_test_x.npy" --batch 500 \
    --calib "$models/digits.calib.npy" --out "$out/digits_int8.npy"
  echo "| images | float top-1 | int8 top-1 (accelerator) | difference (points) | int8 = float |"
  echo "|---|---|---|---|---|"
  $summ accuracy "$out/digits_int8.npy" "$out/digits_test_y.npy" "$out/digits_test_float.npy"
fi
if [[ " $sections " == *" nets "* ]]; then
  for net in resnet18 mobilenet_v2 resnet50; do
    run "${net}_default" "$out/tv/$net.onnx" default "$out/tv/$net.input.npy" --calib-random 1
  done
fi
if [[ " $sections " == *" td "* ]]; then
  for cfg in td8 default; do
    run "digits_${cfg}_b16" "$models/digits.onnx" "$cfg" "$out/digits_test_x16.npy" --batch 16 \
      --calib "$models/digits.calib.npy"
  done
  run digits_td8_b16_off "$models/digits.onnx" td8 "$out/digits_test_x16.npy" --batch 16 \
    --calib "$models/digits.calib.npy" --no-tensordash
  run resnet18_td8 "$out/tv/resnet18.onnx" td8 "$out/tv/resnet18.input.npy" --calib-random 1
fi
if [[ " $sections " == *" boveda "* ]]; then
  b16="$root/testbenches/configs/boveda16.yaml"
  for w in "" --no-boveda-weights; do
    run "digits_boveda16${w:+_raw}" "$models/digits.onnx" "$b16" "$out/digits_test_x16.npy" \
      --batch 16 --calib "$models/digits.calib.npy" $w
    run "resnet18_boveda16${w:+_raw}" "$out/tv/resnet18.onnx" "$b16" "$out/tv/resnet18.input.npy" \
      --calib-random 1 $w
  done
fi
echo
echo "## Networks"
$summ networks "$out"/*.json
for f in "$out"/resnet50_default.json "$out"/resnet18_default.json "$out"/mobilenet_v2_default.json; do
  [ -f "$f" ] && { echo; echo "### $(basename "$f" .json)"; $summ layers "$f"; }
done
