#!/usr/bin/env bash
# scripts/compare_speed.sh OLD_SPEED NEW_SPEED [RUNS] [CASE...]: old and new mppnet_speed binaries run
# alternately (old, new, old, new, ...) on each case, RUNS times each (default 5), and the median wall
# time and node-cycles/s of each printed side by side. Alternating keeps a drift in this shared machine's
# speed from favouring either binary.
set -euo pipefail
old=$1 new=$2 runs=${3:-5}
shift $(($# < 3 ? $# : 3))
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(mesh8x8_load0.1 mesh8x8_load0.4 tree4ary3_load0.6 tree4ary5_load0.1 tree4ary6_load0.1 cm5_16384_load0.1)
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "| case | old wall s (median of $runs) | new wall s | new / old | old node-cycles/s | new node-cycles/s |"
echo "|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
  : > /tmp/cmp_old.$$; : > /tmp/cmp_new.$$
  for ((i = 0; i < runs; i++)); do
    "$old" "$c" | awk -F'|' '{gsub(/ /,"",$5); gsub(/ /,"",$6); print $5, $6}' >> /tmp/cmp_old.$$
    "$new" "$c" | awk -F'|' '{gsub(/ /,"",$5); gsub(/ /,"",$6); print $5, $6}' >> /tmp/cmp_new.$$
  done
  ow=$(cut -d' ' -f1 /tmp/cmp_old.$$ | median); nw=$(cut -d' ' -f1 /tmp/cmp_new.$$ | median)
  orate=$(cut -d' ' -f2 /tmp/cmp_old.$$ | sed 's/M$//' | median); nrate=$(cut -d' ' -f2 /tmp/cmp_new.$$ | sed 's/M$//' | median)
  echo "| $c | $ow | $nw | $(awk -v a="$nw" -v b="$ow" 'BEGIN {printf "%.3f", a / b}') | ${orate} M | ${nrate} M |"
done
rm -f /tmp/cmp_old.$$ /tmp/cmp_new.$$
