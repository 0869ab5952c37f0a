#!/usr/bin/env bash
# A run writes results.json and results.csv; the same config and seed give byte-identical JSON; a sweep
# also draws latency.svg and latency.png.
set -eu
mppnet=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/small.toml" <<'TOML'
[topology]
kind = "mesh"
k = 4
n = 2
[traffic]
rate = 0.2
[run]
seed = 7
warmup_cycles = 500
batch_cycles = 500
min_batches = 4
max_batches = 8
[sweep]
from = 0.1
to = 0.3
step = 0.1
TOML
"$mppnet" run "$dir/small.toml" --out "$dir/a" > "$dir/a.txt"
"$mppnet" run "$dir/small.toml" --out "$dir/b" > /dev/null
test -s "$dir/a/results.json"
test -s "$dir/a/results.csv"
jq -e '.peak_memory_bytes > 0 and .points[0].wall_seconds > 0 and .points[0].flit_hops > 0' "$dir/a/cost.json" > /dev/null
jq -e '.points[0].simulated_cycles > 0 and .points[0].flit_hops > 0' "$dir/a/results.json" > /dev/null
cmp "$dir/a/results.json" "$dir/b/results.json"
grep -q '"seed": 7' "$dir/a/results.json"
grep -q '"mppnet_version"' "$dir/a/results.json"
grep -q '"buffer_flits"' "$dir/a/results.json"   # the full config, defaults included
"$mppnet" run "$dir/small.toml" --set run.seed=8 --out "$dir/c" > /dev/null
if cmp -s "$dir/a/results.json" "$dir/c/results.json"; then echo "the seed changed nothing"; exit 1; fi
"$mppnet" sweep "$dir/small.toml" --out "$dir/s" > "$dir/s.txt"
test "$(grep -c '^ *0\.[123] ' "$dir/s.txt")" -eq 3
head -c 8 "$dir/s/latency.png" | od -An -c | grep -q 'P   N   G'
grep -q '<svg' "$dir/s/latency.svg"
ls -a "$dir/s" | grep -q tmp && { echo "temporary file left behind"; exit 1; }
echo ok
