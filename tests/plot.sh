#!/usr/bin/env bash
# `mppnet plot` overlays runs in one figure: the legend and title name the key that differs, intervals and
# saturation are in the data, the script beside the figure draws it again from its own directory, published
# values are overlaid where they fit (CM-1 Fig. 12), and bad input is one line with exit status 2. Without
# gnuplot the data and the script are still written (exit 0); the rendering checks need gnuplot.
set -u
mppnet=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }

if ! "$mppnet" plot --help > /dev/null 2>&1; then
  echo "FAIL mppnet has no plot subcommand (src/app/cli.cpp must register app/plot_command.hpp)"
  exit 1
fi

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
to = 0.3
step = 0.1
TOML
"$mppnet" sweep "$dir/small.toml" --out "$dir/mesh" > /dev/null 2>&1 || bad "sweep mesh failed"
"$mppnet" sweep "$dir/small.toml" --set topology.kind=torus --out "$dir/torus" > /dev/null 2>&1 ||
  bad "sweep torus failed"

# 1. Two sweeps overlaid: the legend and the title name the key that differs; the data has both runs.
out=$(PATH="$dir/nowhere" "$mppnet" plot "$dir/mesh" "$dir/torus" --out "$dir/p" 2> "$dir/p.err")
status=$?
[ "$status" -eq 0 ] || bad "overlay without gnuplot: exit status $status ($(cat "$dir/p.err"))"
grep -q "gnuplot not found" "$dir/p.err" || bad "overlay without gnuplot: no note: $(cat "$dir/p.err")"
[ "$(wc -l < "$dir/p.err")" -eq 1 ] || bad "overlay without gnuplot: more than one line: $(cat "$dir/p.err")"
[[ "$out" == *"plot.csv"* ]] || bad "overlay without gnuplot: stdout '$out'"
[ -e "$dir/p/plot.svg" ] && bad "overlay without gnuplot: a plot appeared"
head -1 "$dir/p/plot.csv" | grep -q '^series,x,y,y_low,y_high,saturated,label$' || bad "plot.csv header"
grep -q ',topology.kind=mesh$' "$dir/p/plot.csv" || bad "plot.csv lacks the mesh run: $(cat "$dir/p/plot.csv")"
grep -q ',topology.kind=torus$' "$dir/p/plot.csv" || bad "plot.csv lacks the torus run"
[ "$(grep -c ',topology.kind=' "$dir/p/plot.csv")" -eq 6 ] || bad "plot.csv: want 3 points per run"
grep -q "^set title 'mean latency against offered load, by topology.kind'$" "$dir/p/plot.gp" ||
  bad "plot.gp title: $(grep title "$dir/p/plot.gp")"
grep -q "^set key outside below" "$dir/p/plot.gp" || bad "plot.gp: the legend is not outside the plot"
grep -q "using 2:3:4:5 with yerrorlines" "$dir/p/plot.gp" || bad "plot.gp: no confidence-interval bars"
grep -q -E '\.tmp\.|\.plot\.|/' <(grep -E "^set output|^plot" "$dir/p/plot.gp") &&
  bad "plot.gp names a temporary or a path: $(cat "$dir/p/plot.gp")"

# 2. A saturated point is marked: an open circle with its own legend entry.
"$mppnet" sweep "$dir/small.toml" --sweep traffic.rate=0.2:0.9:0.7 --out "$dir/sat" > /dev/null 2>&1
if jq -e '.points | any(.saturated)' "$dir/sat/results.json" > /dev/null; then
  PATH="$dir/nowhere" "$mppnet" plot "$dir/sat" "$dir/mesh" --out "$dir/s" > /dev/null 2>&1 ||
    bad "saturated overlay failed"
  grep -q ',1,[^,]*$' "$dir/s/plot.csv" || bad "plot.csv marks no point saturated"
  grep -q "pt 6 ps 1.8 title 'open circle: saturated" "$dir/s/plot.gp" || bad "plot.gp: saturation not in the key"
