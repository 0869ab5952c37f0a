#!/usr/bin/env bash
# The showcase of `make demo`: a 1,024-node CM-5 as the paper describes it (Leiserson et al. 1992).
# Usage: scripts/demo.sh MPPNET_BINARY OUT_DIR
set -euo pipefail
mppnet=$1
out=$2
echo "== 1. The CM-5 data network: what a node can send, by how far its messages go (docs/cm5.md)"
"$mppnet" run configs/cm5-1024.toml --out "$out/cm5-bandwidth"
echo
echo "== 2. A node program on the same 1,024-node CM-5: every node fetch-and-adds a counter on node 0"
echo "   (active messages, requests on the left side, replies on the right, the CM-5's software costs)"
"$mppnet" app counter configs/cm5-1024.toml --out "$out/cm5-counter"
echo
echo "== 3. Another: 8 rounds of random permutations of 32-byte blocks"
"$mppnet" app permutation configs/cm5-1024.toml --out "$out/cm5-permutation"
echo
echo "Plots: $out/cm5-bandwidth/bandwidth.svg (and .png). Everything measured is in the results.json and"
echo "app_*.json files beside them; \`mppnet validate\` compares every reproduced claim with its source."
