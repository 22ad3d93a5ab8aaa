#!/usr/bin/env bash
# Gemmini's own bareMetalC suite on Brickyard (docs/driver.md "Gemmini's own suite"): builds
# each program of a gemmini-rocc-tests checkout against the gemmini.h compatibility layer, runs
# it under `brickyard sim` and writes a Markdown table of the results.
#
# Usage: bench/gemmini_suite/run.sh GEMMINI_ROCC_TESTS [--config NAME|FILE] [--model func|rtl]
#          [-j N] [-o OUTDIR] [--max-cycles N] [--timeout SECONDS] [PROGRAM...]
# PROGRAMs default to the `tests` list of bareMetalC/Makefile. OUTDIR (default
# build/gemmini_suite/<config>-<model>) gets gen/ (brickyard gen), build/ (the ELFs), logs/ and
# results.md. Needs riscv64-unknown-elf-gcc and a built brickyard ($BRICKYARD, default
# build/bin/brickyard). Exit status: 0 if every program passed, 1 if any failed, 2 on bad usage.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
usage() { sed -n '6,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "gemmini_suite: $*" >&2; exit 2; }

[[ $# -ge 1 && $1 != -* ]] || usage
gemmini="$(cd "$1" 2>/dev/null && pwd)" || die "no directory '$1'"
shift
[[ -f $gemmini/bareMetalC/Makefile ]] || die "$gemmini has no bareMetalC/Makefile (not a gemmini-rocc-tests checkout)"
config=default model=func jobs=1 out='' max_cycles=2000000000 timeout=3600 programs=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --config) config=${2:?}; shift 2 ;;
    --model) model=${2:?}; shift 2 ;;
    -j) jobs=${2:?}; shift 2 ;;
    -o) out=${2:?}; shift 2 ;;
    --max-cycles) max_cycles=${2:?}; shift 2 ;;
    --timeout) timeout=${2:?}; shift 2 ;;
    -h | --help) usage ;;
    -*) die "unknown option $1" ;;
    *) programs+=("$1"); shift ;;
  esac
done
[[ $model == func || $model == rtl ]] || die "--model must be func or rtl, not '$model'"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "-j wants a positive number, not '$jobs'"
if [[ -f $config ]]; then
  cfg_file="$(cd "$(dirname "$config")" && pwd)/$(basename "$config")"
elif [[ -f $root/configs/$config.yaml ]]; then
  cfg_file=$root/configs/$config.yaml
elif [[ -f $root/testbenches/configs/$config.yaml ]]; then
  cfg_file=$root/testbenches/configs/$config.yaml
else
  die "--config '$config': neither a file, configs/$config.yaml nor testbenches/configs/$config.yaml"
fi
cfg_name="$(basename "$cfg_file" .yaml)"
out="${out:-$root/build/gemmini_suite/$cfg_name-$model}"
by="${BRICKYARD:-$root/build/bin/brickyard}"
[[ -x $by ]] || die "no brickyard at $by (build it: scripts/build.sh brickyard, or set BRICKYARD)"
# The programs of bareMetalC/Makefile: the backslash-continued `tests = ...` list.
mapfile -t all < <(awk '/^tests *=/ {on = 1; next} on && /^[ \t]*$/ {exit}
  on {gsub(/[\\ \t]/, ""); if ($0 != "") print}' "$gemmini/bareMetalC/Makefile")
[[ ${#programs[@]} -gt 0 ]] || programs=("${all[@]}")
for p in "${programs[@]}"; do
  [[ -f $gemmini/bareMetalC/$p.c ]] || die "no program $gemmini/bareMetalC/$p.c"
done
mkdir -p "$out/logs"
out="$(cd "$out" && pwd)" # absolute: cmake and the runs below work in other directories

# The generated headers; kept when nothing in them changed (so nothing is rebuilt): the whole
# tree is compared, since a newer generator writes other headers for the same config.
"$by" gen "$cfg_file" -o "$out/gen.new" --quiet
if [[ -d $out/gen ]] && diff -rq "$out/gen" "$out/gen.new" >/dev/null; then
  rm -rf "$out/gen.new"
else
  rm -rf "$out/gen" && mv "$out/gen.new" "$out/gen"
fi

# Build: one make run that keeps going past failures; a program whose ELF is missing is built
# again alone, so that its log holds its own errors.
list="$(IFS=,; echo "${programs[*]}")"
cmake -S "$here" -B "$out/build" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE= \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/riscv64-toolchain.cmake" -DBY_SOURCE_DIR="$root" \
  -DBY_GEN_DIR="$out/gen" -DGEMMINI_DIR="$gemmini" -DGEMMINI_PROGRAMS="$list" >"$out/logs/cmake.log" 2>&1 ||
  { cat "$out/logs/cmake.log" >&2; die "configuring the build failed"; }
echo "building ${#programs[@]} programs for $cfg_name ..." >&2
cmake --build "$out/build" -j "$jobs" -- -k >"$out/logs/build.log" 2>&1 || true
for p in "${programs[@]}"; do
  rm -f "$out/logs/$p".{build.log,out,err,rc,json,wall}
  [[ -f $out/build/$p.elf ]] ||
    cmake --build "$out/build" --target "$p" >"$out/logs/$p.build.log" 2>&1 || true
done

# Run each built program; per program: .out (console), .err, .rc, .json (--stats), .wall.
run_one() {
  local p=$1 start end rc=0
  start=$(date +%s.%N)
  timeout "$timeout" "$by" sim --config "$cfg_file" --model "$model" --quiet \
    --max-cycles "$max_cycles" --stats "$out/logs/$p.json" "$out/build/$p.elf" \
    >"$out/logs/$p.out" 2>"$out/logs/$p.err" </dev/null || rc=$?
  end=$(date +%s.%N)
  echo "$rc" >"$out/logs/$p.rc"
  echo "$start $end" | awk '{printf "%.1f\n", $2 - $1}' >"$out/logs/$p.wall"
  echo "  $p: exit $rc" >&2
}
export -f run_one
export by cfg_file model max_cycles timeout out
echo "running on --model $model, $jobs at a time ..." >&2
for p in "${programs[@]}"; do
  if [[ -f $out/build/$p.elf ]]; then echo "$p"; fi
done | xargs -r -P "$jobs" -I{} bash -c 'run_one "$@"' _ {}

/usr/bin/python3 "$here/table.py" --out "$out" --params "$out/gen/include/gemmini_params.h" \
  --title "Gemmini bareMetalC on $cfg_name, --model $model" "${programs[@]}"
