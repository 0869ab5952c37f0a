#!/usr/bin/env bash
# scripts/fuzz.sh BUILD_DIR SECONDS [RUNS]: runs every fuzz target of BUILD_DIR (make fuzz builds them) for
# SECONDS each (or RUNS executions, when given), starting from its seed corpus: configs/*.toml and
# fuzz/corpus/<target>/. Inputs the run adds go to a scratch corpus, not the repository. A crash, a
# sanitizer report, a leak or a slow input stops the target: its input is kept in BUILD_DIR/findings/
# and the script fails. The targets run side by side, one per core (libFuzzer's own process is
# single-threaded), and their verdicts are printed in name order once all have ended.
set -euo pipefail
build=$1 seconds=$2 runs=${3:-0}
src=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$build/findings"
jobs=$(nproc)

# fuzz_one NAME: one target's run; its exit status is the verdict, its log in findings/NAME.log.
fuzz_one() {
  local name=$1 exe="$build/$1_fuzz" corpus="$scratch/$1"
  mkdir -p "$corpus"
  [ -d "$src/fuzz/corpus/$name" ] && cp "$src/fuzz/corpus/$name"/* "$corpus/"
  [ "$name" = config ] && cp "$src"/configs/*.toml "$corpus/"
  local limit=(-max_total_time="$seconds")
  [ "$runs" -gt 0 ] && limit=(-runs="$runs")
  "$exe" "$corpus" "${limit[@]}" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
    -artifact_prefix="$build/findings/$name-" > "$build/findings/$name.log" 2>&1
}

names=()
for exe in "$build"/*_fuzz; do
  name=$(basename "$exe" _fuzz)
  names+=("$name")
  # At most one target per core: a new one starts when any running one ends.
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  { fuzz_one "$name" && echo 0 || echo 1; } > "$scratch/$name.rc" &
done
wait

status=0
for name in "${names[@]}"; do
  log="$build/findings/$name.log"
  if [ "$(cat "$scratch/$name.rc")" = 0 ]; then
    echo "fuzz $name: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') runs, no finding"
  else
    echo "fuzz $name: FINDING (input and report in $build/findings/, log $log)" >&2
    grep -E "ERROR|runtime error|SUMMARY|does not load" "$log" | head -5 >&2
    status=1
  fi
done
exit $status
