#!/usr/bin/env bash
# The T1 machine under `mppnet run` (docs/t1.md): every shipped program runs on 16 nodes and checks
# itself (exit 0), the result files hold a row per node, and bad input is one line with exit status 2.
set -u
mppnet=$(realpath "$1")
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$src" || exit 1
fail=0

for program in t1_ping_pong t1_all_to_all t1_get_put t1_multicast t1_fetch_add t1_all_to_all_get; do
  "$mppnet" run configs/t1-16.toml --set machine.program=$program --out "$dir/$program" > "$dir/out" 2> "$dir/err"
  status=$?
  if [ $status -ne 0 ]; then
    echo "FAIL: $program exited $status: $(cat "$dir/err")"
    fail=1
    continue
  fi
  rows=$(($(wc -l < "$dir/$program/nodes.csv") - 1))
  [ "$rows" -eq 16 ] || { echo "FAIL: $program: nodes.csv has $rows rows, not 16"; fail=1; }
  grep -q '"end": "all_exited"' "$dir/$program/results.json" || { echo "FAIL: $program: not all exited"; fail=1; }
  [ -s "$dir/$program/results.csv" ] || { echo "FAIL: $program: no results.csv"; fail=1; }
done

# Bad input: one line on stderr, exit status 2.
expect_input_error() {
  local what=$1 needle=$2
  shift 2
  "$mppnet" run "$@" --out "$dir/bad" > /dev/null 2> "$dir/err"
  local status=$?
  if [ $status -ne 2 ] || [ "$(wc -l < "$dir/err")" -ne 1 ] || ! grep -q "$needle" "$dir/err"; then
    echo "FAIL: $what: exit $status, stderr: $(cat "$dir/err")"
    fail=1
  fi
}
expect_input_error "node count" "machine.nodes: the CNS-1 mesh is k x k nodes: 20 is not a square" \
  configs/t1-16.toml --set machine.nodes=20
expect_input_error "missing program" "machine.program: no program nothing_here" \
  configs/t1-16.toml --set machine.program=nothing_here
expect_input_error "ELF for another machine" "machine.program: " configs/t1-16.toml --set "machine.program=\"$mppnet\""
expect_input_error "unknown key" "machine.nodez" configs/t1-16.toml --set machine.nodez=16

# The machine's cases, listed by its prefix.
listed=$("$mppnet" validate t1 --list | grep -c '^t1\.')
[ "$listed" -ge 17 ] || { echo "FAIL: mppnet validate t1 --list lists $listed cases"; fail=1; }

exit $fail
