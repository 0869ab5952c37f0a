#!/usr/bin/env bash
# scripts/doc_figures.sh VALIDATION_JSON [DOC...]: checks the prose of the docs against the validation
# table, so that no page names a case the registry lost or quotes a figure the table no longer gives.
# VALIDATION_JSON is the validation.json of a `mppnet validate --out DIR` run (scripts/validation_doc.sh
# passes the one of its run, so `make docs-check` runs the cases once); DOCs default to README.md and
# docs/*.md. The regions `make docs` generates are skipped: they are the table. Prints one
# `file:line: reason` per problem and exits 1 if there is any; DOC_FIGURES_VERBOSE=1 also lists the
# figures that agree. The rules (docs/testing.md, "What docs-check checks"):
#  1. Every case id named (backticked or bare; prose, tables, code blocks) exists: an exact id, a group
#     (`cm5.v16`: the cases whose ids start with it), a pattern matching at least one case
#     (`net.saturation.*`, `cm1.e3...`), a brace list (`metro.t4.half_crossing_at_2t_{lower,upper}_k`)
#     whose members all exist. A word is taken for a case id when it starts with net. or fidelity., or
#     with cm1.e<N>, cm5.v<N>, metro.r<N>, metro.t<N> or another group the table has (metro.ft): config
#     keys (`cm1.pipeline`, `metro.wiring`) and plot names (`cm1.fig12`) do not look like that, and a
#     key of docs/config.md (`metro.mrp.load`) is never taken for one.
#  2. A figure quoted for a case is its expected or its simulated value, to the digits quoted (4.68
#     for 4.67611; 13.0 is not 16.0361). A case is named by its id or by the short names the pages use
#     (V16: the cases cm5.v16.*; E5: cm1.e5.*; R3: metro.r3.*), and its figure is the decimal number
#       a. first after the name in the same clause (a clause ends at , ; ) | the end of a sentence, or
#          the next name): "V16 on 256 nodes passes at 4.68 MB/s", "`cm1.e7.x`: 90.5 messages";
#       b. right before the name, with nothing but a unit, "(", "of", "case" and the like between:
#          "lifts it to 0.806 (case `net.saturation.x`)", "the 0.392 of case `net.saturation.y`";
#       c. first in each cell of a table row whose first cell names cases.
#     Any case of a group, pattern or list may hold it. A percentage may be the value times 100 or the
#     simulated value's difference from the expected in percent; a figure may be in units 1,000 times
#     the table's (GB/s for MB/s). Not figures: integers, numbers in quotes (the source's words) or
#     code spans, after ±, and section, equation, table and figure numbers (§3.5, Eq 3.1, Fig 3.26).
#  3. "N of them compare" (README's count of the cases that compare a simulated machine with its
#     publication) is the table's count of behaviour cases.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 VALIDATION_JSON [DOC...]" >&2
  exit 2
