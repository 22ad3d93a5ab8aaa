#!/usr/bin/env bash
# The installed brickyard without the source tree (label `cosim`): `cmake --install` into an
# empty prefix, then, in a mount namespace where the source tree and the build tree are hidden
# under empty tmpfs mounts (so that nothing can read them, whatever the binary tries) and with
# an empty cache, the installed brickyard runs a model on a shipped config by name
# (`run --config tiny`, functional model; the driver library is built from the sources embedded
# in it), evaluates it with its plots (`eval`, the plot scripts embedded) and generates the
# shipped config. The binary must also not name the source tree at all.
#
# Usage: install_test.sh SOURCE_DIR BUILD_DIR [WORK_DIR] (default: a new folder in /tmp; it must
# lie outside both trees, and is removed when the test passes). Needs root (the mount namespace), as
# slurm_test does; without it it fails, it never skips.
set -euo pipefail

src="$(realpath "$1")"
build="$(realpath "$2")"
work="${3:-$(mktemp -d /tmp/by-install-test.XXXXXX)}"

fail() {
  echo "install_test: FAIL: $*" >&2
  exit 1
}
step() { echo "install_test: $*"; }

[ "$(id -u)" = 0 ] || fail "must run as root (a mount namespace hides the source tree)"
command -v unshare >/dev/null || fail "unshare is not installed (Debian package util-linux)"

rm -rf "$work"
mkdir -p "$work"
work="$(realpath "$work")"
case "$work" in "$src"/* | "$build"/*) fail "WORK_DIR must be outside the source and build trees" ;; esac
prefix="$work/prefix"

step "cmake --install into the empty prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
[ -x "$prefix/bin/brickyard" ] || fail "no bin/brickyard in the prefix"
for c in "$src"/configs/*.yaml; do
  cmp -s "$c" "$prefix/share/brickyard/configs/$(basename "$c")" ||
    fail "share/brickyard/configs/$(basename "$c") is not configs/$(basename "$c")"
done
if strings "$prefix/bin/brickyard" | grep -qF "$src"; then
  fail "the installed binary names the source tree: $(strings "$prefix/bin/brickyard" | grep -F "$src" | head -3)"
fi

# What the runs read from the source tree, copied out before it is hidden.
mkdir -p "$work/inputs"
cp "$src/testbenches/compiler/models/mlp.onnx" "$src/testbenches/compiler/models/mlp.input.npy" \
  "$work/inputs/"

cat >"$work/hidden.sh" <<SCRIPT
set -euo pipefail
mount -t tmpfs none "$build" # first: it may lie inside the source tree
mount -t tmpfs none "$src"
[ ! -e "$src/CMakeLists.txt" ] && [ ! -e "$build/CMakeCache.txt" ] || { echo "not hidden"; exit 1; }
export HOME="$work/home" BRICKYARD_CACHE_DIR="$work/cache"
unset XDG_CACHE_HOME
mkdir -p "\$HOME"
cd "$work"
by="$prefix/bin/brickyard"
echo "== run --config tiny (functional model)"
"\$by" run inputs/mlp.onnx --config tiny --model func --input inputs/mlp.input.npy \
  --calib-random 2 --report run.json --quiet
echo "== eval --configs tiny with plots"
"\$by" eval inputs/mlp.onnx --configs tiny --model func --no-area --calib-random 2 -o eval \
  --input inputs/mlp.input.npy -j 1
echo "== gen of the shipped tiny"
"\$by" gen "$prefix/share/brickyard/configs/tiny.yaml" -o gen --quiet
SCRIPT
step "runs with the source tree ($src) and the build tree hidden"
unshare -m bash "$work/hidden.sh" >"$work/hidden.log" 2>&1 ||
  fail "a run without the source tree failed:
$(tail -n 30 "$work/hidden.log")"
cat "$work/hidden.log"

grep -q "output: bit-exact with the int8 reference" "$work/hidden.log" ||
  fail "run did not report a bit-exact output"
python3 - "$work" <<'PY' || fail "the run's record or eval's report is not as expected"
import json, sys, os
work = sys.argv[1]
run = json.load(open(os.path.join(work, "run.json")))
assert run["check"]["bit_exact"] and run["config"] == "tiny", run["check"]
rep = json.load(open(os.path.join(work, "eval", "report.json")))
c = rep["configs"][0]
assert c["name"] == "tiny" and c["status"] == "ok", c["status"]
assert c["source"].endswith("/prefix/share/brickyard/configs/tiny.yaml"), c["source"]
# The run eval made is the same program on the same input: the same cycles per layer.
assert [l["total_cycles"] for l in c["layers"]] == [l["cycles"] for l in run["layers"]]
for png in ("utilization.png", "cycles.png", "energy.png", "speedup.png", "dram_traffic.png"):
    p = os.path.join(work, "eval", png)
    assert os.path.getsize(p) > 1000, p
    assert open(p, "rb").read(8) == b"\x89PNG\r\n\x1a\n", p
PY
[ -f "$work/gen/manifest.json" ] || fail "gen wrote no manifest"
step "ok"
rm -rf "$work"
