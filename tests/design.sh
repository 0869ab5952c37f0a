#!/usr/bin/env bash
# `mppnet design ...`: every calculator's defaults print the thesis's worked example (note 004c §8 targets,
# note 004a R6); bad values give one line on stderr naming the option, and exit status 2.
set -u
mppnet=$1
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# expect NAME EXPECTED_STDOUT_SUBSTRING ARGS...
expect() {
  local name=$1 want=$2
  shift 2
  local out
  out=$("$mppnet" design "$@" --out "$dir/$name" 2>&1)
  local status=$?
  if [ "$status" -ne 0 ]; then echo "FAIL $name: exit status $status ($out)"; fail=1; fi
  if [[ "$out" != *"$want"* ]]; then printf 'FAIL %s: output lacks "%s":\n%s\n' "$name" "$want" "$out"; fail=1; fi
  # The printed result lines are also written, one CSV row and one JSON entry each.
  local lines rows
  lines=$(grep -vc '^results: ' <<< "$out")
  rows=$(jq '.rows | length' "$dir/$name/design.json" 2>/dev/null)
  if [ "$rows" != "$lines" ]; then echo "FAIL $name: design.json has ${rows:-no} rows for $lines printed lines"; fail=1; fi
  [ -s "$dir/$name/design.csv" ] || { echo "FAIL $name: no design.csv"; fail=1; }
}

# reject NAME EXPECTED_STDERR_SUBSTRING ARGS...
reject() {
  local name=$1 want=$2
  shift 2
  local err
  err=$("$mppnet" design "$@" 2>&1 >/dev/null)
  local status=$?
  if [ "$status" -ne 2 ]; then echo "FAIL $name: exit status $status, want 2 ($err)"; fail=1; fi
  if [[ "$err" != *"$want"* ]]; then echo "FAIL $name: stderr '$err' lacks '$want'"; fail=1; fi
  if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then echo "FAIL $name: more than one line: $err"; fail=1; fi
}

# Impedance selection (§6.8; targets 1-2): Table 6.1 selects 0x06, the misleading pairs 3, the naive rule 10.
expect table_6_1 "selected code        0x06 (6)" impedance
expect table_6_1_flag "selected code        0x06 (6)" impedance --table-6-1
expect table_6_1_l15 "selected code        0x06 (6)" impedance --table-6-1 --register-length 15
expect misleading "selected code        0x03 (3)" impedance --misleading-pairs
expect misleading_naive "naive pair rule      0x0A (10)" impedance --misleading-pairs
expect misleading_list "selected code        0x03 (3)" impedance \
  --trip 11,10,9,8,7,6,6,6,6,6,6,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4

# RN1 hop (target 9), unit trees (target 10), MBTA (target 8).
expect rn1 "t_nl = t_io + t_switch = 20 + 14 = 34 ns" rn1
expect ut64x2 "routers              16/16/12/8 " unit-tree
expect ut64x2_total "total routers        52" unit-tree
expect ut64x8 "routers              64/64/48/32 " unit-tree --leaf-channels 8
expect mbta_latency "(3 routers + 4 chip crossings) x 10 ns = 70 ns" mbta
expect mbta_200mhz "x 5 ns = 35 ns" mbta --cycle-ns 5
expect mbta_peak "64 nodes x 100 MB/s = 6400 MB/s (6.4 GB/s)" mbta
expect mbta_node "= 300 MB/s" mbta
expect mbta_memory "4 users x 8 B / 80 ns = 400 MB/s" mbta
expect mbta_transmit "ceil(192 / 8) x 10 ns = 240 ns" mbta

# Reliability (§2.5; R6): 10^6 parts at 10^-5 /h fail every 6 minutes; 1000 tolerated faults give 100 h.
expect mttf_none "1 / lambda_s = 0.1 h (6 min)" reliability
expect mttf_rate "lambda_s = 1000000 parts x 1e-05 /h = 10 /h" reliability
expect mttf_scientific "lambda_s = 1000000 parts" reliability --parts 1e6
expect mttf_k "k = 1000 faults: k / lambda_s = 100 h (6000 min)" reliability

# Latency budget (Eqs 2.4-2.9, 3.1), wire budget (target 7), stack (target 11), bounce (targets 4-5), target 6.
expect latency_switching "T_s = 3 stages x (20 + 14) ns = 102 ns" latency
expect latency_eq31 "T_t = 15 ns" latency --cycle-ns 5
expect latency_message "= 362 ns" latency
expect wire_fits "3 + 2 = 5 ns = 1 cycle of 5 ns (200 MHz)" wire
expect wire_pipelined "extra turn delay 2 x (2 - 1) = 2 cycles" wire --wire-cm 31
expect stack_pitch "100 + 140 mil = 0.24 in" stack
expect stack_height "19 layers = 4.56 in" stack
expect stack_board "4 parts x 3 in pitch = 12 in" stack
expect bounce_source "[0,2T) 0.25 V  [2T,4T) 0.625 V" bounce
expect bounce_matched "[T,3T) 1 V" bounce --drive-ratio 1
expect bounce_half "at t = 2T" bounce
expect bounce_power_5v "series 250 mW" bounce --volts 5
expect bounce_power_1v "series 10 mW during each round trip, parallel 20 mW steady" bounce
expect recycle "= 25 inverter pairs" recycle-register

# Bad values: the option, the reason, status 2, one line.
reject negative "design rn1: --t-switch-ns: must be at least 0 (got -3)" rn1 --t-switch-ns=-3
reject zero_cycle "design latency: --cycle-ns: must be > 0 (got 0)" latency --cycle-ns 0
reject not_a_number "design mbta: --nodes: expected a whole number, got \"many\"" mbta --nodes many
reject bad_list "design impedance: --trip: element 2 (\"x\") is not a whole number" impedance --trip 5,x,3
reject empty_list_element "design latency: --segments-cm: element 2 (\"\") is not a number" latency \
  --segments-cm 30,,90
reject trip_beyond_register "design impedance: --trip: element 1 must be at most 16 (got 17)" impedance \
  --trip 17,3
reject two_sources "design impedance: --trip: give the samples one way" impedance --trip 5,3 --misleading-pairs
reject radix "design unit-tree: --radix: must be at least 2 (got 1)" unit-tree --radix 1
reject uneven_tree "design unit-tree: --dilation: r x d = 12 does not divide" unit-tree --dilation 3
reject tolerated_above_parts "design reliability: --tolerated-faults: must be at most 10 (got 11)" reliability \
  --parts 10 --tolerated-faults 11
reject permittivity "design wire: --permittivity: must be at least 1 (got 0.5)" wire --permittivity 0.5
reject tiny_cycle "design wire: --cycle-ns: must be 0 or between 1e-30 and 1e+30 in size" wire --cycle-ns 1e-308
# Inputs that once gave an infinite, wrapped or zero result are refused, naming the input.
reject infinite_bandwidth "design mbta: --slot-ns: must be 0 or between 1e-30 and 1e+30 in size" \
  mbta --slot-ns 1e-310
reject wrapped_register "design recycle-register: --clock-mhz: a 1e+12 ps period over 100 ps inverters" \
  recycle-register --clock-mhz 1e-6
reject zero_bandwidth "design mbta: --slot-ns: must be 0 or between 1e-30 and 1e+30 in size" mbta --slot-ns 1e300
reject long_wire "design wire: --cycle-ns: 3.33333e+07 ns of pad and wire take 6.67e+06 cycles of 5 ns" \
  wire --wire-cm 5e8 --cycle-ns 5
exit $fail