fi
json=$1
shift
if [ $# -eq 0 ]; then
  set -- README.md docs/*.md
fi
command -v jq > /dev/null || { echo "$0: jq is needed (scripts/setup.sh installs it)" >&2; exit 2; }
values=$(mktemp)
trap 'rm -f "$values"' EXIT
# One line per case: id, expected, simulated (a measurement that was not a number is null: nan).
jq -r '.cases[] | [.id, (.expected // "nan" | tostring), (.simulated // "nan" | tostring)] | @tsv' "$json" \
  > "$values"
[ -s "$values" ] || { echo "$json: no validation cases" >&2; exit 2; }

# Config keys (the key reference, docs/config.md) are never case ids, though some share a case group's
# prefix (`metro.mrp.load` beside the cases metro.mrp.*).
keys=$(grep -o '^| `[a-z0-9_.]*`' "$(dirname "$0")/../docs/config.md" 2> /dev/null | tr -d '|` ' | tr '\n' ' ' || true)

rc=0
awk -F'\t' -v verbose="${DOC_FIGURES_VERBOSE:-0}" -v keylist="$keys" '
# ---- the table ----------------------------------------------------------------------------------
FNR == NR { n++; id[n] = $1; expv[n] = $2; simv[n] = $3; split($1, c, "."); group[c[1] "." c[2]] = 1; next }

BEGIN {
  nk = split(keylist, klist, " ")
  for (i = 1; i <= nk; i++) is_key[klist[i]] = 1
  # What precedes a number that is a section, equation, table, figure or line number, not a figure.
  numbering = "(§|Eqs?|Equation|Tables?|Figs?|Figures?|[Ss]ecs?|Sections?|Chs?|Chapter|App|Appendix|" \
              "[Nn]otes?|[Ii]tem|L)\\.?[ \n]*$"
  # What may stand between a figure and the name after it (rule 2b): a unit, "(", "of", "case", ...
  glue = "^[ \n]*(%|×|x)?[ \n]*([A-Za-zµ/]+[ \n]*)?[(]?[ \n]*" \
         "((of|in|at|for|from|by|the|case|cases|see|cf\\.)[ \n]+)*[`*]*$"
}

# ---- helpers ------------------------------------------------------------------------------------
function fail(line, msg) { print unit_file ":" line ": " msg > "/dev/stderr"; problems++ }
function is_nan(v) { return v == "nan" || v == "-nan" || v == "null" }
function abs(x) { return x < 0 ? -x : x }
function fmt(v) { return is_nan(v) ? "nan" : sprintf("%.6g", v) }
# S with every character but newlines made a space: positions and line numbers stay.
function blank(s,    t) { t = s; gsub(/[^\n]/, " ", t); return t }
function line_of(text, pos,    pre) { pre = substr(text, 1, pos - 1); return unit_line + gsub(/\n/, "", pre) }
# Blanks what lies between each OPEN and the SHUT after it, keeping both.
function blank_spans(s, open, shut,    out, i, j, k) {
  out = ""
  while ((i = index(s, open)) > 0) {
    k = substr(s, i + length(open))
    j = index(k, shut)
    if (j == 0) break
    out = out substr(s, 1, i - 1 + length(open)) blank(substr(k, 1, j - 1)) shut
    s = substr(k, j + length(shut))
  }
  return out s
}
# The regular expression of an id pattern: dots literal, * anything, a trailing ... a prefix.
function pattern_regex(p,    prefix, r) {
  prefix = p ~ /\.\.\.$/
  if (prefix) p = substr(p, 1, length(p) - 3)
  r = p
  gsub(/\./, "\\.", r)
  gsub(/\*/, ".*", r)
  return "^" r (prefix ? "" : "$")
}
# Expands the brace lists of S ({a,b}), joining the results with SUBSEP; {K} stands for anything.
function expand(s,    i, j, parts, m, k, out) {
  i = index(s, "{")
  if (i == 0) return s
  j = index(substr(s, i), "}")
  if (j == 0) return s
  m = split(substr(s, i + 1, j - 2), parts, ",")
  if (m == 1 && parts[1] ~ /^[A-Z]+$/) parts[1] = "*"  # a placeholder: _k{K}
  out = ""
  for (k = 1; k <= m; k++)
    out = out (k > 1 ? SUBSEP : "") expand(substr(s, 1, i - 1) parts[k] substr(s, i + j))
  return out
}
# Is the word W meant as a case id (rule 1)?
function looks_like_case(w,    c, m) {
  if (w in is_key) return 0
  m = split(w, c, ".")
  if (m < 2 || c[2] == "") return 0
  if (c[m] ~ /^(md|toml|json|csv|cpp|hpp|sh|svg|txt)$/) return 0
  if (c[1] == "net" || c[1] == "fidelity" || (c[1] "." c[2]) in group || c[2] ~ /^\*/) return 1
  if (c[1] == "cm1") return c[2] ~ /^e[0-9]+$/
  if (c[1] == "cm5") return c[2] ~ /^v[0-9]+$/
  return c[2] ~ /^[rt][0-9]+$/
}
# The regular expressions (SUBSEP-joined) of the cases the word W names; reports a name with no case.
function resolve(w, line,    alts, m, k, r, i, hit, out, sug, shown, c) {
  m = split(expand(w), alts, SUBSEP)
  out = ""
  for (k = 1; k <= m; k++) {
    r = pattern_regex(alts[k])
    hit = 0
    for (i = 1; i <= n && !hit; i++) if (id[i] ~ r) hit = 1
    if (!hit && r ~ /\$$/) {  # a group: the ids that start with it and a dot
      r = substr(r, 1, length(r) - 1) "\\."
      for (i = 1; i <= n && !hit; i++) if (id[i] ~ r) hit = 1
    }
    if (hit) { out = out (out == "" ? "" : SUBSEP) r; continue }
    split(alts[k], c, ".")
    sug = ""; shown = 0
    for (i = 1; i <= n; i++)
      if (index(id[i], c[1] "." c[2] ".") == 1 && ++shown <= 3) sug = sug (shown > 1 ? ", " : "") id[i]
    fail(line, alts[k] " is not a validation case (mppnet validate --list)" \
         (sug == "" ? "" : "; " c[1] "." c[2] " has " sug (shown > 3 ? ", ..." : "")))
  }
  return out
}
function matches_any(x, rxs,    a, m, k) {
  m = split(rxs, a, SUBSEP)
  for (k = 1; k <= m; k++) if (x ~ a[k]) return 1
  return 0
}
# Does the figure Q, quoted with D decimals and times SCALE, print the value V (or V in units 1,000
# times larger or smaller; with PERCENT, V as a percentage)?
function agrees(q, d, scale, v, percent,    half, u) {
  if (is_nan(v)) return 0
  v = abs(v + 0)
  for (u = 0.001; u <= 1000; u *= 1000) {
    half = 0.5 * 10 ^ (-d) * scale * u * (1 + 1e-9)
    if (abs(q * scale * u - v) <= half) return 1
  }
  half = 0.5 * 10 ^ (-d) * (1 + 1e-9)
  return percent && abs(q - 100 * v) <= half
}

