#!/usr/bin/env bash
# scripts/setup.sh [--fuzz]: installs the Debian packages mppnet needs, and nothing when they are all
# present. --fuzz adds clang and its libFuzzer runtime (make fuzz).
set -euo pipefail
packages=(build-essential cmake ninja-build libcli11-dev libtomlplusplus-dev nlohmann-json3-dev libfmt-dev
          libgtest-dev libgmock-dev libbenchmark-dev gnuplot-nox jq clang-format ccache
          # The T1's MIPS programs (examples/t1/) are built with the cross compiler, and the instruction-set
          # simulator's tests compare it with qemu-mips (docs/t1.md).
          gcc-mips-linux-gnu binutils-mips-linux-gnu qemu-user)
if [ "${1:-}" = "--fuzz" ]; then
  packages+=(clang libclang-rt-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
