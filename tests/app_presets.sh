#!/usr/bin/env bash
# The presets of about 1,000 nodes run the applications they claim; a preset that runs no node programs
# says so and names the commands it is for.
#
# A preset claims every application of `mppnet list apps` when its model runs node programs (the generic
# network and the CM-5). The unit tests run every pair on the
# presets of up to 128 nodes and check every pair's defaults on the larger ones without running
# (app/app_presets_test.cpp, `mppnet app --check`). Here the larger presets run: an application whose
# messages do not grow faster than P runs with its defaults; the two sorts run with fewer keys per node
# (their defaults take 5 s to minutes at 1,024 nodes), every key fitted to P left at its default; the
# all-to-all and the FFT move P^2 messages or points whatever their sizes (10 s or more each), so they run
# on the fat tree of cm5_1024.toml alone. On 16,384 nodes (cm5-16384.toml) most runs take minutes (the
# all-to-all hours: docs/cm5.md gives the times); the counter and the FFT run here. Presets with
# the same keys as another (demo.toml is cm5_1024.toml) run once. About a minute on 2 cores.
set -u
mppnet=$(realpath "$1")
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$src" || exit 1
fail=0

apps=$("$mppnet" list apps | awk '/^[a-z0-9]+ / { print $1 }')
[ "$(echo "$apps" | wc -w)" -ge 9 ] || { echo "FAIL: mppnet list apps lists $(echo "$apps" | wc -w) applications"; exit 1; }
full_size=" cm5_1024 "
largest=" cm5-16384 "
declare -A reduced=(
  [samplesort]="--set app.samplesort_keys=32"
  [radixsort]="--set app.radixsort_keys=8"
)

jobs=()
declare -A seen
for cfg in configs/*.toml; do
  name=$(basename "$cfg" .toml)
  keys=$(grep -v '^[[:space:]]*#' "$cfg" | sed 's/[[:space:]]*#.*//' | grep -v '^[[:space:]]*$' | md5sum)
  [ -n "${seen[$keys]:-}" ] && continue
  seen[$keys]=$name
  "$mppnet" app counter "$cfg" --check > "$dir/probe-$name.out" 2> "$dir/probe-$name.err"
  status=$?
  err=$(cat "$dir/probe-$name.err")
  if [ "$status" -eq 2 ] && [[ "$err" == *"machine.model: \`mppnet app\` runs"* ]]; then
    # No node programs: the message says which commands the preset is for.
    [[ "$err" == *"(use mppnet "* ]] || { echo "FAIL $name: '$err' names no command for this preset"; fail=1; }
    continue
  fi
  nodes=$(sed -n 's/^app counter on .*: \([0-9]*\) nodes.*/\1/p' "$dir/probe-$name.out")
  if [ "$status" -ne 0 ] || [ -z "$nodes" ]; then echo "FAIL $name: mppnet app counter --check: status $status: $err"; fail=1; continue; fi
  [ "$nodes" -le 128 ] && continue  # the unit tests run these
  for app in $apps; do
    if [[ "$largest" == *" $name "* ]]; then
      case $app in counter|fft) jobs+=("$name|$cfg|$app|") ;; esac
      continue
    fi
    case $app in
      alltoall|fft) [[ "$full_size" == *" $name "* ]] || continue; extra="" ;;
      *) extra=${reduced[$app]:-} ;;
    esac
    jobs+=("$name|$cfg|$app|$extra")
  done
done
[ "${#jobs[@]}" -ge 20 ] || { echo "FAIL: only ${#jobs[@]} (preset, application) pairs to run"; fail=1; }
# Sanitized builds run 20-50x slower: the probes above ran; the runs are the Release build's to make.
if [ "${MPPNET_SANITIZED:-0}" = 1 ]; then
  echo "sanitized build: ${#jobs[@]} (preset, application) runs left to the Release build"
  exit $fail
fi

run_one() {
  IFS='|' read -r name cfg app extra <<< "$1"
  # shellcheck disable=SC2086
  if ! "$mppnet" app "$app" "$cfg" $extra --out "$dir/$name-$app" > "$dir/$name-$app.log" 2>&1; then
    echo "FAIL mppnet app $app $cfg $extra:"; sed 's/^/  /' "$dir/$name-$app.log" | head -5; return 1
  fi
  grep -q '^check: passed' "$dir/$name-$app.log" || { echo "FAIL mppnet app $app $cfg $extra: no passed check"; return 1; }
}
export -f run_one
export mppnet dir
printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} bash -c 'run_one "$1"' _ {} || fail=1
echo "app_presets: ${#jobs[@]} (preset, application) pairs run on the large presets"
exit $fail
