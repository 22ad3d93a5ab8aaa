#!/usr/bin/env bash
# Test of bench/gemmini_suite/run.sh (ctest gemmini_suite_harness): the harness on this stand-in
# for a gemmini-rocc-tests checkout (bareMetalC/: programs of our own, one per outcome) on tiny's
# functional model. Its table must say, for each program, what the program does: exit status 1
# (failures), each row's built / exit / result / message, and cycles and wall time as numbers
# where it ran. Usage: check.sh BRICKYARD OUTDIR (absolute)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
rc=0
# Run from OUTDIR's parent with relative paths for the checkout and -o, as a user would.
mkdir -p "$(dirname "$2")"
cd "$(dirname "$2")"
BRICKYARD="$1" "$root/bench/gemmini_suite/run.sh" "$(realpath --relative-to=. "$here")" \
  --config tiny -j 2 -o "$(basename "$2")" >/dev/null || rc=$?
[[ $rc -eq 1 ]] || { echo "run.sh exited $rc, want 1 (some programs fail)"; exit 1; }
# Cycles and wall time vary with the driver, line numbers in gemmini.h with its edits: checked
# for their form, then masked.
got="$(awk -F' [|] ' '/^[|] [a-z_]+ [|] (yes|no) / {
  ran = $2 == "yes"
  if (ran != ($5 ~ /^[1-9][0-9]*$/) || ran != ($6 ~ /^[0-9]+\.[0-9]$/)) print "BAD TIMES: " $0
  $5 = $6 = "-"; print }' OFS=' | ' "$2/results.md" | sed -E 's/(gemmini[a-z_]*\.h):[0-9]+:[0-9]+/\1:L:C/')"
want="| mvin_copy | yes | 0 | PASS | - | - |  |
| wrong_answer | yes | 1 | FAIL | - | - | Wrong (x: 3) |
| no_such_api | no |  | FAIL | - | - | no_such_api.c:5: undefined reference to \`BY_GEMMINI_RESADD_CPU_3' |
| bad_args | no |  | FAIL | - | - | gemmini.h:L:C: error: static assertion failed: \"gemmini_config_ex takes (dataflow, act, sys_shift) or Gemmini\\'s older 4- and 5-argument forms\" |
| mvin_scale | yes | 0 | SKIP | - | - | skipped itself: no HAS_MVIN_SCALE or HAS_MVIN_ACC_SCALE |"
if [[ $got != "$want" ]]; then
  echo "results.md rows differ:"
  diff <(echo "$want") <(echo "$got") || true
  exit 1
fi
grep -qx "1 passed, 1 skipped (pass), 3 failed of 5" "$2/results.md" || { echo "bad summary line"; exit 1; }
echo "gemmini_suite harness: ok"
