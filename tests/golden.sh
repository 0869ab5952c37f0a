#!/usr/bin/env bash
# Golden outputs: every case of tests/golden/cases.txt must write the result files recorded in
# tests/golden/ (JSON of run, app, yield and harvest: counts, latencies, every number) with every value
# identical. The output may gain keys (a new model or topology declares new config keys; a result may gain
# a field), but every recorded one must keep its value, and arrays their length. A refactor that must not change results
# keeps them identical; a change that is meant to alter results re-records them
# (`tests/golden.sh MPPNET SOURCE_DIR --record`) and says why in its commit.
# Under the sanitizers (MPPNET_SANITIZED=1) only the cases marked fast run.
set -u
mppnet=$(realpath "$1")
src=$2
mode=${3:-check}
golden=$src/tests/golden
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$src" || exit 1
fail=0 ran=0

while IFS='|' read -r name speed args; do
  name=${name//[[:space:]]/}
  speed=${speed//[[:space:]]/}
  [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
  if [ "${MPPNET_SANITIZED:-0}" = 1 ] && [ "$speed" = slow ] && [ "$mode" != --record ]; then continue; fi
  read -r -a argv <<< "$args"
  if ! "$mppnet" "${argv[@]}" --out "$dir/$name" > "$dir/$name.stdout" 2>&1; then
    echo "FAIL $name: mppnet ${args} exited with status $?"; sed 's/^/  /' "$dir/$name.stdout"; fail=1; continue
  fi
  ran=$((ran + 1))
  for f in "$dir/$name"/*.json; do
    [ "$(basename "$f")" = cost.json ] && continue  # what the host spent: never the same twice
    want="$golden/$name.$(basename "$f")"
    if [ "$mode" = --record ]; then cp "$f" "$want"; continue; fi
    if [ ! -f "$want" ]; then echo "FAIL $name: no golden file $want (record with --record)"; fail=1; continue; fi
    # The new output, less the keys the recording did not have (at any depth), against the recording.
    jq -S --slurpfile w "$want" 'def prune($r): if type == "object" and ($r | type) == "object" then
        with_entries(.key as $k | select($r | has($k)) | .value |= prune($r[$k]))
      elif type == "array" and ($r | type) == "array" then
        [range(0; length) as $i | .[$i] | prune($r[$i])]
      else . end; prune($w[0])' "$f" > "$dir/got.json"
    jq -S . "$want" > "$dir/want.json"
    if ! cmp -s "$dir/got.json" "$dir/want.json"; then
      echo "FAIL $name: $(basename "$f") differs from $want:"; diff "$dir/want.json" "$dir/got.json" | head -20; fail=1
    fi
  done
done < "$golden/cases.txt"

echo "golden: $ran cases run"
[ "$ran" -gt 0 ] || fail=1
exit $fail
