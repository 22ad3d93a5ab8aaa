#!/usr/bin/env bash
# Runs the benchmarks and prints the Markdown recorded in docs/BENCHMARKS.md.
# Usage: bench/run.sh [SECTION...]   (from the repository root; builds what it needs)
# Sections (all by default): gen verilator td cosim loops lanes boveda (Boveda and TensorDash on
# a trained network) td-area synth. The co-simulation speed ratios need the bare mesh's speed, so
# `cosim` measures it too when `verilator` is off.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh" --bench >/dev/null
"$root/scripts/build.sh" brickyard >/dev/null
cmake --build "$root/build" --target benchmarks -j 2 >/dev/null
by="$root/build/bin/brickyard"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
sections="${*:-gen verilator td cosim loops lanes boveda td-area synth}"
want() { [[ " $sections " == *" $1 "* ]]; }

if want gen; then
echo "## Generator (brickyard gen, in-process, best of 20)"
"$root/build/bench/bench_gen" "$root/configs/default.yaml" "$root/configs/large32.yaml"
echo
echo "## Generator, whole command (process start included)"
for c in default large32; do
  start=$(date +%s%N)
  "$by" gen "$root/configs/$c.yaml" -o "$tmp/$c" --quiet
  echo "- brickyard gen configs/$c.yaml: $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
echo
fi
if want verilator; then
"$by" gen "$root/configs/default.yaml" -o "$tmp/default" --quiet
echo "## Verilator builds, default config (cold: no object cache, -j2)"
start=$(date +%s)
verilator --cc -O3 --top-module by_mesh -F "$tmp/default/rtl/filelist.f" -Mdir "$tmp/vl" \
  --build -j 2 -CFLAGS "-O2" >/dev/null
echo "- verilator --cc --build (by_mesh, default): $(( $(date +%s) - start )) s"
start=$(date +%s)
verilator --cc -O3 --top-module by_accelerator -F "$tmp/default/rtl/filelist.f" -Mdir "$tmp/vla" \
  --build -j 2 -CFLAGS "-O2" >/dev/null
echo "- verilator --cc --build (by_accelerator, default): $(( $(date +%s) - start )) s"
echo
echo "## Verilator simulation speed: bare 16x16 mesh and whole accelerator (single thread)"
fi
if want verilator || want cosim; then
mesh_line="$("$root/build/bench/bench_mesh" 2000000)"
echo "- $mesh_line"
mesh_rate="$(echo "$mesh_line" | sed -E 's/.* = ([0-9]+) cycles\/s.*/\1/')"
fi
if want verilator; then
accel_out="$("$root/build/bench/bench_accel_matmul")"
echo "$accel_out" | sed 's/^/    /'
accel_rate="$(echo "$accel_out" | sed -nE 's/.*s wall, ([0-9]+) cycles\/s.*/\1/p')"
echo "- whole accelerator / bare mesh simulation speed: $(awk -v a="$accel_rate" -v m="$mesh_rate" 'BEGIN { printf "%.2f", a / m }')"
echo
fi
if want td; then
echo "## TensorDash: speedup on the RTL against the model"
for c in td_l4 td_l16; do
  "$root/build/bench/bench_td_speedup_$c"
done
echo
fi
# The co-simulation runs share one simulator cache under the build tree (built on first use).
export BRICKYARD_CACHE_DIR="$root/build/bench-sim-cache"
# cosim_speed STATS.json: the co-simulation speed of a run, next to the bare mesh's (above).
cosim_speed() {
  /usr/bin/python3 - "$1" "$mesh_rate" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); mesh = float(sys.argv[2]); a = s["accelerator"]
busy = a["counters"]["exec_active_cycles"] / a["clocked_cycles"]
print(f"- accelerator: {a['clocked_cycles']:,} clocked cycles (array busy {busy:.0%}) in "
      f"{a['wall_seconds']:.2f} s = {a['clocked_cycles_per_second']:,.0f} cycles/s; bare mesh "
      f"(above): {mesh:,.0f} cycles/s; **ratio {a['clocked_cycles_per_second'] / mesh:.2f}**")
print(f"- whole run: {s['simulated']['cycles']:,} simulated cycles, {s['host']['instructions']:,} host "
      f"instructions in {s['wall']['seconds']:.2f} s = {s['wall']['host_instructions_per_second']:,.0f} "
      f"host instructions/s, {s['wall']['simulated_cycles_per_second']:,.0f} simulated cycles/s")
PY
}
if want cosim; then
echo "## Co-simulation: the default accelerator's RTL in the SoC, 256x256x256 matmul (matmul_long)"
"$by" sim --config "$root/configs/default.yaml" --quiet --stats "$tmp/cosim.json" \
  "$root/build/sw/default/matmul_long.elf" | tail -n 3 | sed 's/^/    /'