# ---- rule 2 --------------------------------------------------------------------------------------
# Checks the figure J against the cases of the regular expressions RXS, named NAME.
function check_figure(j, rxs, name,    i, ok, vals, m, e, s) {
  if ((j SUBSEP name) in checked) return
  checked[j SUBSEP name] = 1
  ok = 0; vals = ""; m = 0
  for (i = 1; i <= n && !ok; i++) {
    if (!matches_any(id[i], rxs)) continue
    if (++m <= 4) vals = vals (m > 1 ? "; " : "") id[i] " " fmt(expv[i]) " / " fmt(simv[i])
    e = expv[i]; s = simv[i]
    ok = agrees(numq[j], numd[j], numscale[j], e, numpct[j]) ||
         agrees(numq[j], numd[j], numscale[j], s, numpct[j])
    if (!ok && numpct[j] && !is_nan(e) && !is_nan(s) && e + 0 != 0)
      ok = agrees(numq[j], numd[j], 1, 100 * (s - e) / e, 0)
  }
  if (ok && verbose)
    print unit_file ":" line_of(unit_masked, numpos[j]) ": " numtxt[j] " for " name ": ok"
  if (!ok)
    fail(line_of(unit_masked, numpos[j]), numtxt[j] (numpct[j] ? "%" : "") " is quoted for " name \
         ", whose expected / simulated values are " vals (m > 4 ? "; ..." : ""))
}

# Is there a clause end in [A, B) of the unit?
function clause_ends(a, b,    i) {
  for (i = a; i < b; i++) if (i in issep) return 1
  return 0
}

# The decimal numbers of MASKED: position, text, value, decimals, scale, percent and whether they are
# figures at all (not section, equation, table or figure numbers, not after ±).
function find_numbers(masked,    s, pos, p, t, before, after, e, lastref) {
  nnum = 0; s = masked; pos = 0; lastref = -1
  while (match(s, /[0-9]+(\.[0-9]+)?/)) {
    p = pos + RSTART; t = substr(s, RSTART, RLENGTH)
    s = substr(s, RSTART + RLENGTH); pos = p + RLENGTH - 1
    before = substr(masked, 1, p - 1); after = substr(masked, p + RLENGTH)
    if (before ~ /[A-Za-z_.,]$/ || after ~ /^\.[0-9]/) continue  # part of a name, a version or §3.5.2
    nnum++
    numpos[nnum] = p; numend[nnum] = p + RLENGTH; numtxt[nnum] = t
    numq[nnum] = t + 0; numd[nnum] = index(t, ".") ? length(t) - index(t, ".") : -1
    numfig[nnum] = numd[nnum] >= 0 && after !~ /^([A-Za-wyz0-9_]|x[A-Za-z])/ && before !~ /±[ \n]*$/
    if (before ~ numbering ||
        (lastref >= 0 && substr(masked, lastref, p - lastref) ~ /^[ \n]*([-,\/]|–|to|and|or)[ \n]*$/)) {
      numfig[nnum] = 0; lastref = p + RLENGTH
    }
    numscale[nnum] = 1
    if (match(after, /^[ \n]*(·|×|x)[ \n]*10\^[-−]?[0-9]+/)) {
      e = substr(after, RSTART, RLENGTH); sub(/.*\^/, "", e); sub(/−/, "-", e)
      numscale[nnum] = 10 ^ (e + 0)
    }
    numpct[nnum] = after ~ /^[ \n]*%/
  }
}

