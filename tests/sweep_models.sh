#!/usr/bin/env bash
# `mppnet sweep` drives every model (app/model_sweep.hpp): a tiny sweep of the CM-1 with --seeds 2, the
# CM-5, METRO's yield and harvest, an application on a small network and the network with --seeds 2. Each
# must exit 0, write sweep.csv (one row per point, the swept key first, NAME_ci95 beside each field with
# two or more seeds), sweep_runs.csv (one row per run) and sweep.json, give values derived independently
# where there is one, and write the same sweep.csv again on a rerun. Bad input is one line, exit status 2,
# and no output directory. Under the sanitizers (MPPNET_SANITIZED=1) only the CM-1 part and the input
# errors run (tests/golden.sh has the convention).
set -u
mppnet=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }

# sweep NAME ARGS...: runs `mppnet sweep ARGS --out $dir/NAME` twice; both must exit 0 with one sweep.csv.
sweep() {
  local name=$1
  shift
  if ! "$mppnet" sweep "$@" --out "$dir/$name" > "$dir/$name.txt" 2>&1; then
    bad "$name: mppnet sweep $* exited with status $?"; sed 's/^/  /' "$dir/$name.txt"; return 1
  fi
  if ! "$mppnet" sweep "$@" --out "$dir/$name.again" > /dev/null 2>&1; then bad "$name: the rerun failed"; return 1; fi
  cmp -s "$dir/$name/sweep.csv" "$dir/$name.again/sweep.csv" || bad "$name: sweep.csv differs on a rerun"
  test -s "$dir/$name/sweep.json" || bad "$name: no sweep.json"
}
lines() { wc -l < "$1" | tr -d ' '; }
header() { head -1 "$1"; }
# column FILE NAME: the values of column NAME, one a line (mppnet's CSV quotes no cell of these tables).
column() {
  awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } c { print $c }' "$1"
}

# CM-1, a 6-cube of 16-processor chips (1,024 processors), VP ratio 1 and 2, two seeds each.
if sweep cm1 "$src/configs/cm1.toml" --set machine.dims=6 --sweep traffic.vp_ratio=1,2 --seeds 2; then
  csv=$dir/cm1/sweep.csv runs=$dir/cm1/sweep_runs.csv
  [ "$(lines "$csv")" = 3 ] || bad "cm1: sweep.csv has $(lines "$csv") lines, expected a header and 2 points"
  [ "$(lines "$runs")" = 5 ] || bad "cm1: sweep_runs.csv has $(lines "$runs") lines, expected a header and 4 runs"
  header "$csv" | grep -q '^traffic.vp_ratio,.*,petit_cycles,petit_cycles_ci95,' || bad "cm1: header $(header "$csv")"
  header "$runs" | grep -q '^traffic.vp_ratio,seed,' || bad "cm1: runs header $(header "$runs")"
  [ "$(column "$runs" seed | tr '\n' ' ')" = "1 2 1 2 " ] || bad "cm1: seeds $(column "$runs" seed | tr '\n' ' ')"
  # Every processor sends one message per VP: 2^6 chips x 16 processors x the VP ratio, whatever the seed.
  [ "$(column "$csv" messages | tr '\n' ' ')" = "1024 2048 " ] || bad "cm1: messages $(column "$csv" messages | tr '\n' ' ')"
  [ "$(column "$csv" messages_ci95 | tr '\n' ' ')" = "0 0 " ] || bad "cm1: messages_ci95 $(column "$csv" messages_ci95)"
  # Two seeds: the mean of a and b, and the half width t(0.975, 1) |a - b| / 2 with t = 12.7062.
  read -r a b <<< "$(column "$runs" petit_cycles | head -2 | tr '\n' ' ')"
  want=$(awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; printf "%.6f %.6f", (a + b) / 2, 12.7062 * d / 2 }')
  got=$(awk -F, -v m="$(column "$csv" petit_cycles | head -1)" -v c="$(column "$csv" petit_cycles_ci95 | head -1)" \
    'BEGIN { printf "%.6f %.6f", m, c }')
  [ "$want" = "$got" ] || bad "cm1: VP ratio 1 petit cycles mean and ci95 $got, expected $want from the runs $a and $b"
  test -s "$dir/cm1/points/traffic.vp_ratio=2/seed-2/results.json" || bad "cm1: no results.json of the point's run"
  grep -q '"swept_key": "traffic.vp_ratio"' "$dir/cm1/sweep.json" || bad "cm1: sweep.json names no swept key"
fi

