#!/usr/bin/env bash
# `mppnet import booksim` over configs shaped like the examples BookSim 2 ships (runfiles/ and
# src/examples/ of booksim2, written here from the keys each sets, not copied): which import, and
# which are refused, on which key and for what reason. docs/router.md lists the same 17 with their status.
set -u
mppnet=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

# The router keys most examples share (a two-stage iSLIP router with 2-cycle credits).
common='num_vcs = 16; vc_buf_size = 8; vc_allocator = islip; sw_allocator = islip;
credit_delay = 2; routing_delay = 0; vc_alloc_delay = 1; sw_alloc_delay = 1; st_final_delay = 1;
input_speedup = 1; output_speedup = 1; sim_type = latency; warmup_periods = 3; sim_count = 1;'
ranges='read_request_begin_vc = 0; read_request_end_vc = 5; write_reply_begin_vc = 2; write_reply_end_vc = 7;
read_reply_begin_vc = 8; read_reply_end_vc = 12; write_request_begin_vc = 10; write_request_end_vc = 15;'

# example NAME STATUS TEXT BODY: NAME.cfg holds BODY; the import exits with STATUS and its output
# (stderr when refused, the config when imported) contains TEXT.
example() {
  local name=$1 want=$2 text=$3 body=$4
  printf '%s\n' "$body" > "$dir/$name.cfg"
  local out status
  out=$("$mppnet" import booksim "$dir/$name.cfg" 2>&1)
  status=$?
  if [ "$status" -ne "$want" ]; then echo "FAIL $name: exit status $status, want $want: $out"; fail=1; fi
  if [[ "$out" != *"$text"* ]]; then echo "FAIL $name: output lacks '$text': $out"; fail=1; fi
}

# runfiles/ (BookSim itself refuses cmeshconfig, flatflyconfig, flatflyconfig1 and knconfig for their
# undeclared keys, and immutable and immutabletest for routing function none on its default torus).
example cmeshconfig 2 "limit: BookSim has no such key" "$ranges $common
wait_for_tail_credit = 1; alloc_iters = 1; topology = cmesh; k = 4; n = 2; c = 4; x = 4; y = 4; xr = 2; yr = 2;
routing_function = dor_no_express; physical_subnetworks = 1; limit = 0; use_read_write = 1; traffic = bitcomp;
injection_rate = 0.1; batch_size = 2000; max_outstanding_requests = 4;"
example dragonflyconfig 2 "topology: BookSim's dragonflynew" "num_vcs = 3; vc_buf_size = 256; vc_allocator = islip;
sw_allocator = islip; alloc_iters = 4; internal_speedup = 1.7; routing_delay = 0; credit_delay = 2;
routing_function = min; traffic = uniform; injection_rate = 0.2; topology = dragonflynew; k = 4; n = 1;"
example flatflyconfig 2 "limit: BookSim has no such key" "$ranges $common
vc_allocator = max_size; sw_allocator = max_size; alloc_iters = 2; topology = flatfly; c = 4; k = 4; n = 2;
x = 4; y = 4; xr = 2; yr = 2; limit = 64; routing_function = ran_min; injection_rate = 0.78;"
example flatflyconfig1 2 "limit: BookSim has no such key" "$ranges $common
topology = flatfly; c = 4; k = 4; n = 2; limit = 64; routing_function = ran_min; vc_allocator = select;
sw_allocator = select; wait_for_tail_credit = 1; max_outstanding_requests = 8; traffic = bitcomp;"
example ftreeconfig 2 "wait_for_tail_credit: wait_for_tail_credit = 1: mppnet frees an output VC" "$ranges $common
wait_for_tail_credit = 1; alloc_iters = 2; max_outstanding_requests = 8; topology = fattree; k = 4; n = 3;
xr = 2; yr = 2; routing_function = nca; traffic = bitcomp; injection_rate = 0.29;"
example immutable 2 "none_torus: mppnet routes a torus in dimension order only" "$ranges $common alloc_iters = 2; sample_period = 10000;"
example immutabletest 2 "internal_speedup: mppnet's crossbar speedup is a whole number" "$common
alloc_iters = 2; internal_speedup = 1.7; wait_for_tail_credit = 1;"
example knconfig 2 "limit: BookSim has no such key" "$ranges $common
topology = flatfly; c = 8; k = 8; n = 1; x = 4; y = 2; xr = 2; yr = 4; limit = 64; routing_function = ugal;
packet_size = 8; traffic = diagonal; injection_rate = 0.01;"
example meshconfig 2 "wait_for_tail_credit:" "$common wait_for_tail_credit = 1; alloc_iters = 2;
topology = mesh; k = 8; n = 2; routing_function = dor; use_read_write = 0; injection_rate = 0.2;"