# The clause ends of MASKED (rule 2a): , (not between digits) ; ) | and a sentence end: . ? or !
# before a space and a word that starts with neither a small letter nor a digit, unless the word before
# the stop is an abbreviation.
function find_clause_ends(masked,    L, i, ch, k, w) {
  for (k in issep) delete issep[k]
  L = length(masked)
  for (i = 1; i <= L; i++) {
    ch = substr(masked, i, 1)
    if (ch == ";" || ch == ")" || ch == "|") { issep[i] = 1; continue }
    if (ch == ",") {  # not in 4,096
      if (!(substr(masked, i - 1, 1) ~ /[0-9]/ && substr(masked, i + 1, 1) ~ /[0-9]/)) issep[i] = 1
      continue
    }
    if (ch !~ /[.?!]/ || substr(masked, i + 1, 1) !~ /[ \n]/) continue
    k = substr(masked, i + 1); sub(/^[ \n]+/, "", k)
    if (k ~ /^[a-z0-9]/) continue
    w = substr(masked, 1, i - 1); sub(/.*[^A-Za-z.]/, "", w)
    if (w ~ /^(Fig|Figs|Eq|Eqs|sec|secs|Sec|Ch|Chs|App|al|e\.g|i\.e|cf|vs|No|approx|resp|p|pp)$/) continue
    issep[i] = 1
  }
}

