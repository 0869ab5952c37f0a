#!/usr/bin/env bash
# No output path destroys what is not mppnet's: a device, FIFO or link given as --out or planted in an
# output folder is refused with exit status 2 before any work and left as it was; a planted .partial link
# never makes a sweep delete what it points to; an empty --out is refused; inputs that never end (an
# endless device, a FIFO with no writer) are refused with a message; a second run into a folder another
# run holds refuses; a run into a folder of an earlier run removes that run's files it does not write
# and says so; a killed plot's hidden folder is cleaned by the rerun; the memory check honours ulimit -v. Device nodes are made with mknod in
# a temporary folder, never a real /dev path.
set -eu
mppnet=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

fail() {
  echo "FAIL: $*"
  exit 1
}
# refused WHY COMMAND...: the command exits 2 and says WHY on stderr.
refused() {
  local why=$1 status=0
  shift
  "$@" > "$dir/out.txt" 2> "$dir/err.txt" || status=$?
  [ "$status" = 2 ] || fail "$* exited $status, not 2: $(cat "$dir/err.txt")"
  grep -qF -- "$why" "$dir/err.txt" || fail "$*: no '$why' in: $(cat "$dir/err.txt")"
}

cat > "$dir/mesh.cfg" <<'CFG'
topology = mesh;
k = 4;
n = 2;
injection_rate = 0.1;
CFG
cat > "$dir/small.toml" <<'TOML'
[topology]
kind = "mesh"
k = 4
n = 2
[traffic]
rate = 0.1
[run]
seed = 3
warmup_cycles = 300
batch_cycles = 300
min_batches = 3
max_batches = 6
TOML

# A character device as --out (the device of /dev/full, made here): refused, and still a device.
if mknod "$dir/full" c 1 7 2> /dev/null; then
  refused "is a character device" "$mppnet" import booksim "$dir/mesh.cfg" --out "$dir/full"
  [ -c "$dir/full" ] || fail "the device node was replaced"
fi
mkfifo "$dir/fifo"
refused "is a FIFO" "$mppnet" import booksim "$dir/mesh.cfg" --out "$dir/fifo"
[ -p "$dir/fifo" ] || fail "the FIFO was replaced"
echo keep > "$dir/precious"
ln -s "$dir/precious" "$dir/link.toml"
refused "is a symbolic link" "$mppnet" import booksim "$dir/mesh.cfg" --out "$dir/link.toml"
[ "$(cat "$dir/precious")" = keep ] || fail "written through a link"
refused "an empty path" "$mppnet" import booksim "$dir/mesh.cfg" --out ""
refused "an empty path" "$mppnet" run "$dir/small.toml" --out ""

# A link planted as a result file in an output folder: refused before the run, the target untouched.
mkdir "$dir/planted"
ln -s "$dir/precious" "$dir/planted/results.json"
refused "results.json: is a symbolic link" "$mppnet" run "$dir/small.toml" --out "$dir/planted"
[ "$(cat "$dir/precious")" = keep ] || fail "written through a planted link"

# A .partial link: the sweep refuses, and what it points to (here a folder named sweep) is kept.
mkdir -p "$dir/partial" "$dir/target/sweep"
echo years > "$dir/target/sweep/thesis.tex"
ln -s "$dir/target" "$dir/partial/.partial"
refused ".partial: is a symbolic link" "$mppnet" sweep "$dir/small.toml" --sweep traffic.rate=0.1,0.2 \
  --out "$dir/partial"
[ -f "$dir/target/sweep/thesis.tex" ] || fail "the sweep deleted what .partial pointed to"

# Inputs that never end: an endless device stops at the size limit, a FIFO without a writer times out.
if mknod "$dir/zero" c 1 5 2> /dev/null; then
  refused "larger than the input limit of 1 MiB" "$mppnet" run "$dir/zero" --max-input-mb 1
fi
mkfifo "$dir/config-fifo"
refused "no data within 0.3 s" "$mppnet" run "$dir/config-fifo" --input-timeout 0.3
refused "larger than the input limit" "$mppnet" run "$dir/small.toml" --max-input-mb 0.00001
# Arguments with control characters or bytes that are not UTF-8 are refused before any work, escaped.
refused 'has a control character' "$mppnet" run "$dir/small.toml" --out "$dir/new$(printf '\033')line"
refused 'bytes that are not UTF-8' "$mppnet" run "$dir/small.toml" --out "$dir/caf$(printf '\351')"
grep -qF '\x1b' "$dir/err.txt" 2> /dev/null || grep -qF '\xe9' "$dir/err.txt" || fail "not escaped: $(cat "$dir/err.txt")"
# A config read through a pipe that has a writer works.
"$mppnet" run <(cat "$dir/small.toml") --out "$dir/piped" > /dev/null || fail "a config from a pipe"

