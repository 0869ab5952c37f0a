#!/usr/bin/env bash
# Every command the user docs show runs: each ```sh block of README.md and docs/tutorial.md is run, in
# order, in a temporary working copy (configs/ and the BookSim corpus copied in, so nothing is written into
# the repository), with `mppnet` and `build/release/mppnet` meaning the binary under test. A command that
# exits non-zero fails the check, named by file, block, markdown line and command.
#
#   tests/doc_commands.sh MPPNET SRC          (ctest passes both)
#
# Blocks of one file share a working directory, so a later block may use the results of an earlier one
# (a plot of the sweeps above it); shell variables do not carry over. A line whose text contains `# slow`
# is skipped (with the lines it continues onto by a trailing backslash) unless MPPNET_DOC_SLOW=1: keep such
# a command out of the way of the commands after it. Under MPPNET_SANITIZED=1 (sanitized builds, 20-50x
# slower) only the README's `mppnet list` commands run. MPPNET_DOC_FILES="README.md" checks one file;
# MPPNET_DOC_KEEP=1 keeps the temporary directory (each block's script and log) for a look.
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 MPPNET SRC" >&2
  exit 2
fi
mppnet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
[ "${MPPNET_DOC_KEEP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/blocks"
ln -s "$mppnet" "$tmp/bin/mppnet"

files=${MPPNET_DOC_FILES:-"README.md docs/tutorial.md"}
sanitized=${MPPNET_SANITIZED:-0}
if [ "$sanitized" = 1 ]; then
  echo "MPPNET_SANITIZED=1: running only the README's 'mppnet list' commands (the rest takes minutes here)"
  files="README.md"
fi

# One working copy per file: what the commands read, nothing they could write over.
make_work() {
  local work=$1
  mkdir -p "$work/build/release" "$work/fuzz/corpus"
  cp -R "$src/configs" "$work/configs"
  [ -d "$src/fuzz/corpus/booksim" ] && cp -R "$src/fuzz/corpus/booksim" "$work/fuzz/corpus/booksim"
  ln -s "$mppnet" "$work/build/release/mppnet"
}

# Splits FILE into its ```sh blocks: PREFIX.NN holds the block, PREFIX.NN.start the line of its fence.
# Other fenced blocks (toml, output) are passed over whole, so their closing fence is not taken for an opening.
extract_blocks() {
  awk -v out="$2" '
    /^[[:space:]]*```/ {
      if (state == 1) { state = 0; close(f); next }
      if (state == 2) { state = 0; next }
      if ($0 ~ /^[[:space:]]*```sh[[:space:]]*$/) {
        state = 1; n++; f = sprintf("%s.%02d", out, n)
        print NR > (f ".start"); close(f ".start"); printf "" > f; next
      }
      state = 2; next
    }
    state == 1 { print > f }
  ' "$1"
}

# Writes the block with each skipped command replaced by ':' lines, so that line numbers still match.
# Skipped: a command marked `# slow` (unless MPPNET_DOC_SLOW=1), and under MPPNET_SANITIZED=1 every command
# but `mppnet list`.
filter_block() {
  awk -v slow="${MPPNET_DOC_SLOW:-0}" -v sanitized="$sanitized" '
    { lines[++n] = $0
      if ($0 ~ /\\$/) next
      skip = 0
      for (i = 1; i <= n; i++) {
        if (slow != 1 && lines[i] ~ /# slow/) skip = 1
      }
      if (sanitized == 1 && lines[1] !~ /mppnet list/) skip = 1
      for (i = 1; i <= n; i++) print (skip ? ": skipped" : lines[i])
      n = 0 }
    END { for (i = 1; i <= n; i++) print lines[i] }
  ' "$1"
}

fail=0
blocks=0
total_start=$(date +%s)
header_lines=4
for file in $files; do
  if [ ! -f "$src/$file" ]; then
    echo "FAIL $file: no such file in $src"
    fail=1
    continue
  fi
  tag=$(echo "$file" | tr '/.' '__')
  extract_blocks "$src/$file" "$tmp/blocks/$tag"
  work="$tmp/work_$tag"
  make_work "$work"
  found=0
  for block in "$tmp/blocks/$tag".[0-9][0-9]; do
    [ -e "$block" ] || continue
    found=1
    blocks=$((blocks + 1))
    n=${block##*.}
    start=$(cat "$block.start")
    script="$block.run"
    # The ERR trap names the failing command and its line (bash's LINENO counts the header too).
    {
      echo 'set -eE -o pipefail'
      echo "trap 'rc=\$?; printf \"%s\\n%s\\n%s\\n\" \"\$LINENO\" \"\$rc\" \"\$BASH_COMMAND\" > \"$block.failed\"; exit \$rc' ERR"
      echo "cd '$work'"
      echo "export PATH='$tmp/bin':\"\$PATH\""
      filter_block "$block"
    } > "$script"
    if ! tail -n +$((header_lines + 1)) "$script" | grep -q -v -e '^: skipped$' -e '^[[:space:]]*$'; then
      echo "skip $file block $n (line $start): every command in it is skipped"
      continue
    fi
    t0=$(date +%s)
    bash "$script" > "$block.log" 2>&1
    status=$?
    t1=$(date +%s)
    if [ "$status" -eq 0 ]; then
      echo "ok   $file block $n (line $start): $((t1 - t0)) s"
      continue
    fi
    fail=1
    if [ -s "$block.failed" ]; then
      line=$(sed -n 1p "$block.failed")
      rc=$(sed -n 2p "$block.failed")
      cmd=$(sed -n '3,$p' "$block.failed")
      echo "FAIL $file block $n (line $start): the command at line $((start + line - header_lines)) exited $rc: $cmd"
    else
      echo "FAIL $file block $n (line $start): exited $status (a syntax error in the block?)"
    fi
    tail -n 8 "$block.log" | sed 's/^/     | /'
  done
  if [ "$found" -eq 0 ]; then
    echo "FAIL $file: no \`\`\`sh block found (the check would test nothing)"
    fail=1
  fi
done
echo "$blocks blocks in $(($(date +%s) - total_start)) s"
exit $fail
