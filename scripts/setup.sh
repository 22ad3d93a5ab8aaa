#!/usr/bin/env bash
# Installs every Debian 12 package Brickyard needs. Idempotent and non-interactive: packages
# already installed are not touched, and nothing is downloaded when all are present.
#   scripts/setup.sh           what the build, the tests and the demo need
#   scripts/setup.sh --bench   also what the benchmarks need (bench/run.sh: python3-torch and
#                              python3-torchvision to export torchvision networks and
#                              train the small network whose tensors the evaluations use)
set -euo pipefail

packages=(
  # build
  build-essential cmake ccache git pkg-config
  # RTL tools
  verilator iverilog yosys zlib1g-dev
  # C++ libraries
  libyaml-cpp-dev nlohmann-json3-dev libgtest-dev googletest libboost-dev libfmt-dev
  libboost-filesystem-dev libcli11-dev
  libsystemc-dev libunicorn-dev libonnx-dev libprotobuf-dev protobuf-compiler
  # bare-metal RISC-V toolchain
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
  # scripts and plots
  python3 python3-numpy python3-matplotlib python3-onnx
  # brickyard sweep --slurm: its test starts a single-node Slurm (label slurm)
  slurm-wlm munge
)
if [ "${1:-}" = "--bench" ]; then
  packages+=(python3-torch python3-torchvision)
elif [ $# -gt 0 ]; then
  echo "usage: scripts/setup.sh [--bench]" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages are installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "setup: run as root (missing: ${missing[*]})" >&2; exit 1; }
  sudo=sudo
fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
