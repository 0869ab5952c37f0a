#!/usr/bin/env bash
# Command-line mistakes are told as what to do: an unknown command suggests the nearest, a missing argument
# names it with the command's synopsis, an unknown option suggests the nearest option; status 2, one line
# (a bare `mppnet` lists the commands). `mppnet list` with nothing after it lists what can be listed.
set -u
mppnet=$1
fail=0

# usage NAME WANT_STATUS STDERR_SUBSTRING ARGS...
usage() {
  local name=$1 want=$2 text=$3
  shift 3
  local err
  err=$("$mppnet" "$@" 2>&1 >/dev/null)
  local status=$?
  if [ "$status" -ne "$want" ]; then echo "FAIL $name: exit status $status, want $want ($err)"; fail=1; fi
  if [[ "$err" != *"$text"* ]]; then echo "FAIL $name: stderr '$err' lacks '$text'"; fail=1; fi
  if [ "$want" -eq 2 ] && [ "$name" != bare ] && [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then
    echo "FAIL $name: more than one line: $err"; fail=1
  fi
  case $err in *"is required"*|*"A subcommand"*|*"was not expected"*) echo "FAIL $name: CLI11's wording: $err"; fail=1 ;; esac
}

usage typo 2 'unknown command "runn" (did you mean run?)' runn configs/mesh8x8.toml
usage typo_list 2 'unknown command "lsit" (did you mean list?)' lsit
usage far 2 'unknown command "frobnicate"; the commands are run, sweep' frobnicate
usage bare 2 'no command given' 
usage missing_config 2 'mppnet run: missing CONFIG (TOML experiment file); type mppnet run CONFIG [options]' run
usage missing_app 2 'mppnet app: missing NAME' app
usage missing_app_config 2 'mppnet app: missing CONFIG' app counter
usage option_typo 2 'mppnet validate: unknown option --lst (did you mean --list?)' validate --lst
usage option_value_typo 2 'unknown option --outt=x (did you mean --out?)' run configs/mesh8x8.toml --outt=x
usage extra_arg 2 'mppnet list: unexpected argument "keys"' list apps keys
usage list_typo 2 'cannot list "app" (did you mean apps?)' list app
usage top_option 2 'mppnet: unknown option --frob' --frob
# Commands of a command (the design calculators) get the same answers.
usage nested_typo 2 'mppnet design: unknown command "latncy" (did you mean latency?)' design latncy
usage nested_missing 2 'mppnet design: say which: latency, ' design
usage nested_option 2 'mppnet design latency: unknown option --bogus' design latency --bogus

# `mppnet list` alone: what can be listed, on stdout, status 0.
out=$("$mppnet" list 2>&1)
status=$?
[ "$status" -eq 0 ] || { echo "FAIL list: exit status $status"; fail=1; }
for w in machines topologies traffic apps keys; do
  [[ "$out" == *"  $w "* ]] || { echo "FAIL list: '$w' not listed: $out"; fail=1; }
done
# Help and version still exit 0.
"$mppnet" --help > /dev/null 2>&1 || { echo "FAIL --help: status $?"; fail=1; }
"$mppnet" run --help > /dev/null 2>&1 || { echo "FAIL run --help: status $?"; fail=1; }
"$mppnet" --version > /dev/null 2>&1 || { echo "FAIL --version: status $?"; fail=1; }
exit $fail
