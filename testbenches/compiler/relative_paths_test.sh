#!/usr/bin/env bash
# Relative paths from another working directory (issue 29): `brickyard compile`, `run` and
# `eval` given the model, input and config by paths relative to a directory that is not the
# source tree, writing into output directories that do not exist yet. Each must succeed and
# write its files where the relative path points.
#   relative_paths_test.sh BRICKYARD SOURCE_DIR
set -euo pipefail
brickyard="$1" src="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/data" "$tmp/work/deeper"
cp "$src/testbenches/compiler/models/mlp.onnx" "$src/testbenches/compiler/models/mlp.input.npy" \
   "$tmp/data/"
cp "$src/configs/tiny.yaml" "$tmp/data/my_tiny.yaml"
cd "$tmp/work/deeper"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$brickyard" compile ../../data/mlp.onnx --config ../../data/my_tiny.yaml -o out/compiled \
    --calib-random 1 --quiet || fail "compile exit $?"
[ -f out/compiled/model.elf ] && [ -f out/compiled/plan.json ] || fail "compile wrote no model.elf"

"$brickyard" run ../../data/mlp.onnx --config ../../data/my_tiny.yaml \
    --input ../../data/mlp.input.npy --model func --calib-random 1 \
    --out results/y.npy --report results/report.json --quiet > run.log || fail "run exit $?"
[ -s results/y.npy ] && [ -s results/report.json ] || fail "run wrote no results"
grep -q "bit-exact" run.log || fail "run did not report its check"

"$brickyard" eval ../../data/mlp.onnx --configs ../../data/my_tiny.yaml \
    --input ../../data/mlp.input.npy --model func --calib-random 1 -o evaluation/mlp --no-area \
    > eval.log || fail "eval exit $?"
[ -s evaluation/mlp/report.md ] && [ -s evaluation/mlp/layers.csv ] || fail "eval wrote no report"
echo "relative paths: compile, run and eval from $PWD: ok"
