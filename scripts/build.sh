#!/usr/bin/env bash
# Configures and builds Brickyard (Release) into build/. Usage: scripts/build.sh [targets]
# Without targets it builds everything, the tests included (20 to 40 minutes on 2 cores);
# `scripts/build.sh brickyard` builds the command alone (docs/BENCHMARKS.md, "First contact").
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="$(nproc 2>/dev/null || echo 2)"
export CCACHE_DIR="${CCACHE_DIR:-$root/.cache/ccache}"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" -j "$jobs" ${1:+--target "$@"}