# ---- one unit: a paragraph, list item, table row, heading or code-block line ---------------------
# TEXT holds its lines joined by newlines; FIGURES says whether rule 2 applies.
function check_unit(text, figures,    masked, s, pos, p, w, ch, depth, j, k, rx, g, q, short, letter,
                    between, L, cells, ncell, rowrx, found) {
  nref = 0
  # Rule 1: every word that looks like a case id.
  s = text; pos = 0
  while (match(s, /(net|fidelity|cm1|cm5|metro)\.[A-Za-z0-9_*{]/)) {
    p = pos + RSTART
    # The word: id characters and brace lists (which may wrap); a comma outside braces ends it.
    w = ""; depth = 0
    for (j = p; j <= length(text); j++) {
      ch = substr(text, j, 1)
      if (ch == "{") depth++
      else if (ch == "}") depth--
      else if (depth > 0) { if (ch ~ /[ \n]/) continue; if (ch == "`") break }
      else if (ch !~ /[A-Za-z0-9_.*]/) break
      w = w ch
    }
    s = substr(text, j); pos = j - 1
    if (p > 1 && substr(text, p - 1, 1) ~ /[A-Za-z0-9_\/.-]/) continue
    q = length(w)
    if (w !~ /\.\.\.$/) sub(/\.+$/, "", w)  # a full stop after the id is not part of it
    if (!looks_like_case(w)) continue
    rx = resolve(w, line_of(text, p))
    if (rx == "") continue
    nref++; refpos[nref] = p; refend[nref] = j - (q - length(w)); refrx[nref] = rx; refname[nref] = w
    # Further names of the same group listed after an id: `metro.r6.a, b, c`.
    g = w; sub(/[^.]*$/, "", g)
    while (match(s, /^, *[a-z][a-z0-9_]*/)) {
      k = substr(s, RSTART, RLENGTH); sub(/^, */, "", k)
      q = 0
      for (j = 1; j <= n && !q; j++) if (id[j] == g k) q = 1
      if (!q) break
      nref++; refpos[nref] = pos + RLENGTH - length(k) + 1; refend[nref] = pos + RLENGTH + 1
      refrx[nref] = pattern_regex(g k); refname[nref] = g k
      s = substr(s, RLENGTH + 1); pos += RLENGTH
    }
  }
  if (!figures) return
  # Rule 2. Code spans, quotations, link targets and comments hold no figures.
  masked = blank_spans(text, "`", "`")
  masked = blank_spans(masked, "\"", "\"")
  masked = blank_spans(masked, "“", "”")
  masked = blank_spans(masked, "](", ")")
  masked = blank_spans(masked, "<!--", "-->")
  unit_masked = masked
  # The short names: V16 (cm5.v16.*), E5 (cm1.e5.*), R3 (metro.r3.*), where the table has the group.
  s = masked; pos = 0
  while (match(s, /[VER][0-9]+/)) {
    p = pos + RSTART; short = substr(s, RSTART, RLENGTH)
    s = substr(s, RSTART + RLENGTH); pos = p + RLENGTH - 1
    if (p > 1 && substr(masked, p - 1, 1) ~ /[A-Za-z0-9_\/.-]/) continue
    if (substr(masked, p + length(short), 1) ~ /[A-Za-z0-9_]/) continue
    letter = substr(short, 1, 1)
    g = (letter == "V" ? "cm5.v" : letter == "E" ? "cm1.e" : "metro.r") substr(short, 2)
    if (!(g in group)) continue
    nref++; refpos[nref] = p; refend[nref] = p + length(short)
    refrx[nref] = "^" g "\\."; refname[nref] = short
  }
  if (nref == 0) return
  find_numbers(masked)
  find_clause_ends(masked)
  for (k in checked) delete checked[k]
  for (k = 1; k <= nref; k++) {
    # a. The first figure after the name, in its clause and before the next name.
    for (j = 1; j <= nnum; j++) {
      if (numpos[j] < refend[k]) continue
      if (clause_ends(refend[k], numpos[j])) break
      found = 0
      for (q = 1; q <= nref; q++) if (refpos[q] >= refend[k] && refpos[q] < numpos[j]) found = 1
      if (found) break
      if (numfig[j]) { check_figure(j, refrx[k], refname[k]); break }
    }
    # b. A figure right before the name.
    for (j = nnum; j >= 1 && numend[j] > refpos[k]; j--) {}
    if (j >= 1 && numfig[j]) {
      between = substr(masked, numend[j], refpos[k] - numend[j])
      if (between ~ glue) check_figure(j, refrx[k], refname[k])
    }
  }
  # c. A table row: the first number of each cell after the first, for the cases of the first cell.
  if (masked !~ /^[ \t]*\|/) return
  L = length(masked); ncell = 0
  for (p = 1; p <= L; p++)
    if (substr(masked, p, 1) == "|" && substr(masked, p - 1, 1) != "\\") cells[++ncell] = p
  if (ncell < 3) return
  rowrx = ""; g = ""
  for (k = 1; k <= nref; k++)
    if (refpos[k] > cells[1] && refpos[k] < cells[2]) {
      rowrx = rowrx (rowrx == "" ? "" : SUBSEP) refrx[k]; g = g (g == "" ? "" : ", ") refname[k]
    }
  if (rowrx == "") return
  for (k = 2; k < ncell; k++)
    for (j = 1; j <= nnum; j++) {
      if (numpos[j] < cells[k]) continue
      if (numpos[j] < cells[k + 1] && numfig[j]) check_figure(j, rowrx, g)
      break
    }
}

# ---- the docs, cut into units --------------------------------------------------------------------
function flush() { if (unit_text != "") check_unit(unit_text, 1); unit_text = "" }
FNR == 1 { flush(); generated = 0; fence = 0 }
/^<!-- begin: generated/ { flush(); generated = 1; next }
/^<!-- end: generated/ { generated = 0; next }
generated { next }
/^[ \t]*(```|~~~)/ { flush(); fence = !fence; next }
fence { unit_file = FILENAME; unit_line = FNR; check_unit($0, 0); next }
/^[ \t]*$/ || /^#/ || /^[ \t]*\|/ || /^[ \t]*([-*+]|[0-9]+\.)[ \t]/ { flush() }
/^[ \t]*$/ || /^[ \t]*\|[-: |]*$/ { next }
{
  if (unit_text == "") { unit_text = $0; unit_file = FILENAME; unit_line = FNR }
  else unit_text = unit_text "\n" $0
  if ($0 ~ /^#/ || $0 ~ /^[ \t]*\|/) flush()
}
END { flush(); exit problems > 0 ? 3 : 0 }
' "$values" "$@" || rc=$?
# 3. The count of cases that compare a simulated machine with its publication ("N of them compare"),
#    as a page quotes it, is the table's count of behaviour cases.
behaviour=$(jq '[.cases[] | select(.evidence == "behaviour")] | length' "$json")
for doc in "$@"; do
  for quoted in $(tr '\n' ' ' < "$doc" | grep -oE '[0-9,]+ of +them compare' | grep -oE '^[0-9,]+' | tr -d ,); do
    if [ "$quoted" != "$behaviour" ]; then
      echo "$doc: says $quoted cases compare a simulated machine with its publication; the table has $behaviour" >&2
      [ "$rc" = 0 ] && rc=3
    fi
  done
done
if [ "$rc" = 3 ]; then
  echo "the docs name validation cases, or quote figures, that the validation table does not hold" \
       "(rules: docs/testing.md, \"What docs-check checks\")" >&2
  exit 1
fi
exit "$rc"