cosim_speed "$tmp/cosim.json"
echo
echo "## Driver kernels on the default accelerator's RTL (bench/driver_kernels.c)"
"$by" sim --config "$root/configs/default.yaml" --quiet --stats "$tmp/kernels.json" \
  "$root/build/baremetal/default/driver_kernels.elf" | sed 's/^/    /'
cosim_speed "$tmp/kernels.json"
echo
fi
if want loops; then
# The loop unrollers (issue 16): the driver's 512^3 matmul and 3x3 conv on the default RTL (the
# same ELF, which reads HW_FEATURES) before the issue (no unrollers, 16 DMA requests in flight:
# the host issues every command), with LOOP_WS alone (16 in flight) and as configured now
# (configs/default.yaml: LOOP_WS, LOOP_CONV_WS and 32 in flight), then the loops alone without
# a host and what bounds them.
echo "## Loop unrollers: 512x512x512 matmul and 3x3 conv on the default accelerator's RTL, host CPI 1.0"
sed 's/^  max_inflight: .*/  max_inflight: 16/; s/^  conv: true/  conv: false/' \
  "$root/configs/default.yaml" >"$tmp/default_if16.yaml"
sed 's/^  ws: true/  ws: false/' "$tmp/default_if16.yaml" >"$tmp/default_before.yaml"
for v in "before (no unrollers, dma.max_inflight: 16):|$tmp/default_before.yaml" \
  "LOOP_WS alone (dma.max_inflight: 16):|$tmp/default_if16.yaml" \
  "configs/default.yaml (LOOP_WS, LOOP_CONV_WS, dma.max_inflight: 32):|$root/configs/default.yaml"; do
  echo "- ${v%%|*}"
  "$by" sim --config "${v#*|}" --quiet "$root/build/baremetal/default/driver_kernels.elf" |
    grep -E '^(matmul|conv)' | sed 's/^/    /'
done
echo "- the 32 loops alone (bench/loop_matmul.cpp), DRAM 100 cycles / 16 B per cycle, then 20"
echo "  cycles, then 64 B per cycle:"
"$root/build/bench/bench_loop_matmul" | sed 's/^/    /'
"$root/build/bench/bench_loop_matmul" 512 512 512 4 8 32 --latency 20 | sed -n 2,3p | sed 's/^/    /'
"$root/build/bench/bench_loop_matmul" 512 512 512 4 8 32 --bytes-per-cycle 64 | sed -n 2,3p |
  sed 's/^/    /'
echo "- the conv's loops alone (bench/loop_conv.cpp): the driver's tiles (4 rows x 32 channels),"
echo "  4 x 32 without the bias, 2 x 64, 8 x 16:"
for a in "56 64 64 4 32" "56 64 64 4 32 --no-bias" "56 64 64 2 64" "56 64 64 8 16"; do
  # shellcheck disable=SC2086 # a is a word list
  "$root/build/bench/bench_loop_conv" $a | sed -n 1,4p | sed 's/^/    /'
done
echo
fi
if want lanes; then
echo "## Vector PEs at equal peak MACs: the driver's matmul on lanes4 and dense8 (bench/driver_matmul.c)"
for c in configs/lanes4.yaml testbenches/configs/dense8.yaml; do
  n="$(basename "$c" .yaml)"
  echo "- $c:"
  "$by" sim --config "$root/$c" --quiet "$root/build/baremetal-bench/$n/driver_matmul.elf" | \
    sed 's/^/    /'
  # The same config with a 10x faster host (soc.host_cpi_tenths: 1): what the host's command
  # issue costs.
  sed 's/^soc:/soc:\n  host_cpi_tenths: 1/' "$root/$c" >"$tmp/${n}_fast.yaml"
  echo "- $c with soc.host_cpi_tenths: 1:"
  "$by" sim --config "$tmp/${n}_fast.yaml" --quiet "$root/build/baremetal-bench/$n/driver_matmul.elf" | \
    sed 's/^/    /'
