#!/usr/bin/env bash
# scripts/validation_table.sh MPPNET OUT_DIR: runs every validation case (slow ones included) and prints
# the Markdown rows of the table in docs/validation.md, then the counts.
set -euo pipefail
mppnet=$1 out=$2
"$mppnet" validate --out "$out" > /dev/null || true  # a failing case still writes validation.json
jq -r '.cases[] | "| `\(.id)` | \(.source) | \(.expected) | \(.simulated) | \(.tolerance) | " +
  (if .passed then "pass" elif .documented_difference != "" then "differs (documented)" else "FAIL" end) + " |"' \
  "$out/validation.json"
jq -r '"\([.cases[] | select(.passed)] | length) pass, \([.cases[] | select(.passed | not) |
  select(.documented_difference == "")] | length) fail, \([.cases[] | select(.passed | not) |
  select(.documented_difference != "")] | length) documented differences"' "$out/validation.json"
