#!/usr/bin/env bash
# `mppnet list` answers each question, and docs/config.md is exactly what the key table says.
set -eu
mppnet=$1
src=$2
"$mppnet" list keys | grep -q "router.vcs"
"$mppnet" list machines | grep -q "^cm5"
"$mppnet" list topologies | grep -q "^fat_tree"
"$mppnet" list traffic | grep -q "bit_reverse"
"$mppnet" list keys --markdown | diff -u "$src/docs/config.md" - || {
  echo "docs/config.md is stale: run make docs"; exit 1; }
"$mppnet" validate --list | grep -q "net.zero_load.mesh8x8"
set +e
"$mppnet" validate no.such.case 2>/dev/null
test $? -eq 2