done
echo
fi
if want boveda; then
echo "## Boveda: footprint of a trained int8 network's tensors, and the memory-bound layer"
/usr/bin/python3 "$root/bench/boveda/train_int8_net.py" "$tmp/net" | tail -n 2 | sed 's/^/    /'
"$root/build/bench/bench_boveda_footprint" "$tmp/net"
"$root/build/bench/bench_boveda_layer" "$tmp/net"
echo
echo "## TensorDash on the whole accelerator: td8 on/off against the model, default at equal peak MACs"
echo "- bench_td_accel_td8:"
"$root/build/bench/bench_td_accel_td8" "$tmp/net"
echo "- bench_td_accel_default (dense, the same peak MACs):"
"$root/build/bench/bench_td_accel_default" "$tmp/net"
echo
fi
if want td-area; then
words="$(sed -n 's/^ *rows_per_word: *\([0-9]*\).*/\1/p' "$root/configs/td8.yaml")"
echo "## TensorDash area: td8 against td8 without TensorDash, with one-row and with ${words}-row scratchpad words (brickyard synth, whole accelerator)"
dense() { sed -e "s/^name: td8\$/name: $1/" -e '/tensordash:/,/enabled:/s/enabled: true/enabled: false/' \
  -e "s/rows_per_word: [0-9]*/rows_per_word: $2/" "$root/configs/td8.yaml"; }
dense td8_dense 1 >"$tmp/td8_dense.yaml"
dense td8_dense_words "$words" >"$tmp/td8_dense_words.yaml"
for c in "$tmp/td8_dense.yaml" "$tmp/td8_dense_words.yaml" "$root/configs/td8.yaml"; do
  n="$(basename "$c" .yaml)"
  "$by" gen "$c" -o "$tmp/$n" --quiet
  "$by" synth "$tmp/$n" >/dev/null
done
/usr/bin/python3 - "$words" "$tmp"/{td8_dense,td8_dense_words,td8}/reports/synth.json <<'PY'
import collections, json, sys
words = sys.argv[1]
reports = [json.load(open(p)) for p in sys.argv[2:5]]
dense, dense_w, td = (r["design"] for r in reports)
rows = [("transistors, whole accelerator", "transistors"),
        ("of which SRAM macros", "sram_transistors"),
        ("of which logic", "logic_transistors"), ("cells", "cells")]
print(f"| | dense (`rows_per_word` 1) | dense, {words}-row words | TensorDash | overhead |")
print("|---|---:|---:|---:|---:|")
for name, key in rows:
    d, w, t = dense[key], dense_w[key], td[key]
    print(f"| {name} | {d:,} | {w:,} | {t:,} | {100 * (t / d - 1):+.1f}% |")
def per_module(report):  # own transistors of all instances, per module name
    totals = collections.Counter()
    for m in report["modules"]:
        totals[m["module"].split(" ")[0]] += m["own_transistors"] * m["instances"]
    return totals
a, b = per_module(reports[0]), per_module(reports[2])
print()
print("| module | dense | TensorDash | added |")
print("|---|---:|---:|---:|")
for k in sorted(set(a) | set(b), key=lambda k: -abs(b[k] - a[k])):
    if abs(b[k] - a[k]) >= 1000:
        print(f"| `{k}` | {a[k]:,} | {b[k]:,} | {b[k] - a[k]:+,} |")
PY
fi
if want synth; then
echo "## Synthesis per module against the whole-design run (brickyard synth, -j 2)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# A config that differs from default only in its soc section (the same RTL).
sed 's/latency_cycles: 100/latency_cycles: 37/' "$root/configs/default.yaml" >"$tmp/default_soc.yaml"
ms() { local start; start=$(date +%s%N); "$@" >/dev/null; echo $(( ($(date +%s%N) - start) / 1000000 )); }
design() { /usr/bin/python3 - "$1/reports/synth.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["design"]
print(f"{d['cells']:,} cells, {d['transistors']:,} transistors")
PY
}
for c in "$root/configs/tiny.yaml" "$root/testbenches/configs/td_l4.yaml" "$root/configs/default.yaml"; do
  n="$(basename "$c" .yaml)"
  "$by" gen "$c" -o "$tmp/syn-$n" --quiet
  "$by" gen "$c" -o "$tmp/syn-$n-whole" --quiet
  whole=$(ms "$by" synth "$tmp/syn-$n-whole" --whole)
  cold=$(ms "$by" synth "$tmp/syn-$n" --cache-dir "$tmp/synth-cache-$n")
  echo "- $n: whole $((whole / 1000)) s ($(design "$tmp/syn-$n-whole")); per module, empty cache $((cold / 1000)) s ($(design "$tmp/syn-$n"))"
done
again=$(ms "$by" synth "$tmp/syn-default" --cache-dir "$tmp/synth-cache-default")
"$by" gen "$tmp/default_soc.yaml" -o "$tmp/syn-default_soc" --quiet
soc=$(ms "$by" synth "$tmp/syn-default_soc" --cache-dir "$tmp/synth-cache-default")
echo "- default again: ${again} ms; default with another soc section: ${soc} ms"
echo
fi
