#!/usr/bin/env bash
# What routing buys on the two fat trees (docs/cs2.md, "The CS-2 beside the CM-5"): the saturation
# throughput of uniform traffic and of three permutations, as a fraction of what a node can inject, on
# the CS-2 under DEST routes (one per pair), random routes (4 per pair, one drawn per packet) and
# rearranged tables, and on the CM-5's fat tree with its
# pseudorandom choice among free up-links (configs/cm5_1024.toml: the generic network with the CM-5's
# shape; the generic router's timing, so only throughput fractions compare, not latencies).
#
# CS-2: `mppnet run` at traffic.load = 1 (both links offered in full; open loop), the accepted bytes over
# the two links' 140 MB/s. CM-5: `mppnet sweep` over traffic.rate 0.1 .. 1 flits per node and cycle, the
# most any point accepted (a node injects at most a flit a cycle: 20 MB/s at the CM-5's 4 bits per 40 MHz
# cycle, against the CS-2's 140 MB/s).
# Usage, from the repository's root: scripts/cs2_vs_cm5_patterns.sh MPPNET_BINARY OUT_DIR [SIZES...]
# (SIZES default: 64 1024; each a power of 4). Writes patterns.csv and patterns.svg.
set -euo pipefail
cd "$(dirname "$0")/.."
mppnet=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(64 1024)
mkdir -p "$out"
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
echo "pattern,nodes,cs2_dest,cs2_random,cs2_rearranged,cm5_random_free" > "$out/patterns.csv"
for n in "${sizes[@]}"; do
  levels=$(python3 -c "import math; print(round(math.log($n, 4)))")
  for p in uniform bit_complement bit_reversal transpose; do
    row="$p,$n"
    for policy in dest random rearranged; do
      sets=(--set machine.pes="$n" --set traffic.pattern="$p" --set traffic.load=1 --set run.cycles=5000)
      if [ "$policy" = rearranged ]; then
        [ "$p" = uniform ] && { row="$row,"; continue; }
        sets+=(--set routing.rearranged=true)
      elif [ "$policy" = dest ]; then
        sets+=(--set routing.policy=dest --set routing.alternatives=1)  # one route per pair, as L417-L423
      else
        sets+=(--set routing.policy=random)
      fi
      dir="$out/cs2-$n-$p-$policy"
      "$mppnet" run configs/cs2-64.toml "${sets[@]}" --out "$dir" > /dev/null
      row="$row,$(field "$dir/results.json" "round(d['accepted_mb_per_s_per_pe'] / 140, 4)")"
    done
    # The generic network's names for the same maps.
    cm5_pattern=$p
    [ "$p" = bit_reversal ] && cm5_pattern=bit_reverse
    dir="$out/cm5-$n-$p"
    "$mppnet" sweep configs/cm5_1024.toml --set topology.n="$levels" --set traffic.pattern="$cm5_pattern" \
      --set sweep.from=0.1 --set sweep.to=1.0 --set sweep.step=0.1 --out "$dir" > /dev/null
    row="$row,$(field "$dir/results.json" "round(max(p['accepted'] for p in d['points']), 4)")"
    echo "$row" >> "$out/patterns.csv"
    echo "$row"
  done
done
gnuplot <<GNUPLOT
set datafile separator ","
set terminal svg size 900,520 font "sans,12" noenhanced
set output "$out/patterns.svg"
set title "Saturation throughput, fraction of what a node can inject"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:1.05]
set xtics rotate by -30
set key outside bottom center horizontal
set grid ytics
plot "< tail -n +2 '$out/patterns.csv'" using 3:xtic(sprintf("%s %s", strcol(1), strcol(2))) \
  title "CS-2 DEST", "" using 4 title "CS-2 random", "" using 5 title "CS-2 rearranged", \
  "" using 6 title "CM-5 free up-links"
GNUPLOT
echo "table: $out/patterns.csv; plot: $out/patterns.svg"
