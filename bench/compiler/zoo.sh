#!/usr/bin/env bash
# The torchvision classification zoo on one config (issue 29): every CNN family of
# torchvision 0.14 with random seeded weights at 224x224, batch 1, compiled and run by
# `brickyard run` (bit-exact against the int8 reference), then a Markdown table of MACs, cycles,
# utilization, the CPU's share of the cycles and the agreement with torch's fp32 output.
#
#   bench/compiler/zoo.sh OUT_DIR [--config CONFIG] [--model rtl|func] [NET...]
#
# Exports the networks missing from OUT_DIR/models (bench/compiler/export_torchvision.py, needs
# scripts/setup.sh --bench), writes OUT_DIR/<net>.json (the run report), <net>.out.npy (its
# output), <net>.<model>.log and OUT_DIR/zoo.md (bench/compiler/zoo_table.py). Networks of more than 8 GMAC run on the
# functional model whatever --model says (the RTL co-simulation would take hours). A network
# that fails to compile or run is a FAIL row; the script exits 1 if there is one.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
out="$1"; shift
config=default model=rtl nets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --config) config="${2:?}"; shift 2 ;;
    --model) model="${2:?}"; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "zoo.sh: unknown option $1" >&2; usage ;;
    *) nets+=("$1"); shift ;;
  esac
done
case "$model" in rtl|func) ;; *) echo "zoo.sh: --model is rtl or func" >&2; exit 2 ;; esac
brickyard="${BRICKYARD:-$root/build/bin/brickyard}"
mkdir -p "$out/models" || exit 2
out="$(cd "$out" && pwd)"
if [ ${#nets[@]} -eq 0 ]; then
  mapfile -t nets < <(/usr/bin/python3 -c "import sys; sys.path.insert(0, '$here')
from export_torchvision import ZOO; print('\n'.join(ZOO))")
fi
missing=()
for n in "${nets[@]}"; do [ -f "$out/models/$n.output.npy" ] || missing+=("$n"); done
if [ ${#missing[@]} -gt 0 ]; then
  /usr/bin/python3 "$here/export_torchvision.py" "$out/models" "${missing[@]}" || exit 1
fi
failed=0
run() { # run NET MODEL REPORT [more options]: one brickyard run, its log kept
  local n="$1" m="$2" report="$3"; shift 3
  "$brickyard" run "$out/models/$n.onnx" --config "$config" --input "$out/models/$n.input.npy" \
      --model "$m" --calib-random 1 --report "$report" "$@" > "$out/$n.$m.log" 2>&1
}
for n in "${nets[@]}"; do
  start=$(date +%s)
  # The functional model first: the MACs, and the output (the same bits on the RTL: both are
  # checked against the int8 reference) for the agreement with torch.
  rm -f "$out/$n.json" "$out/$n.out.npy"
  run "$n" func "$out/$n.func.json" --out "$out/$n.out.npy"
  rc=$? m=func
  macs=$(/usr/bin/python3 -c "import json
print(sum(l['macs'] for l in json.load(open('$out/$n.func.json'))['layers']))" 2>/dev/null || echo 0)
  if [ $rc -eq 0 ] && [ "$model" = rtl ] && [ "$macs" -le 8000000000 ]; then
    run "$n" rtl "$out/$n.json"
    rc=$? m=rtl
    rm -f "$out/$n.func.json"
  else
    mv -f "$out/$n.func.json" "$out/$n.json" 2>/dev/null
  fi
  [ $rc -eq 0 ] || failed=1
  echo "$n: exit $rc on $m, $(( $(date +%s) - start )) s"
done
/usr/bin/python3 "$here/zoo_table.py" "$out" "${nets[@]}" > "$out/zoo.md.tmp" && mv "$out/zoo.md.tmp" "$out/zoo.md"
cat "$out/zoo.md"
exit $failed
