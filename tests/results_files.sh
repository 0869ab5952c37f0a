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
# Limits that allow days of simulation are pointed out before the run starts (it is then stopped here).
timeout 3 "$mppnet" run "$dir/small.toml" --set run.batch_cycles=2147483647 --out "$dir/long" 2> "$dir/long.err" > /dev/null || true
grep -q "note: the run.\* limits allow up to" "$dir/long.err"
# A load so light that nothing is measured says so instead of printing zeros as latencies.
"$mppnet" run "$dir/small.toml" --set traffic.rate=1e-7 --out "$dir/light" | grep -q "no packet was measured"
"$mppnet" run "$dir/small.toml" --out "$dir/b" > /dev/null
test -s "$dir/a/results.json"
test -s "$dir/a/results.csv"
jq -e '.peak_memory_bytes > 0 and .points[0].wall_seconds > 0 and .points[0].flit_hops > 0' "$dir/a/cost.json" > /dev/null
jq -e '.points[0].simulated_cycles > 0 and .points[0].flit_hops > 0' "$dir/a/results.json" > /dev/null
cmp "$dir/a/results.json" "$dir/b/results.json"
grep -q '"seed": 7' "$dir/a/results.json"
grep -q '"mppnet_version"' "$dir/a/results.json"
grep -q '"buffer_flits"' "$dir/a/results.json"   # the full config, defaults included

# A saturated point: its reason quotes one batch's mean latency, which the CSV has as
# last_batch_latency_avg beside latency_avg (the mean of all latency_packets packets) and the table's note
# names both, so that the two numbers do not read as a contradiction.
"$mppnet" run "$dir/small.toml" --set traffic.rate=0.9 --out "$dir/sat" > "$dir/sat.txt"
col() { awk -F, -v want="$1" 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == want) c = i } NR == 2 { print $c }' "$dir/sat/results.csv"; }
test "$(col saturated)" = 1
reason=$(jq -r '.points[0].saturation_reason' "$dir/sat/results.json")
if [[ "$reason" == *"mean latency of a"* ]]; then
  quoted=$(sed -n 's/.*batch, \([0-9.]*\) cycles.*/\1/p' <<< "$reason")
  test "$(printf '%.1f' "$(col last_batch_latency_avg)")" = "$quoted" ||
    { echo "reason quotes $quoted, CSV last_batch_latency_avg $(col last_batch_latency_avg)"; exit 1; }
fi
test "$(col latency_packets)" = "$(jq '.points[0].packets_measured' "$dir/sat/results.json")"
grep -q "the table's latency $(printf '%.1f' "$(col latency_avg)") is the mean of all $(col latency_packets) packets" "$dir/sat.txt" ||
  { echo "the table's note does not explain latency_avg:"; cat "$dir/sat.txt"; exit 1; }
"$mppnet" run "$dir/small.toml" --set run.seed=8 --out "$dir/c" > /dev/null
if cmp -s "$dir/a/results.json" "$dir/c/results.json"; then echo "the seed changed nothing"; exit 1; fi
"$mppnet" sweep "$dir/small.toml" --out "$dir/s" > "$dir/s.txt"
test "$(grep -c '^ *0\.[123] ' "$dir/s.txt")" -eq 3
# Complete plots: an SVG ends with </svg>, a PNG starts with its signature and ends with its IEND chunk.
valid_plots() {
  tail -c 32 "$1/latency.svg" | tr -d ' \n' | grep -q '</svg>$' &&
    [ "$(head -c 8 "$1/latency.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
    [ "$(tail -c 8 "$1/latency.png" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ]
}
valid_plots "$dir/s" || { echo "incomplete plots"; exit 1; }
ls -a "$dir/s" | grep -q tmp && { echo "temporary file left behind"; exit 1; }
grep -q 'results: .*latency.svg, latency.png' "$dir/s.txt"

# Names reach gnuplot as data, never as code: a config file name and an --out path holding a quote and
# a gnuplot system() call run nothing, and the plots are still drawn. gnuplot would run them in its
# working directory, so the sweep runs from $dir and every directory below it is searched. A name with a
# newline (which could end a gnuplot string and start a command) is refused before any work, escaped.
evil=$'it\'s system("touch PWNED") #'
mkdir "$dir/$evil"
cp "$dir/small.toml" "$dir/$evil/$evil.toml"
for out in "$dir/plain" "$dir/$evil/out"; do
  status=0
  (cd "$dir" && "$mppnet" sweep "$dir/$evil/$evil.toml" --out "$out" > /dev/null) || status=$?
  test -z "$(find "$dir" -name 'PWNED*')" || { echo "a file name ran a command (--out $out)"; exit 1; }
  test "$status" -eq 0 || { echo "sweep --out $out: exit status $status"; exit 1; }
  valid_plots "$out" || { echo "incomplete plots under a hostile name (--out $out)"; exit 1; }
done
newline=$'it\'s\nsystem("touch PWNED")\n#'
mkdir "$dir/$newline"
cp "$dir/small.toml" "$dir/$newline/$newline.toml"
status=0
(cd "$dir" && "$mppnet" sweep "$dir/$newline/$newline.toml" --out "$dir/nl" > /dev/null 2> "$dir/nl.err") || status=$?
test "$status" -eq 2 || { echo "a name with a newline: exit status $status, not 2"; exit 1; }
grep -qF 'it'"'"'s\x0asystem' "$dir/nl.err" || { echo "the refusal does not escape the name: $(cat "$dir/nl.err")"; exit 1; }
test ! -e "$dir/nl" && test -z "$(find "$dir" -name 'PWNED*')" || { echo "a name with a newline ran"; exit 1; }
echo ok

# Commands whose result is one record write it as CSV too: the same figures as the JSON.
src=$2
"$mppnet" run "$src/configs/cm1.toml" --set machine.dims=6 --out "$dir/cm1" > /dev/null
head -1 "$dir/cm1/results.csv" | tr ',' '\n' | grep -qx petit_cycles
col=$(head -1 "$dir/cm1/results.csv" | tr ',' '\n' | grep -nx petit_cycles | cut -d: -f1)
[ "$(sed -n 2p "$dir/cm1/results.csv" | cut -d, -f"$col")" = "$(jq .petit_cycles "$dir/cm1/results.json")" ] ||
  { echo "FAIL: results.csv and results.json of a CM-1 run disagree on petit_cycles"; exit 1; }
"$mppnet" app counter "$dir/small.toml" --out "$dir/app" > /dev/null
[ "$(head -1 "$dir/app/app_counter_phases.csv")" = "phase,slowest_node_ps,mean_ps,max_ps" ]
head -1 "$dir/app/app_counter.csv" | tr ',' '\n' | grep -qx time_ps
echo "cm1 and app CSV: ok"
