#!/usr/bin/env bash
# Sets everything up, builds, and runs the full stack on the default config (16x16 int8):
# generate the accelerator, lint and synthesize it, then run bare-metal driver programs
# (tiled matmul and convolution, each checked against its CPU reference) on the SystemC SoC
# with the config's Verilated RTL (built on first use and cached in ~/.cache/brickyard).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
name=default
config="$root/configs/$name.yaml"
out="$root/out/demo-$name"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
by="$root/build/bin/brickyard"
echo "== brickyard gen $config"
"$by" gen "$config" -o "$out"
echo "== brickyard lint"
"$by" lint "$out"
echo "== brickyard synth (Yosys; about 11 minutes on the 16x16 default)"
"$by" synth "$out" | tail -n 4
echo "== bare-metal driver programs on the SoC with the $name accelerator's RTL"
"$root/scripts/build.sh" "baremetal_sw_$name" >/dev/null # not part of the default build
for program in tiled_matmul conv; do
  echo "-- brickyard sim --config configs/$name.yaml build/baremetal/$name/$program.elf"
  "$by" sim --config "$config" "$root/build/baremetal/$name/$program.elf"
done
echo "demo: done; generated outputs in $out"
