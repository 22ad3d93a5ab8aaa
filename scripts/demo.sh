#!/usr/bin/env bash
# Sets everything up, builds, and runs the full stack as far as it exists on the default
# config (16x16 int8): generate, lint, synthesize, and simulate the generated array against
# the golden model.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
config="${1:-$root/configs/default.yaml}"
out="$root/out/demo"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
by="$root/build/bin/brickyard"
echo "== brickyard gen"
"$by" gen "$config" -o "$out"
echo "== brickyard lint"
"$by" lint "$out"
echo "== brickyard synth"
"$by" synth "$out" | tail -n 4
echo "== RTL simulation of the generated mesh against the golden model (default config)"
"$root/scripts/build.sh" mesh_rtl_test_default >/dev/null
"$root/build/testbenches/rtl/mesh_rtl_test_default" --gtest_brief=1
echo "demo: done; outputs in $out"
