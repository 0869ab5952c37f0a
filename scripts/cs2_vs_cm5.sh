#!/usr/bin/env bash
# The CS-2 beside the CM-5 (docs/cs2.md, "The CS-2 beside the CM-5"): every application of `mppnet list
# apps` on both machines at 64 and 1,024 nodes, with the same [am] memory and [app] sizes on both
# (configs/cs2-64.toml and configs/cm5-32.toml below 1,024 nodes, configs/cs2-1024.toml and
# configs/cm5-1024.toml from there) and each machine's own software costs; completion times, the idle
# round trip of a one-word put and get, and two plots.
# Usage, from the repository's root: scripts/cs2_vs_cm5.sh [--fresh] MPPNET_BINARY OUT_DIR [SIZES...]
# (SIZES default: 64 1024). A run that fails is recorded as "failed" and the rest go on; a run whose
# result OUT_DIR already holds is reused unless --fresh.
set -euo pipefail
cd "$(dirname "$0")/.."
fresh=0
if [ "${1:-}" = --fresh ]; then fresh=1; shift; fi
mppnet=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(64 1024)
mkdir -p "$out"
apps=$("$mppnet" list apps | awk '/^[a-z0-9_]+ / {print $1}')
echo "app,nodes,cs2_us,cm5_us,cm5_over_cs2" > "$out/completion.csv"
echo "nodes,machine,put_round_trip_us,get_round_trip_us" > "$out/latency.csv"
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
# A run's completion time in us, or "failed" when it left no result or its check failed.
time_of() {
  [ -f "$1" ] && field "$1" "round(d['time_us'], 3) if d['passed'] else 'failed'" || echo failed
}
for n in "${sizes[@]}"; do
  # The 1,024-node presets give the applications more room; smaller machines keep the defaults.
  if [ "$n" -ge 1024 ]; then cs2=configs/cs2-1024.toml cm5=configs/cm5-1024.toml
  else cs2=configs/cs2-64.toml cm5=configs/cm5-32.toml; fi
  for app in $apps; do
    # A run whose result is already in OUT is not run again (--fresh: every run), so an interrupted
    # study resumes and another size can be added to the same tables and plots.
    [ "$fresh" = 0 ] && [ -f "$out/cs2-$n-$app/app_$app.json" ] ||
      "$mppnet" app "$app" "$cs2" --set machine.pes="$n" --out "$out/cs2-$n-$app" > /dev/null 2>&1 || true
    [ "$fresh" = 0 ] && [ -f "$out/cm5-$n-$app/app_$app.json" ] ||
      "$mppnet" app "$app" "$cm5" --set machine.nodes="$n" --out "$out/cm5-$n-$app" > /dev/null 2>&1 || true
    t2=$(time_of "$out/cs2-$n-$app/app_$app.json")
    t5=$(time_of "$out/cm5-$n-$app/app_$app.json")
    ratio=failed
    [ "$t2" = failed ] || [ "$t5" = failed ] || ratio=$(python3 -c "print(f'{$t5 / $t2:.3f}')")
    echo "$app,$n,$t2,$t5,$ratio" >> "$out/completion.csv"
    echo "$app on $n nodes: CS-2 $t2 us, CM-5 $t5 us"
  done
  for m in cs2 cm5; do
    j="$out/$m-$n-getput/app_getput.json"
    [ -f "$j" ] || continue
    echo "$n,$m,$(field "$j" "d['metrics']['put_round_trip_ps'] / 1e6"),$(field "$j" "d['metrics']['get_round_trip_ps'] / 1e6")" \
      >> "$out/latency.csv"
  done
done
gnuplot <<GNUPLOT
set datafile separator ","
set terminal svg size 900,480 font "sans,12" noenhanced
set output "$out/completion.svg"
set title "Completion time: CM-5 time / CS-2 time (above 1: the CS-2 is faster)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y 2
set yrange [0.0625:32]
set xtics rotate by -30
set key outside bottom center horizontal
set grid ytics
plot for [n in "${sizes[*]}"] "< grep ',' '$out/completion.csv' | awk -F, 'NR > 1 && \$2 == " . n . "'" \
  using 5:xtic(1) title n . " nodes"
set output "$out/latency.svg"
unset logscale y
set yrange [0:*]
set title "Idle round trip of a one-word put and get (us)"
plot "$out/latency.csv" using 3:xtic(stringcolumn(2) . " " . stringcolumn(1)) skip 1 title "put", \
     "" using 4 skip 1 title "get"
GNUPLOT
echo "tables: $out/completion.csv, $out/latency.csv; plots: $out/completion.svg, $out/latency.svg"
