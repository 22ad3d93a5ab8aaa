#!/usr/bin/env bash
# Simulation speed of two builds side by side, interleaved in one run (docs/BENCHMARKS.md,
# "After the controller restyle"): the bare mesh, bench_accel_matmul and the co-simulation
# of matmul_long and driver_kernels on the default config.
# Usage: bench/ab_speed.sh OLD_ROOT NEW_ROOT [ROUNDS]
#   each root a checkout whose build/ has brickyard, bench_mesh, bench_accel_matmul and the
#   default config's programs (cmake --build build --target brickyard bench_mesh
#   bench_accel_matmul sw_default baremetal_sw_default).
set -euo pipefail
old="$1" new="$2" rounds="${3:-2}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
speed() { # STATS.json NAME
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); a = s["accelerator"]
print(f"  {sys.argv[2]}: {a['clocked_cycles']:,} clocked cycles in {a['wall_seconds']:.2f} s = "
      f"{a['clocked_cycles_per_second']:,.0f} cycles/s")
PY
}
sim() { # ROOT PROGRAM
  BRICKYARD_CACHE_DIR="$1/build/bench-sim-cache" "$1/build/bin/brickyard" sim \
    --config "$1/configs/default.yaml" --quiet --stats "$tmp/stats.json" "$1/build/$2" >/dev/null
  speed "$tmp/stats.json" "$(basename "$2" .elf)"
}
for root in "$old" "$new"; do # build each tree's simulator before timing anything
  BRICKYARD_CACHE_DIR="$root/build/bench-sim-cache" "$root/build/bin/brickyard" sim \
    --config "$root/configs/default.yaml" --quiet "$root/build/sw/default/matmul_long.elf" >/dev/null
done
for round in $(seq "$rounds"); do
  for root in "$old" "$new"; do
    echo "== round $round: $root ($(git -C "$root" rev-parse --short HEAD))"
    echo "  $("$root/build/bench/bench_mesh" 2000000)"
    "$root/build/bench/bench_accel_matmul" | grep -E "cycles, util|simulation:"
    sim "$root" sw/default/matmul_long.elf
    if [ "$round" = 1 ]; then sim "$root" baremetal/default/driver_kernels.elf; fi
  done
done
