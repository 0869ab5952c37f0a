#!/usr/bin/env bash
# scripts/validation_table.sh MPPNET OUT_DIR: runs every validation case (slow ones included) and prints
# the Markdown rows of the table in docs/validation.md, then the summary by kind of evidence and verdict,
# then the counts.
set -euo pipefail
mppnet=$1 out=$2
"$mppnet" validate --out "$out" > /dev/null || true  # a failing case still writes validation.json
jq -r '.cases[] | "| `\(.id)` | \(.evidence) | \(.source) | \(.expected) | \(.simulated) | \(.tolerance) | " +
  (if .verdict == "differs" then "differs (documented)" else .verdict end) + " |"' "$out/validation.json"
echo
echo "| kind | pass | differs | FAIL | calibrated |"
echo "|---|---|---|---|---|"
jq -r '.cases | group_by(.evidence) | .[] | "| \(.[0].evidence) | " +
  ([("pass", "differs", "FAIL", "calibrated") as $v | [.[] | select(.verdict == $v)] | length | tostring] |
  join(" | ")) + " |"' "$out/validation.json"
echo
jq -r '"\([.cases[] | select(.verdict == "pass")] | length) pass, \([.cases[] | select(.verdict == "FAIL")] |
  length) fail, \([.cases[] | select(.verdict == "differs")] | length) documented differences, \([.cases[] |
  select(.verdict == "calibrated")] | length) calibrated"' "$out/validation.json"
