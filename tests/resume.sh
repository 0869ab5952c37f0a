#!/usr/bin/env bash
# A killed sweep (the network's own and a model sweep), yield, harvest or validate resumes: rerun with the same command and --out, it skips what its
# journal (<out>/.partial/<command>) says was done and writes results byte-identical to an uninterrupted
# run; the journal is gone afterwards. A changed config in that directory is refused with exit status 2
# and one line naming the change, and leaves the journal to resume.
set -eu
mppnet=$1
src=$2
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$dir"' EXIT

# interrupt SIGNAL FILE COMMAND...: starts COMMAND, and sends it SIGNAL as soon as FILE exists (the first
# finished point, batch or case). Fails if FILE never appears or the command finished before the signal.
interrupt() {
  local signal=$1 file=$2 out
  shift 2
  "$@" > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 3000); do
    [ -e "$file" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.02
  done
  kill -s "$signal" "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=
  [ -e "$file" ] || { echo "FAIL: $file never appeared (no journal?)"; exit 1; }
  out=$(dirname "$(dirname "$(dirname "$file")")")
  [ -d "$out/.partial" ] || { echo "FAIL: $* finished before the kill; give it more work"; exit 1; }
}

# same A B FILES...: every named file byte-identical in directories A and B.
same() {
  local a=$1 b=$2 f
  shift 2
  for f in "$@"; do
    cmp "$a/$f" "$b/$f" || { echo "FAIL: $f of the resumed run differs"; exit 1; }
  done
}

# Sanitized builds run 20-50 times slower: shorter batches there still leave time for each kill.
sanitized=${MPPNET_SANITIZED:-0}
cycles=2000
[ "$sanitized" = 1 ] && cycles=500
cat > "$dir/mesh.toml" <<TOML
[topology]
kind = "mesh"
k = 16
n = 2
[traffic]
rate = 0.1
[run]
seed = 7
warmup_cycles = $cycles
batch_cycles = $cycles
min_batches = 20
max_batches = 20
TOML
sweep=(sweep "$dir/mesh.toml" --sweep traffic.rate=0.02:0.12:0.02)

# Sweep: killed after its first point, refused with another seed, then resumed.
"$mppnet" "${sweep[@]}" --out "$dir/sweep-whole" > "$dir/sweep-whole.txt"
interrupt KILL "$dir/sweep/.partial/sweep/point-0000.json" "$mppnet" "${sweep[@]}" --out "$dir/sweep"
kept=$(ls "$dir/sweep/.partial/sweep" | grep -c '^point-')
[ "$kept" -lt 6 ] || { echo "FAIL: all 6 points were kept before the kill"; exit 1; }
echo "sweep: killed with $kept of 6 points journaled"
status=0
"$mppnet" "${sweep[@]}" --set run.seed=8 --out "$dir/sweep" > /dev/null 2> "$dir/refused.txt" || status=$?
[ "$status" -eq 2 ] || { echo "FAIL: a changed seed in the same directory exited $status, not 2"; exit 1; }
[ "$(wc -l < "$dir/refused.txt")" -eq 1 ] || { echo "FAIL: the refusal is not one line:"; cat "$dir/refused.txt"; exit 1; }
grep -q 'config.run.seed: 7 before, 8 now); use another --out, or delete .*/sweep/.partial' "$dir/refused.txt" ||
  { echo "FAIL: the refusal does not name the change:"; cat "$dir/refused.txt"; exit 1; }
[ "$(ls "$dir/sweep/.partial/sweep" | grep -c '^point-')" -eq "$kept" ] ||
  { echo "FAIL: the refusal touched the journal"; exit 1; }
"$mppnet" "${sweep[@]}" --out "$dir/sweep" > "$dir/sweep.txt" 2> "$dir/sweep.err"
grep -q "resuming: $kept of 6 points were done" "$dir/sweep.err" || { echo "FAIL: no resume:"; cat "$dir/sweep.err"; exit 1; }
same "$dir/sweep-whole" "$dir/sweep" results.json results.csv latency.svg
cmp <(grep -v '^simulated\|^results:' "$dir/sweep-whole.txt") <(grep -v '^simulated\|^results:' "$dir/sweep.txt") ||
  { echo "FAIL: the printed table differs"; exit 1; }
[ ! -e "$dir/sweep/.partial" ] || { echo "FAIL: the journal was left behind"; exit 1; }
jq -e ".points_resumed == $kept and (.points | length) == 6 - $kept" "$dir/sweep/cost.json" > /dev/null ||
  { echo "FAIL: cost.json does not cover only the points run after the resume"; exit 1; }

# A model sweep (a list of values, --seeds): killed after its first run, then resumed to the same bytes.
seeds=(sweep "$dir/mesh.toml" --sweep traffic.rate=0.02,0.06,0.1 --seeds 2)
"$mppnet" "${seeds[@]}" --out "$dir/seeds-whole" > "$dir/seeds-whole.txt"
interrupt KILL "$dir/seeds/.partial/sweep/run-0000-0000.json" "$mppnet" "${seeds[@]}" --out "$dir/seeds"
echo "seeds sweep: killed with $(ls "$dir/seeds/.partial/sweep" | grep -c '^run-') of 6 runs journaled"
"$mppnet" "${seeds[@]}" --out "$dir/seeds" > "$dir/seeds.txt" 2> "$dir/seeds.err"
grep -q "resuming:" "$dir/seeds.err" || { echo "FAIL: the model sweep did not resume"; cat "$dir/seeds.err"; exit 1; }
same "$dir/seeds-whole" "$dir/seeds" sweep.json sweep.csv sweep_runs.csv
cmp <(grep -v '^results:' "$dir/seeds-whole.txt") <(grep -v '^results:' "$dir/seeds.txt") ||
  { echo "FAIL: the model sweep printed another table"; exit 1; }
