#!/usr/bin/env bash
# The exit statuses of README.md's table, each from the command line: 0 success, 1 a run or validation
# failed, 2 bad input, 3 deadlock detected, 4 CM-1 livelock timeout.
set -u
mppnet=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

# expect STATUS STDERR_SUBSTRING ARGS...
expect() {
  local want=$1 text=$2
  shift 2
  local err
  err=$("$mppnet" "$@" 2>&1 >/dev/null)
  local status=$?
  if [ "$status" -ne "$want" ]; then echo "FAIL $*: exit status $status, want $want ($err)"; fail=1; fi
  if [[ "$err" != *"$text"* ]]; then echo "FAIL $*: stderr '$err' lacks '$text'"; fail=1; fi
}

cat > "$dir/mesh.toml" <<'TOML'
[topology]
kind = "mesh"
k = 4
n = 2
[traffic]
rate = 0.1
[run]
warmup_cycles = 300
batch_cycles = 300
min_batches = 3
max_batches = 4
TOML
# A 4-ary 2-torus without dateline classes, one VC and packets four times longer than a buffer, at full
# load: every ring's channels wait on each other (as open_loop_test's negative control); the watchdog sees
# no flit move for 300 cycles.
cat > "$dir/deadlock.toml" <<'TOML'
[topology]
kind = "torus"
k = 4
n = 2
dateline = false
[router]
vcs = 1
buffer_flits = 2
[traffic]
packet_flits = 8
rate = 1.0
[run]
watchdog_cycles = 300
TOML
# A CM-1 with one heart row livelocks (docs/cm1.md: B = 1 at v = 1 times out); a small cube and no split
# retries keep it short.
cat > "$dir/livelock.toml" <<'TOML'
[machine]
model = "cm1"
dims = 6
procs_per_chip = 16
[cm1]
rows = 1
max_splits = 0
timeout_petit_cycles = 200
[traffic]
pattern = "random_function"
vp_ratio = 1
TOML
# A stand-in for gnuplot that exits 0 after writing an empty plot (as on a full disk): the run fails.
mkdir "$dir/bin"
printf '#!/bin/sh\nfor f in $(sed -n "s/^set output .\\(.*\\).$/\\1/p" "$1"); do : > "$f"; done\n' \
  > "$dir/bin/gnuplot"
chmod +x "$dir/bin/gnuplot"

expect 0 "" run "$dir/mesh.toml" --out "$dir/ok"
expect 0 "" --version
PATH="$dir/bin:$PATH" expect 1 "latency.svg" sweep "$dir/mesh.toml" --out "$dir/plot" \
  --sweep traffic.rate=0.1:0.2:0.1
printf '[router]\nvsc = 4\n' > "$dir/bad.toml"
expect 2 "bad.toml:2: router.vsc: unknown key" run "$dir/bad.toml" --out "$dir/bad"
expect 2 "" run                 # a missing argument is bad input too
expect 2 "" no-such-command
expect 3 "no flit moved for 300 cycles" run "$dir/deadlock.toml" --out "$dir/dl"
[ ! -e "$dir/dl" ] || { echo "FAIL: the deadlocked run left its output directory behind"; fail=1; }
expect 4 "livelock" run "$dir/livelock.toml" --out "$dir/ll"
exit $fail
