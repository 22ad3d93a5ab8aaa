#!/usr/bin/env bash
# Sets everything up, builds the brickyard command, and runs the full stack on the default
# config (16x16 int8): generate the accelerator and lint it, then compile a trained CNN (ONNX)
# for it and run the program on the SystemC SoC with the config's Verilated RTL (built on first
# use and cached in ~/.cache/brickyard), checking every output bit against the compiler's int8
# reference and printing the per-layer table; finally a bare-metal driver program (tiled
# matmul), after an evaluation of the model on the default and on td8_boveda (the config with
# all three seed features) side by side. Synthesis of the 16x16 default takes one to two
# minutes the first time (then it is cached): the demo synthesises the 4x4 tiny config instead
# (`brickyard synth out/demo-default` does the default).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
name=default
config="$root/configs/$name.yaml"
out="$root/out/demo-$name"
models="$root/testbenches/compiler/models"
"$root/scripts/setup.sh"
# The brickyard command only (a few minutes on 2 cores): the test targets, which verilate a
# dozen accelerators, are scripts/test.sh's to build. Later steps build what they need.
"$root/scripts/build.sh" brickyard
by="$root/build/bin/brickyard"
echo "== brickyard gen $config"
"$by" gen "$config" -o "$out"
echo "== brickyard lint"
"$by" lint "$out"
echo "== brickyard synth of the tiny config (Yosys)"
"$by" gen "$root/configs/tiny.yaml" -o "$root/out/demo-tiny" --quiet
"$by" synth "$root/out/demo-tiny" | tail -n 4
echo "== brickyard compile: the digits CNN (trained with torch, float ONNX) for $name"
"$by" compile "$models/digits.onnx" --config "$config" --calib "$models/digits.calib.npy" \
  -o "$out/digits"
echo "== brickyard run: the same model on the SoC with the $name accelerator's RTL"
"$by" run "$models/digits.onnx" --config "$config" --calib "$models/digits.calib.npy" \
  --input "$models/digits.input.npy"
echo "== brickyard eval: the same model on $name and on td8_boveda (TensorDash, Boveda and the"
echo "   loop unrollers in one accelerator of the same peak, SRAMs and bus), side by side"
"$by" eval "$models/digits.onnx" --configs "$name,td8_boveda" --calib "$models/digits.calib.npy" \
  --input "$models/digits.input.npy" --no-area -o "$out/eval"
sed -n '/^## Configs/,/^## Where/p' "$out/eval/report.md" | grep '^|'
echo "-- the plots: $out/eval/*.png (cycles.png: cycles by cause per config). digits is tiny (1,818"
echo "   ideal cycles): the host bounds it on td8_boveda; on ResNet-18 td8_boveda runs 1.28x the"
echo "   default at 0.77x its energy (docs/BENCHMARKS.md, issues 25, 28 and 30)"
echo "== a bare-metal driver program on the SoC"
"$root/scripts/build.sh" "baremetal_sw_$name" >/dev/null # not part of the default build
echo "-- brickyard sim --config configs/$name.yaml build/baremetal/$name/tiled_matmul.elf"
"$by" sim --config "$config" "$root/build/baremetal/$name/tiled_matmul.elf"
echo "demo: done; generated outputs in $out (the compiled model in $out/digits)"