# src/examples/ (BookSim runs all of them).
example ex_cmeshconfig 2 "use_noc_latency (BookSim's default 1): with it BookSim's cmesh" "topology = cmesh;
k = 4; n = 2; c = 4; xr = 2; yr = 2; x = 4; y = 4; routing_function = dor_no_express; traffic = bitcomp;
use_read_write = 0; batch_size = 2000;"
example ex_dragonflyconfig 2 "topology: BookSim's dragonflynew" "vc_buf_size = 256; internal_speedup = 2.0;
vc_allocator = separable_input_first; sw_allocator = separable_input_first; routing_function = min;
num_vcs = 2; packet_size = 10; injection_rate_uses_flits = 1; injection_rate = 0.8; topology = dragonflynew;
k = 4; n = 1; watch_out = -;"
example ex_fattree_config 2 "hold_switch_for_packet: hold_switch_for_packet = 1" "hold_switch_for_packet = 1;
vc_buf_size = 16; vc_allocator = separable_input_first; sw_allocator = separable_input_first; credit_delay = 2;
routing_delay = 0; sample_period = 10000; routing_function = nca; num_vcs = 4; injection_rate = 0.6;
injection_rate_uses_flits = 1; topology = fattree; k = 4; n = 3; watch_out = -;"
example ex_flatflyconfig 2 "topology: \"flatfly\" is not a topology mppnet models" "num_vcs = 8; vc_buf_size = 4;
topology = flatfly; c = 4; k = 4; n = 2; x = 4; y = 4; xr = 2; yr = 2; routing_function = ran_min;
use_read_write = 0; $ranges"
example mesh88_lat 2 "input_speedup: input_speedup = 2" "topology = mesh; k = 8; n = 2; routing_function = dor;
num_vcs = 8; wait_for_tail_credit = 1; credit_delay = 2; routing_delay = 0; input_speedup = 2;
traffic = transpose; packet_size = 20; injection_rate = 0.005;"
example singleconfig 2 "topology: \"fly\" is not a topology mppnet models" "topology = fly; k = 10; n = 1;
num_vcs = 8; vc_allocator = separable_input_first; sw_allocator = separable_input_first;
routing_function = dest_tag; injection_rate = 1.0; sample_period = 100000; routing_delay = 0;"
example torus88 2 "use_noc_latency (BookSim's default 1): with it a BookSim torus" "topology = torus; k = 8; n = 2;
routing_function = dim_order; num_vcs = 2; traffic = uniform; injection_rate = 0.15;"
example anynet_config 2 "topology: \"anynet\" is not a topology mppnet models" "topology = anynet;
routing_function = min; network_file = anynet_file; num_vcs = 1; vc_buf_size = 3; injection_rate = 0.01;
vc_allocator = separable_input_first; sw_allocator = separable_input_first;"

# What the refusals leave: the concentrated mesh example with 1-cycle links imports, its batch-only key
# noted, and runs.
example cmesh_one_cycle_links 0 'kind = "cmesh"' "topology = cmesh; k = 4; n = 2; c = 4; xr = 2; yr = 2;
x = 4; y = 4; routing_function = dor_no_express; traffic = bitcomp; use_noc_latency = 0; batch_size = 2000;
injection_rate = 0.05; max_samples = 6; sample_period = 500;"
"$mppnet" import booksim "$dir/cmesh_one_cycle_links.cfg" --out "$dir/cmesh.toml" >/dev/null || fail=1
grep -q "# Note: batch_size (line 2): ignored, as BookSim ignores it here" "$dir/cmesh.toml" ||
  { echo "FAIL cmesh: no note on batch_size"; fail=1; }
if ! "$mppnet" run "$dir/cmesh.toml" --out "$dir/cmesh_run" >/dev/null 2>&1; then
  echo "FAIL cmesh: the imported config does not run"
  fail=1
fi
exit $fail