[ ! -e "$dir/seeds/.partial" ] || { echo "FAIL: the model sweep's journal was left behind"; exit 1; }
# A malformed record is run again, never a raw exception.
interrupt KILL "$dir/seeds2/.partial/sweep/run-0000-0000.json" "$mppnet" "${seeds[@]}" --out "$dir/seeds2"
echo '{"status": "x"}' > "$dir/seeds2/.partial/sweep/run-0000-0000.json"
"$mppnet" "${seeds[@]}" --out "$dir/seeds2" > /dev/null 2> "$dir/seeds2.err" ||
  { echo "FAIL: a malformed record stopped the sweep:"; cat "$dir/seeds2.err"; exit 1; }
same "$dir/seeds-whole" "$dir/seeds2" sweep.json sweep.csv sweep_runs.csv

# Yield: killed after its first batch of trials, then resumed (a fifth of the trials when sanitized).
trials=4000
[ "$sanitized" = 1 ] && trials=800
yield=(yield "$src/configs/metro-1024.toml" --trials $trials)
"$mppnet" "${yield[@]}" --out "$dir/yield-whole" > /dev/null
interrupt KILL "$dir/yield/.partial/yield/instance0-batch0.json" "$mppnet" "${yield[@]}" --out "$dir/yield"
echo "yield: killed with $(ls "$dir/yield/.partial/yield" | grep -c '^instance') of 50 batches journaled"
status=0
"$mppnet" yield "$src/configs/metro-1024.toml" --trials $((trials - 1)) --out "$dir/yield" > /dev/null 2>&1 || status=$?
[ "$status" -eq 2 ] || { echo "FAIL: yield with other --trials in the same directory exited $status, not 2"; exit 1; }
"$mppnet" "${yield[@]}" --out "$dir/yield" > /dev/null 2> "$dir/yield.err"
grep -q "resuming:" "$dir/yield.err" || { echo "FAIL: yield did not resume"; exit 1; }
same "$dir/yield-whole" "$dir/yield" yield.json yield.csv yield.svg
[ ! -e "$dir/yield/.partial" ] || { echo "FAIL: the yield journal was left behind"; exit 1; }

# Harvest: the same, killed with SIGKILL after its first batch.
harvest=(harvest "$src/configs/metro-1024.toml" --set run.harvest_trials=300)
"$mppnet" "${harvest[@]}" --out "$dir/harvest-whole" > /dev/null
interrupt KILL "$dir/harvest/.partial/harvest/instance0-level0-batch0.json" "$mppnet" "${harvest[@]}" --out "$dir/harvest"
echo "harvest: killed with $(ls "$dir/harvest/.partial/harvest" | grep -c '^instance') of 50 batches journaled"
"$mppnet" "${harvest[@]}" --out "$dir/harvest" > /dev/null 2> "$dir/harvest.err"
grep -q "resuming:" "$dir/harvest.err" || { echo "FAIL: harvest did not resume"; exit 1; }
same "$dir/harvest-whole" "$dir/harvest" harvest.json harvest.csv harvest.svg
[ ! -e "$dir/harvest/.partial" ] || { echo "FAIL: the harvest journal was left behind"; exit 1; }
# Validate: stopped with SIGTERM after its first case, then resumed. Four of the slower fast cases (each
# about 0.1 s here, minutes under the sanitizers for the whole --fast set) leave time for the signal.
cases=(cm1.e5.patterns_within_8v cm1.e4.within_pattern_load_bound_v1 cm5.v22.left_right_finishes
  cm1.e9.seven_vs_two_rows_wire_use)
# The runs use 3, 1 and 2 threads: the output is the same for any number.
"$mppnet" validate "${cases[@]}" --jobs 3 --out "$dir/validate-whole" > "$dir/validate-whole.txt"
interrupt TERM "$dir/validate/.partial/validate/case-0000.json" "$mppnet" validate "${cases[@]}" --jobs 1 \
  --out "$dir/validate"
echo "validate: stopped with $(ls "$dir/validate/.partial/validate" | grep -c '^case-') of 4 cases journaled"
"$mppnet" validate "${cases[@]}" --jobs 2 --out "$dir/validate" > "$dir/validate.txt" 2> "$dir/validate.err"
grep -q "resuming:" "$dir/validate.err" || { echo "FAIL: validate did not resume"; exit 1; }
same "$dir/validate-whole" "$dir/validate" validation.json validation.csv validation.md
cmp "$dir/validate-whole.txt" "$dir/validate.txt" || { echo "FAIL: validate printed another table"; exit 1; }
[ ! -e "$dir/validate/.partial" ] || { echo "FAIL: the validate journal was left behind"; exit 1; }
echo ok
