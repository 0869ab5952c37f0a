#!/usr/bin/env bash
# scripts/bench.sh BUILD_DIR: the end-to-end speed table (one process per case), then the micro-benchmarks.
set -euo pipefail
build=${1:-build/release}
echo "| case | nodes | cycles | wall s | node-cycles/s | flit-hops/s | peak MB | accepted | target |"
echo "|---|---|---|---|---|---|---|---|---|"
for c in $("$build/mppnet_speed" --list); do
  "$build/mppnet_speed" "$c"
done
echo
"$build/mppnet_bench" --benchmark_min_time=0.2