# One run's files in one folder: a sweep's plots do not stay beside a later run's results.
"$mppnet" sweep "$dir/small.toml" --sweep traffic.rate=0.1:0.2:0.1 --out "$dir/shared" > /dev/null
[ -f "$dir/shared/results.json" ] || fail "the sweep wrote no results.json"
echo mine > "$dir/shared/notes.txt"
"$mppnet" run "$dir/small.toml" --out "$dir/shared" > /dev/null 2> "$dir/err.txt"
if command -v gnuplot > /dev/null; then
  [ ! -e "$dir/shared/latency.svg" ] || fail "the sweep's plot stayed beside the run's results"
  grep -q "removed .* file(s) an earlier run wrote into" "$dir/err.txt" || fail "no word of the removal"
fi
[ "$(cat "$dir/shared/notes.txt")" = mine ] || fail "a file no run wrote was removed"

# A model sweep over fewer values removes the points of the earlier sweep it does not run again.
mkdir "$dir/cm1"
printf '[machine]\nmodel = "cm1"\ndims = 6\n' > "$dir/cm1.toml"
"$mppnet" sweep "$dir/cm1.toml" --sweep traffic.vp_ratio=1,2 --out "$dir/cm1" > /dev/null 2>&1 || fail "a CM-1 sweep"
[ -f "$dir/cm1/points/traffic.vp_ratio=2/results.json" ] || fail "no second point: $(ls -R "$dir/cm1")"
"$mppnet" sweep "$dir/cm1.toml" --sweep traffic.vp_ratio=1 --out "$dir/cm1" > /dev/null 2> "$dir/err.txt" || fail "a CM-1 sweep"
[ ! -e "$dir/cm1/points/traffic.vp_ratio=2" ] || fail "a stale point of the earlier sweep was left"
grep -q "removed .* file(s)" "$dir/err.txt" || fail "no word of the stale point's removal"

# Integers in sweep.json never pass through double: 2^53 + 1 stays itself.
"$mppnet" sweep "$dir/small.toml" --sweep run.seed=9007199254740993,3 --out "$dir/bigseed" > /dev/null
grep -q '"value": 9007199254740993,' "$dir/bigseed/sweep.json" || fail "a swept integer went through double"

# A killed run's hidden plot folder and temporary file are cleaned by the next run into the folder.
mkdir "$dir/shared/.latency.mppnet-plot-AbCd1234"
echo half > "$dir/shared/.latency.mppnet-plot-AbCd1234/latency.svg"
echo half > "$dir/shared/.results.json.mppnet-tmp-XyZw9876"
"$mppnet" run "$dir/small.toml" --out "$dir/shared" > /dev/null
[ ! -e "$dir/shared/.latency.mppnet-plot-AbCd1234" ] || fail "a killed plot's folder was left"
[ ! -e "$dir/shared/.results.json.mppnet-tmp-XyZw9876" ] || fail "a killed write's temporary was left"

# Two runs into one folder at once: while one holds the folder (here flock(1), the lock mppnet takes),
# another refuses clearly.
mkdir "$dir/busy"
refused "another mppnet run is writing into this folder" flock "$dir/busy" "$mppnet" run "$dir/small.toml" \
  --out "$dir/busy"
# Memory: the address-space limit (ulimit -v) bounds what a network may take, and is named when it does
# (this 4-ary 9-tree needs about 2.7 GB: within the host's memory, beyond a 1 GB address space).
printf '[topology]\nkind = "fat_tree"\nchildren = 4\nn = 9\n' > "$dir/tree9.toml"
# AddressSanitizer reserves terabytes of address space and cannot start under ulimit -v: release only.
if [ "${MPPNET_SANITIZED:-0}" != 1 ]; then
  refused "the address-space limit (ulimit -v) leaves" bash -c 'ulimit -v 1000000 && exec "$0" "$@"' \
    "$mppnet" run "$dir/tree9.toml" --out "$dir/tree9"
  [ ! -e "$dir/tree9" ] || fail "a refused run left its folder"
fi
refused "run.max_memory_gb: 1000000 GB is more than the" "$mppnet" run "$dir/tree9.toml" \
  --set run.max_memory_gb=1000000 --out "$dir/tree9"

# noted COMMAND...: starts the command, waits (60 s at most) for its note on stderr, then stops it.
noted() {
  "$@" > /dev/null 2> "$dir/err.txt" &
  local pid=$!
  for _ in $(seq 1 600); do
    grep -q "note:" "$dir/err.txt" && break
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.1
  done
  kill "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
}
# A Monte Carlo study that will take hours says so within seconds, from the rate of its first trials
# (10^7 yield trials on 4,096 nodes: hours of one core at full speed, more under the sanitizers).
noted "$mppnet" yield "$2/configs/metro-1024.toml" --set metro.stages=6 --trials 10000000 --out "$dir/long"
grep -q "yield trials take about .* hours in all" "$dir/err.txt" || fail "no note of a long study: $(cat "$dir/err.txt")"
# CM-5 message sets say before they start when their messages will take more than an hour.
noted "$mppnet" cm5-sets --nodes 16384 --copies 1024 --rounds 2047 --out "$dir/sets"
grep -q "these sets hold 150962176 messages, about 1.0 hours" "$dir/err.txt" ||
  fail "no note of long message sets: $(cat "$dir/err.txt")"

echo "file safety: all checks passed"
