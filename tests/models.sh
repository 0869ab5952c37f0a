#!/usr/bin/env bash
# The command runs each model its config names: the CM-1 router under `run`, METRO under `run` (MRP
# traffic), `yield` and `harvest`, the CS-2 under `run`, `app` and `cs2-names`; a command given another model's file says which command fits,
# with exit status 2.
set -eu
mppnet=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$mppnet" run "$src/configs/cm1.toml" --set machine.dims=6 --set traffic.vp_ratio=2 --out "$dir/cm1" > "$dir/cm1.txt"
grep -q "petit cycles" "$dir/cm1.txt"
grep -q '"petit_cycles"' "$dir/cm1/results.json"
# A config read from a pipe is parsed once, so its model is known without reading it a second time.
cat "$src/configs/cm1.toml" | "$mppnet" run /dev/stdin --set machine.dims=6 --out "$dir/pipe" > "$dir/pipe.txt"
grep -q '"petit_cycles"' "$dir/pipe/results.json"
"$mppnet" yield "$src/configs/metro-64.toml" --trials 200 --out "$dir/y" > "$dir/y.txt"
grep -q '"expected_faults_tolerated"' "$dir/y/yield.json"
test -s "$dir/y/yield.svg" && test -s "$dir/y/yield.png"
"$mppnet" harvest "$src/configs/metro-64.toml" --set run.harvest_trials=20 --out "$dir/h" > /dev/null
grep -q '"harvest"' "$dir/h/harvest.json"
# METRO runs FLAT24 over MRP under `run`: 64 nodes x 5 messages, every one acknowledged.
"$mppnet" run "$src/configs/metro-64.toml" --set metro.mrp.messages=5 --out "$dir/mrp" > "$dir/mrp.txt"
grep -q "messages delivered *320 of 320" "$dir/mrp.txt"
grep -q '"io_bandwidth_utilisation"' "$dir/mrp/results.json"
# With masked faulty packages and two barrier phases: every message still acknowledged.
"$mppnet" run "$src/configs/metro-64.toml" --set metro.mrp.messages=5 --set metro.mrp.phases=2 \
  --set faults.packages=4 --out "$dir/mrpf" > "$dir/mrpf.txt"
grep -q "messages delivered *640 of 640" "$dir/mrpf.txt"
grep -q '"network_complete": true' "$dir/mrpf/results.json"
# The CS-2 runs traffic under `run` and names its parts under cs2-names; a bad traffic key exits 2.
"$mppnet" cs2-names "$src/configs/cs2-64.toml" --pe 0 --to 17 --out "$dir/cs2" > "$dir/cs2.txt"
grep -q "alternative 0: 5.4.1.0.1" "$dir/cs2.txt"
grep -q '"routes"' "$dir/cs2/names.json"
"$mppnet" run "$src/configs/cs2-64.toml" --set run.cycles=2000 --out "$dir/cs2run" > "$dir/cs2run.txt"
grep -q "MB/s per PE" "$dir/cs2run.txt"
grep -q '"accepted_mb_per_s_per_pe"' "$dir/cs2run/results.json"
grep -q "latency_avg_ns" "$dir/cs2run/results.csv"
# Node programs run on the CS-2 under `app` and check their result; requests and replies need two layers.
"$mppnet" app counter "$src/configs/cs2-64.toml" --out "$dir/cs2app" > "$dir/cs2app.txt"
grep -q "check: passed" "$dir/cs2app.txt"
grep -q "CS-2 64, 2 layers" "$dir/cs2app.txt"
set +e
# A METRO run stopped by metro.mrp.max_cycles with messages left is a failed run (exit status 1).
"$mppnet" run "$src/configs/metro-64.toml" --set metro.mrp.max_cycles=100 --out "$dir/mrp-short" > /dev/null 2> "$dir/err4.txt"
test $? -eq 1 && grep -q "metro.mrp.max_cycles (100) reached" "$dir/err4.txt" ||
  { echo "FAIL: a METRO run cut short by metro.mrp.max_cycles"; cat "$dir/err4.txt"; exit 1; }
# No complete network with half the packages faulty in one draw: reported, nothing run (exit status 1);
# more faulty packages than the network has is bad input (exit status 2).
"$mppnet" run "$src/configs/metro-64.toml" --set faults.packages=24 --set faults.max_draws=1 --out "$dir/mrp-cut" > /dev/null 2> "$dir/err5.txt"
test $? -eq 1 && grep -q "no complete network with 24 faulty packages" "$dir/err5.txt" ||
  { echo "FAIL: an incomplete METRO fault set"; cat "$dir/err5.txt"; exit 1; }
"$mppnet" run "$src/configs/metro-64.toml" --set faults.packages=49 --out "$dir/never" 2> "$dir/err6.txt"
test $? -eq 2 && grep -q "faults.packages: 49 faulty packages asked for; the network has 48" "$dir/err6.txt" ||
  { echo "FAIL: too many faulty METRO packages"; cat "$dir/err6.txt"; exit 1; }
"$mppnet" run "$src/configs/cs2-64.toml" --set traffic.load=2 --out "$dir/never" 2> "$dir/err2.txt"
test $? -eq 2 && grep -q "traffic.load" "$dir/err2.txt" || { echo "FAIL: bad key on a CS-2 run"; exit 1; }
"$mppnet" app counter "$src/configs/cs2-64.toml" --set machine.layers=1 --out "$dir/never" 2> "$dir/err3.txt"
test $? -eq 2 && grep -q "am.separate_vnets: requests and replies each take a layer" "$dir/err3.txt" ||
  { echo "FAIL: separate requests and replies on a one-layer CS-2"; cat "$dir/err3.txt"; exit 1; }
"$mppnet" sweep "$src/configs/metro-64.toml" --out "$dir/never" 2> "$dir/err.txt"
test $? -eq 2 && grep -q "use mppnet run, mppnet yield" "$dir/err.txt"
status=$?
"$mppnet" yield "$src/configs/mesh8x8.toml" 2> /dev/null
test $? -eq 2 && exit $status
exit 1
