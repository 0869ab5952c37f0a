#!/usr/bin/env bash
# The include graph points down the layers (docs/design.md, "Layers"): every #include "dir/..." of a
# source file names its own layer or one below it, and a machine's folder includes no other machine's.
# Layers may only include what their CMake target links, so this also keeps the graph free of cycles.
set -u
src=$2/src
fail=0
allowed() {  # the layers a file of layer $1 may include
  case $1 in
    core) echo "core" ;;
    io) echo "io core" ;;
    topo) echo "topo io core" ;;
    net) echo "net topo core" ;;
    workload) echo "workload core" ;;
    cpu) echo "cpu core" ;;  # instruction-set simulators: no network, no machine
    am) echo "am net topo io core" ;;
    apps) echo "workload/apps am workload net topo io core" ;;
    registry) echo "registry io core" ;;
    machine:*) echo "machines/${1#machine:} registry am net topo workload cpu io core" ;;  # cns1: T1 on cpu/mips
    exp) echo "exp registry am net topo workload io core" ;;
    app) echo "app exp workload/apps registry am net topo workload io core" ;;
  esac
}
while IFS= read -r f; do
  rel=${f#"$src"/}
  case $rel in
    workload/apps/*) layer=apps ;;
    machines/*) m=${rel#machines/}; layer=machine:${m%%/*} ;;
    */*) layer=${rel%%/*} ;;
    *) continue ;;  # main.cpp
  esac
  ok=$(allowed "$layer")
  while IFS= read -r inc; do
    target=${inc%/*}
    good=0
    for a in $ok; do
      case $target in "$a" | "$a"/*) good=1 ;; esac
    done
    # workload/apps is a layer above workload: a workload file may not include it.
    if [ "$layer" = workload ] && [[ $target == workload/apps* ]]; then good=0; fi
    if [ $good -eq 0 ]; then echo "FAIL: $rel ($layer) includes $inc"; fail=1; fi
  done < <(sed -n 's/^#include "\([^"]*\/[^"]*\)".*/\1/p' "$f")
done < <(find "$src" -name '*.cpp' -o -name '*.hpp')
[ $fail -eq 0 ] && echo "include graph: every include points down"
exit $fail