# expect NAME TEXT ARGS...: `mppnet sweep ARGS` exits 2 with one line on stderr holding TEXT and leaves no --out.
expect() {
  local name=$1 text=$2
  shift 2
  "$mppnet" sweep "$@" --out "$dir/err-$name" > /dev/null 2> "$dir/err-$name.txt"
  local status=$?
  [ $status = 2 ] || bad "$name: exit status $status, expected 2"
  [ "$(lines "$dir/err-$name.txt")" = 1 ] || bad "$name: $(lines "$dir/err-$name.txt") lines on stderr, expected one"
  grep -qF -- "$text" "$dir/err-$name.txt" || bad "$name: stderr lacks \"$text\": $(cat "$dir/err-$name.txt")"
  [ ! -e "$dir/err-$name" ] || bad "$name: left an output directory"
}
cm1=$src/configs/cm1.toml metro=$src/configs/metro-64.toml
expect unknown_key "no such key in model \"cm1\" (did you mean traffic.vp_ratio?)" "$cm1" --sweep traffic.vp_ration=1,2
expect other_model "run.words: a key of cm5 configs, not of this file's model \"cm1\"" "$cm1" --sweep run.words=1,2
expect bad_value "--sweep traffic.vp_ratio=0,1: traffic.vp_ratio: the sweep's value 0:" "$cm1" --sweep traffic.vp_ratio=0,1
expect bad_word "the sweep's value det: unknown value \"det\"" "$metro" --sweep metro.wiring=det,random
expect app_on_metro "model \"metro\"" "$metro" --app counter --sweep metro.wiring=random
expect command_on_cm1 "model \"cm1\" has no commands for a sweep to run" "$cm1" --command yield --sweep traffic.vp_ratio=1
expect no_such_command "expected yield or harvest" "$metro" --command design --sweep metro.wiring=random
expect app_key "add --app NAME" "$cm1" --sweep app.counter_increments=1
expect seed_twice "--seeds sets run.seed itself" "$cm1" --sweep run.seed=1,2 --seeds 2

if [ "${MPPNET_SANITIZED:-0}" = 1 ]; then exit $fail; fi

# CM-5, 32 nodes, 1- and 5-word messages (short windows: the figures are not the point here).
if sweep cm5 "$src/configs/cm5-32.toml" --sweep run.words=1:5:4 --set run.warmup_cycles=500 \
  --set run.measure_cycles=2000; then
  [ "$(lines "$dir/cm5/sweep.csv")" = 3 ] || bad "cm5: $(lines "$dir/cm5/sweep.csv") lines, expected 3"
  header "$dir/cm5/sweep.csv" | grep -q '^run.words,.*locality.0.raw_mb_s' || bad "cm5: header $(header "$dir/cm5/sweep.csv")"
  header "$dir/cm5/sweep.csv" | grep -q '_ci95' && bad "cm5: interval columns without --seeds"
fi

# METRO yield over the wiring, few trials; the network has 48 packages (3 stages of 16, configs/metro-64.toml).
# A METRO sweep runs `mppnet run` (MRP traffic) unless --command names a study.
if sweep metro "$metro" --command yield --sweep metro.wiring=deterministic,random --set run.trials=40; then
  [ "$(header "$dir/metro/sweep.csv")" = \
    "metro.wiring,ci95_half_width,expected_faults_tolerated,fault_units,instance_stddev,percent_network,std_error,stddev" ] ||
    bad "metro: header $(header "$dir/metro/sweep.csv")"
  [ "$(column "$dir/metro/sweep.csv" metro.wiring | tr '\n' ' ')" = "deterministic random " ] || bad "metro: points"
  [ "$(column "$dir/metro/sweep.csv" fault_units | tr '\n' ' ')" = "48 48 " ] || bad "metro: fault units"
  test -s "$dir/metro/points/metro.wiring=random/yield.json" || bad "metro: no yield.json of the point's run"
fi
if sweep harvest "$metro" --command harvest --sweep metro.wiring=deterministic,random --set run.harvest_trials=5; then
  [ "$(column "$dir/harvest/sweep.csv" packages | tr '\n' ' ')" = "48 48 " ] || bad "harvest: packages"
fi

# An application on a 4 x 4 mesh: the shared counter ends at nodes x increments (its own check).
cat > "$dir/mesh4.toml" <<'TOML'
[topology]
kind = "mesh"
k = 4
n = 2
[run]
seed = 3
warmup_cycles = 300
batch_cycles = 300
min_batches = 3
max_batches = 6
TOML
if sweep app "$dir/mesh4.toml" --app counter --sweep app.counter_increments=2,4; then
  [ "$(column "$dir/app/sweep.csv" metrics.final_counter | tr '\n' ' ')" = "32 64 " ] ||
    bad "app: final counter $(column "$dir/app/sweep.csv" metrics.final_counter | tr '\n' ' '), expected 16 x 2, 16 x 4"
  [ "$(column "$dir/app/sweep.csv" passed | tr '\n' ' ')" = "1 1 " ] || bad "app: self-check"
fi

# The network model with --seeds 2: a mean and an interval per point; the offered load is the rate.
if sweep net "$dir/mesh4.toml" --sweep traffic.rate=0.1:0.2:0.1 --seeds 2; then
  csv=$dir/net/sweep.csv
  [ "$(lines "$csv")" = 3 ] && [ "$(lines "$dir/net/sweep_runs.csv")" = 5 ] || bad "net: row counts"
  header "$csv" | grep -q ',latency_avg,latency_avg_ci95,' || bad "net: header $(header "$csv")"
  [ "$(column "$csv" offered | tr '\n' ' ')" = "0.1 0.2 " ] || bad "net: offered $(column "$csv" offered | tr '\n' ' ')"
  # Without --seeds the network's own sweep runs: results.csv, not sweep.csv.
  "$mppnet" sweep "$dir/mesh4.toml" --sweep traffic.rate=0.1:0.2:0.1 --out "$dir/own" > /dev/null 2>&1 &&
    test -s "$dir/own/results.csv" && test ! -e "$dir/own/sweep.csv" || bad "net: the network's own sweep changed"
fi

exit $fail
