#!/usr/bin/env bash
# Plotting failures are reported, not hidden: a plot gnuplot left incomplete fails the run naming the file;
# a missing gnuplot is a note (results still written, exit 0); a kill during plotting leaves no temporary
# file; the latency.gp left beside the plot names the final files, so it can be run again.
set -u
mppnet=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }

cat > "$dir/small.toml" <<'TOML'
[topology]
kind = "mesh"
k = 4
n = 2
[run]
seed = 7
warmup_cycles = 500
batch_cycles = 500
min_batches = 4
max_batches = 8
[sweep]
from = 0.1
to = 0.2
step = 0.1
TOML

# Stand-ins for gnuplot, first in PATH. Each finds its output names in the script it is given, as gnuplot
# would, and writes what a full disk leaves behind: an SVG cut short, an empty PNG.
mkdir "$dir/truncating" "$dir/hanging"
cat > "$dir/truncating/gnuplot" <<'SH'
#!/bin/sh
for f in $(sed -n "s/^set output '\(.*\)'$/\1/p" "$1"); do
  case $f in *svg*) printf '<?xml version="1.0"?>\n<svg width="800"' > "$f" ;; *) : > "$f" ;; esac
done
exit 0
SH
# This one writes partial files, says it has started, then never finishes.
cat > "$dir/hanging/gnuplot" <<'SH'
#!/bin/sh
for f in $(sed -n "s/^set output '\(.*\)'$/\1/p" "$1"); do printf '<svg' > "$f"; done
: > "$MARK"
exec sleep 30
SH
chmod +x "$dir/truncating/gnuplot" "$dir/hanging/gnuplot"

# Leftovers: anything in the output directory besides the result files.
# The journal of finished points (.partial) stays after a failed or killed plot, so that a rerun resumes.
leftovers() { ls -A "$1" | grep -v -x -E 'results\.(json|csv)|cost\.json|latency\.(dat|gp|svg|png)|\.partial|\.mppnet-files\.json'; }

# 1. gnuplot exits 0 but its files are incomplete: exit 1, the file named, no plot claimed, nothing left.
err=$(PATH="$dir/truncating:$PATH" "$mppnet" sweep "$dir/small.toml" --out "$dir/t" 2>&1 >"$dir/t.txt")
status=$?
[ "$status" -eq 1 ] || bad "truncated plot: exit status $status, want 1 ($err)"
[[ "$err" == *"$dir/t/latency.svg"* && "$err" == *"</svg>"* ]] || bad "truncated plot: stderr '$err'"
grep -q 'latency.svg' "$dir/t.txt" && bad "truncated plot: reported as written: $(cat "$dir/t.txt")"
[ -e "$dir/t/latency.svg" ] && bad "truncated plot: latency.svg kept"
[ -s "$dir/t/results.json" ] || bad "truncated plot: results.json not written"
[ -z "$(leftovers "$dir/t")" ] || bad "truncated plot: left $(leftovers "$dir/t")"

# 2. No gnuplot anywhere in PATH: a note on stderr, exit 0, results and the script still written.
err=$(PATH="$dir/nowhere" "$mppnet" sweep "$dir/small.toml" --out "$dir/n" 2>&1 >"$dir/n.txt")
status=$?
[ "$status" -eq 0 ] || bad "no gnuplot: exit status $status, want 0 ($err)"
[[ "$err" == *"gnuplot not found"* ]] || bad "no gnuplot: stderr '$err' lacks the note"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || bad "no gnuplot: more than one line: $err"
[ -s "$dir/n/results.json" ] && [ -s "$dir/n/latency.gp" ] && [ -s "$dir/n/latency.dat" ] ||
  bad "no gnuplot: results or script missing: $(ls -A "$dir/n")"
[ -e "$dir/n/latency.svg" ] && bad "no gnuplot: a plot appeared"
grep -q 'latency.svg' "$dir/n.txt" && bad "no gnuplot: plot reported as written"
[ -z "$(leftovers "$dir/n")" ] || bad "no gnuplot: left $(leftovers "$dir/n")"

# 3. The script left beside the plot draws the final files again, from its own directory.
(cd "$dir/n" && gnuplot latency.gp) || bad "latency.gp does not run again"
for want in "^set output 'latency.svg'$" "^set output 'latency.png'$" "^plot 'latency.dat' index 0 "; do
  grep -q "$want" "$dir/n/latency.gp" || bad "latency.gp lacks $want: $(cat "$dir/n/latency.gp")"
done
grep -q -E 'mppnet-tmp|mppnet-plot' "$dir/n/latency.gp" && bad "latency.gp names a temporary: $(cat "$dir/n/latency.gp")"
tail -c 32 "$dir/n/latency.svg" | tr -d ' \n' | grep -q '</svg>$' || bad "latency.gp rerun: incomplete SVG"

# 4. Killed while gnuplot runs (SIGTERM to mppnet alone; SIGINT to its process group, as a terminal's
# Ctrl-C): it dies of the signal and leaves no temporary file or directory behind.
set -m  # each background job in its own process group, with SIGINT not ignored
for sig in TERM INT; do
  out="$dir/k$sig"
  rm -f "$dir/mark"
  MARK="$dir/mark" PATH="$dir/hanging:$PATH" "$mppnet" sweep "$dir/small.toml" --out "$out" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 300); do [ -e "$dir/mark" ] && break; sleep 0.1; done
  [ -e "$dir/mark" ] || bad "kill $sig: gnuplot never started"
  if [ "$sig" = TERM ]; then kill -TERM "$pid"; else kill -INT -- "-$pid"; fi
  wait "$pid"
  status=$?
  want=$((128 + $(kill -l "$sig")))
  [ "$status" -eq "$want" ] || bad "kill $sig: exit status $status, want $want"
  [ -z "$(leftovers "$out")" ] || bad "kill $sig: left $(leftovers "$out")"
  [ -e "$out/latency.svg" ] && bad "kill $sig: a partial latency.svg"
done
set +m

# 5. A gnuplot that never finishes is stopped at --plot-timeout: exit 1, said, nothing left behind.
start=$(date +%s)
err=$(MARK="$dir/mark5" PATH="$dir/hanging:$PATH" "$mppnet" sweep "$dir/small.toml" --out "$dir/h" \
  --plot-timeout 1 2>&1 > /dev/null)
status=$?
[ "$status" -eq 1 ] || bad "hanging gnuplot: exit status $status, want 1 ($err)"
[[ "$err" == *"did not finish within 1 s"* ]] || bad "hanging gnuplot: stderr '$err'"
[ $(($(date +%s) - start)) -lt 25 ] || bad "hanging gnuplot: not stopped at the time-out"
[ -z "$(leftovers "$dir/h")" ] || bad "hanging gnuplot: left $(leftovers "$dir/h")"
exit $fail