else
  bad "traffic.rate 0.9 did not saturate a 4x4 mesh: the saturation check has no data"
fi

# 3. The CM-1 runs are points along the key that differs, with the paper's Fig. 12 values overlaid.
for v in 1 2; do
  "$mppnet" run "$2/configs/cm1.toml" --set machine.dims=8 --set traffic.vp_ratio=$v --out "$dir/cm1-$v" \
    > /dev/null 2>&1 || bad "cm1 run v=$v failed"
done
PATH="$dir/nowhere" "$mppnet" plot "$dir/cm1-1" "$dir/cm1-2" --out "$dir/c" > /dev/null 2>&1 || bad "cm1 plot failed"
grep -q "^set xlabel 'VP ratio v" "$dir/c/plot.gp" || bad "cm1 plot: x is not the VP ratio: $(grep xlabel "$dir/c/plot.gp")"
grep -q 'Kahle, Kuszmaul & Hillis 1989' "$dir/c/plot.csv" || bad "cm1 plot: Fig. 12's values not overlaid"
grep -q 'lower bound 8v' "$dir/c/plot.csv" || bad "cm1 plot: the bound 8v not overlaid"

# 4. Bad input: one line naming the problem, exit status 2, nothing written.
expect_error() {
  local name=$1 want=$2
  shift 2
  local err
  err=$("$mppnet" plot "$@" --out "$dir/bad-$name" 2>&1 > /dev/null)
  local status=$?
  [ "$status" -eq 2 ] || bad "$name: exit status $status, want 2 ($err)"
  [[ "$err" == *"$want"* ]] || bad "$name: stderr '$err' lacks '$want'"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || bad "$name: more than one line: $err"
  [ -e "$dir/bad-$name" ] && bad "$name: wrote $(ls -A "$dir/bad-$name")"
}
mkdir "$dir/empty"
expect_error empty_dir "$dir/empty: holds no results.json" "$dir/empty"
expect_error missing_file "$dir/absent.json: cannot read the result file: No such file or directory" "$dir/absent.json"
expect_error unknown_column '--y latency_avgg: no column "latency_avgg"' "$dir/mesh" --y latency_avgg
expect_error unknown_x 'did you mean traffic.rate?' "$dir/mesh" --x traffic.rat
"$mppnet" yield "$2/configs/metro-64.toml" --trials 20 --out "$dir/yield" > /dev/null 2>&1 || bad "yield failed"
expect_error mixed "a yield result cannot be overlaid on a network result" "$dir/mesh" "$dir/yield"
expect_error reference "--reference cm1.fig12: does not fit this figure" "$dir/mesh" --reference cm1.fig12

# 5. With gnuplot: SVG and PNG drawn, and plot.gp draws them again from its own directory.
if command -v gnuplot > /dev/null; then
  "$mppnet" plot "$dir/mesh" "$dir/torus" --out "$dir/g" > /dev/null 2>&1 || bad "overlay with gnuplot failed"
  for f in plot.svg plot.png plot.csv plot.gp; do [ -s "$dir/g/$f" ] || bad "with gnuplot: $f missing"; done
  grep -q 'topology.kind=torus' "$dir/g/plot.svg" || bad "plot.svg: the legend does not name the torus"
  rm "$dir/g/plot.svg" "$dir/g/plot.png"
  (cd "$dir/g" && gnuplot plot.gp) || bad "plot.gp does not run again in its directory"
  tail -c 32 "$dir/g/plot.svg" | tr -d ' \n' | grep -q '</svg>$' || bad "plot.gp rerun: incomplete SVG"
  [ -s "$dir/g/plot.png" ] || bad "plot.gp rerun: no PNG"
  [ -z "$(ls -A "$dir/g" | grep -v -x -E 'plot\.(svg|png|csv|gp)|\.mppnet-files\.json')" ] || bad "left: $(ls -A "$dir/g")"
else
  echo "SKIP rendering checks: gnuplot is not installed"
fi
exit $fail
