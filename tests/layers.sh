#!/usr/bin/env bash
# app/ and exp/ find machines only through the registry (registry/registry.hpp): no include of a machine's
# folder and no machine's name in code (comments and strings aside). A machine is one folder under
# src/machines/, and adding one must not edit app/ or exp/ (docs/design.md, "Add a machine").
set -u
src=$2
fail=0
if grep -rn '#include "machines/' "$src/src/app" "$src/src/exp"; then
  echo "FAIL: app/ or exp/ includes a machine's folder; use registry::machines()"; fail=1
fi
# Code without // comments and string literals, then any identifier naming a machine folder. Paths are
# relative to src/, so that a checkout whose own path names a machine (a worktree "wt-cs2") is no hit.
machines=$(ls "$src/src/machines" | paste -sd'|')
hits=$(cd "$src/src" && grep -rnE --include='*.cpp' --include='*.hpp' '.' app exp |
  sed -E 's#"([^"\\]|\\.)*"#""#g; s#//.*$##' |
  grep -E "(^|[^A-Za-z0-9_])(${machines})[A-Za-z0-9_]*")
if [ -n "$hits" ]; then
  echo "FAIL: app/ or exp/ names a machine in code:"; echo "$hits"; fail=1
fi
exit $fail
