#!/usr/bin/env bash
# Latency against offered load on the two fat trees (docs/cs2.md, "The CS-2 beside the CM-5"): uniform
# traffic and three permutations, open loop, on the CS-2 model (configs/cs2-64.toml, cs2-1024.toml: DEST
# routes, 32-byte packets, both layers) and on the CM-5 data network model (configs/cm5-32.toml with
# machine.nodes, cm5-1024.toml: 5-word messages on both sides), each at loads from 1% to 95% of what a
# node's links carry, as `mppnet run` measures them: mean latency from a packet's or message's creation
# to its tail's arrival, queueing at the source included. Points where a network did not keep up are
# left out of the plots (and marked in the table).
# Usage, from the repository's root: scripts/cs2_vs_cm5_latency.sh MPPNET_BINARY OUT_DIR [SIZES...]
# (SIZES default: 64 1024; each a power of 4). Writes latency.csv and latency_<size>.svg; a run whose
# result OUT_DIR already holds is reused.
set -euo pipefail
cd "$(dirname "$0")/.."
mppnet=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(64 1024)
mkdir -p "$out"
loads=(0.01 0.02 0.03 0.05 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 0.95)
patterns=(uniform bit_complement bit_reversal transpose)
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
echo "nodes,pattern,machine,load,offered_mb_per_s,accepted_mb_per_s,latency_us,saturated" > "$out/latency.csv"
for n in "${sizes[@]}"; do
  if [ "$n" -ge 1024 ]; then cs2=configs/cs2-1024.toml cm5=configs/cm5-1024.toml
  else cs2=configs/cs2-64.toml cm5=configs/cm5-32.toml; fi
  for p in "${patterns[@]}"; do
    for load in "${loads[@]}"; do
      d2="$out/cs2-$n-$p-$load" d5="$out/cm5-$n-$p-$load"
      [ -f "$d2/results.json" ] || "$mppnet" run "$cs2" --set machine.pes="$n" --set traffic.pattern="$p" \
        --set traffic.load="$load" --out "$d2" > /dev/null
      [ -f "$d5/results.json" ] || "$mppnet" run "$cm5" --set machine.nodes="$n" --set traffic.pattern="$p" \
        --set traffic.load="$load" --out "$d5" > /dev/null
      # Raw MB/s per node on the wire: the CS-2 counts a packet's bytes, the CM-5 its link cycles.
      echo "$n,$p,cs2,$load,$(field "$d2/results.json" "f\"{d['offered_mb_per_s_per_pe']:.3f},{d['accepted_mb_per_s_per_pe']:.3f},{d['latency_avg_ns'] / 1000:.4f},{int(d['saturated'])}\"")" >> "$out/latency.csv"
      echo "$n,$p,cm5,$load,$(field "$d5/results.json" "f\"{d['offered_raw_mb_per_s']:.3f},{d['accepted_raw_mb_per_s']:.3f},{d['latency_avg_us']:.4f},{int(d['saturated'])}\"")" >> "$out/latency.csv"
    done
    echo "$p on $n nodes done"
  done
  # One panel per pattern: each machine's unsaturated points, latency against offered MB/s per node.
  for p in "${patterns[@]}"; do
    for m in cs2 cm5; do
      awk -F, -v n="$n" -v p="$p" -v m="$m" '$1 == n && $2 == p && $3 == m && $8 == 0 {print $5, $7}' \
        "$out/latency.csv" > "$out/.$n-$p-$m.dat"
    done
  done
  gnuplot <<GNUPLOT
set terminal svg size 1000,720 font "sans,11" noenhanced
set output "$out/latency_$n.svg"
set multiplot layout 2,2 title "Latency from creation against offered load, $n nodes (unsaturated points)"
set logscale xy
set xlabel "offered MB/s per node (raw, on the wire)"
set ylabel "mean latency (us)"
set key top left
set grid
$(for p in "${patterns[@]}"; do
  echo "set title \"$p\""
  echo "plot \"$out/.$n-$p-cs2.dat\" with linespoints lw 2 title \"CS-2 (DEST)\", \"$out/.$n-$p-cm5.dat\" with linespoints lw 2 title \"CM-5\""
done)
unset multiplot
GNUPLOT
  rm -f "$out"/.$n-*.dat
done
echo "table: $out/latency.csv; plots: $(for n in "${sizes[@]}"; do printf '%s ' "$out/latency_$n.svg"; done)"
