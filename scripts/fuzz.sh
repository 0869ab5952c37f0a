#!/usr/bin/env bash
# scripts/fuzz.sh BUILD_DIR SECONDS [RUNS]: runs every fuzz target of BUILD_DIR (make fuzz builds them) for
# SECONDS each (or RUNS executions, when given), starting from its seed corpus: configs/*.toml and
# fuzz/corpus/<target>/. Inputs the run adds go to a scratch corpus, not the repository. A crash, a
# sanitizer report, a leak or a slow input stops the target: its input is kept in BUILD_DIR/findings/
# and the script fails.
set -euo pipefail
build=$1 seconds=$2 runs=${3:-0}
src=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$build/findings"
status=0
for exe in "$build"/*_fuzz; do
  name=$(basename "$exe" _fuzz)
  corpus="$scratch/$name"
  mkdir -p "$corpus"
  [ -d "$src/fuzz/corpus/$name" ] && cp "$src/fuzz/corpus/$name"/* "$corpus/"
  [ "$name" = config ] && cp "$src"/configs/*.toml "$corpus/"
  limit=(-max_total_time="$seconds")
  [ "$runs" -gt 0 ] && limit=(-runs="$runs")
  log="$build/findings/$name.log"
  if "$exe" "$corpus" "${limit[@]}" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
      -artifact_prefix="$build/findings/$name-" > "$log" 2>&1; then
    echo "fuzz $name: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') runs, no finding"
  else
    echo "fuzz $name: FINDING (input and report in $build/findings/, log $log)" >&2
    grep -E "ERROR|runtime error|SUMMARY|does not load" "$log" | head -5 >&2
    status=1
  fi
done
exit $status
