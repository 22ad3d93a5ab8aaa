#!/usr/bin/env bash
# Sets everything up, builds, and runs the test suite (everything but the `slow` label).
# Pass ctest arguments to narrow it, e.g. scripts/test.sh -L rtl. The slow tests:
#   scripts/test.sh -L slow
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
jobs="$(nproc 2>/dev/null || echo 2)"
if [ $# -eq 0 ]; then
  set -- -LE slow
elif [[ " $* " == *" slow "* || " $* " == *"-L slow"* ]]; then
  "$root/scripts/build.sh" slow_tests # slow tests are not part of the default build
fi
ctest --test-dir "$root/build" --output-on-failure -j "$jobs" "$@"
