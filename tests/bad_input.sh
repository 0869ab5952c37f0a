#!/usr/bin/env bash
# Every kind of bad input: one line naming file, line, key and reason on stderr; exit status 2; no results.
set -u
mppnet=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

# expect NAME EXPECTED_STDERR_SUBSTRING ARGS...
expect() {
  local name=$1 want=$2
  shift 2
  local err out=()
  case $1 in run|sweep|app) out=(--out "$dir/out-$name") ;; esac
  err=$("$mppnet" "$@" "${out[@]}" 2>&1 >/dev/null)
  local status=$?
  if [ "$status" -ne 2 ]; then echo "FAIL $name: exit status $status, want 2 ($err)"; fail=1; fi
  if [[ "$err" != *"$want"* ]]; then echo "FAIL $name: stderr '$err' lacks '$want'"; fail=1; fi
  if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then echo "FAIL $name: more than one line: $err"; fail=1; fi
  if [ -e "$dir/out-$name" ]; then echo "FAIL $name: wrote results"; fail=1; fi
}

cfg() { printf '%b' "$2" > "$dir/$1.toml"; echo "$dir/$1.toml"; }

expect unknown_key "unknown.toml:2: router.vsc: unknown key (did you mean router.vcs?)" \
  run "$(cfg unknown '[router]\nvsc = 4\n')"
expect wrong_type "wrong_type.toml:2: router.vcs:" run "$(cfg wrong_type '[router]\nvcs = 2.0\n')"
expect out_of_range "range.toml:2: router.vcs:" run "$(cfg range '[router]\nvcs = 0\n')"
expect torus_radix "torus.toml:3: topology.k:" run "$(cfg torus '[topology]\nkind = "torus"\nk = 1\nn = 2\n')"
expect pow2 "pow2.toml:" run "$(cfg pow2 '[topology]\nkind = "mesh"\nk = 10\nn = 3\n[traffic]\npattern = "bit_reverse"\n')"
expect unreadable "no-such-file.toml" run "$dir/no-such-file.toml"
expect syntax "syntax.toml:2" run "$(cfg syntax '[router]\nvcs = = 4\n')"
expect bad_set "traffic.rate" run "$(cfg ok '')" --set traffic.rate=7
expect bad_set_key "did you mean traffic.rate?" run "$(cfg ok2 '')" --set traffic.rte=0.1
expect bad_sweep "--sweep" sweep "$(cfg ok3 '')" --sweep traffic.rate=0.1:0.5
expect bad_list "cannot list" list nothing
# Values reach the terminal as text: an escape sequence is shown as \x1b, not obeyed.
expect control_chars 'argument 4 "traffic.pattern=\x1b[31mred" has a control character' run "$(cfg ok5 '')" --set $'traffic.pattern=\e[31mred'
# A 2 MB key pasted by mistake: answered at once, and not echoed whole.
head -c 2000000 /dev/zero | tr '\0' a > "$dir/huge_key.toml"; printf ' = 1\n' >> "$dir/huge_key.toml"
start=$(date +%s)
expect huge_key "characters not shown" run "$dir/huge_key.toml"
[ $(($(date +%s) - start)) -le 5 ] || { echo "FAIL huge_key: took more than 5 s"; fail=1; }
# --seeds never wraps past the largest seed.
expect seeds_wrap "--seeds 3: run.seed: seeds 9223372036854775807 to 9223372036854775807 + 2 would pass" \
  sweep "$(cfg wrap '')" --sweep traffic.rate=0.1,0.2 --seeds 3 --set run.seed=9223372036854775807
# Errors blame what the user wrote: the sweep, not a --set it never typed.
expect sweep_value "--sweep router.vcs=1:3:0.5: router.vcs: the sweep's value 1.5:" \
  sweep "$(cfg ok6 '')" --sweep router.vcs=1:3:0.5
expect sweep_step "step.toml:4: sweep.step: 0.1 to 0.3 in steps of 1e-300 is more than 10,000 points" \
  sweep "$(cfg step '[sweep]\nfrom = 0.1\nto = 0.3\nstep = 1e-300\n')"
# A directory named as a CM-1 pattern file is refused, not read as a file of no messages.
expect pattern_dir "cannot read the pattern file: it is a folder" \
  run "$(cfg cm1dir "[machine]\nmodel = \"cm1\"\n[traffic]\npattern = \"file\"\nfile = \"$dir\"\n")"
expect too_big "topology.n: this network needs about" \
  run "$(cfg too_big '[topology]\nkind = "fat_tree"\nchildren = 4\nn = 11\n')"
expect too_big_for_limit "run.max_memory_gb: this network needs about" \
  run "$(cfg limit '[run]\nmax_memory_gb = 0.0001\n')"
expect cycles_without_fixed "cycles.toml:2: run.cycles: run.cycles sets the length of a fixed run" \
  run "$(cfg cycles '[run]\ncycles = 5000\n')"
expect fixed_too_short "short.toml:4: run.cycles: a fixed run of run.cycles = 500 leaves nothing to measure" \
  run "$(cfg short '[run]\nmode = "fixed"\nwarmup_cycles = 1000\ncycles = 500\n')"
# Below 1/65536 the network's 16.16 fixed-point ejection tokens cannot hold the rate (it once overflowed
# the watchdog's cross-check instead of being refused).
expect tiny_eject_rate "router.eject_flits_per_cycle: must be between 1.52587890625e-05 and 1 (got 1e-19)" \
  run "$(cfg ok4 '')" --set router.eject_flits_per_cycle=1e-19
appcfg=$(cfg app '[topology]\nkind = "mesh"\nk = 4\nn = 2\n[app]\ncounter_home = 3\n')
expect app_param "--set app.counter_home=40: app.counter_home: 40 is not a node of this 16-node machine" \
  app counter "$appcfg" --set app.counter_home=40
expect app_param_line "app2.toml:6: app.getput_distance: 16 makes every node its own partner" \
  app getput "$(cfg app2 '[topology]\nkind = "mesh"\nk = 4\nn = 2\n[app]\ngetput_distance = 16\n')"
expect app_cut_through "app.toml: router.buffer_flits: virtual_cut_through switching needs a VC buffer" \
  app alltoall "$appcfg" --set router.switching=virtual_cut_through --set am.packet_payload_bytes=64
expect app_header "--set am.header_bytes=0: am.header_bytes:" app alltoall "$appcfg" --set am.header_bytes=0
expect app_memory "--set am.memory_bytes=4294967296: am.memory_bytes: 16 nodes x 4294967296 bytes" \
  app alltoall "$appcfg" --set am.memory_bytes=4294967296
expect app_dma_startup "app_dma.toml:3: am.dma_startup_cycles:" \
  app alltoall "$(cfg app_dma '[am]\ndma = true\ndma_startup_cycles = -5\n')"
expect app_dma_type "--set am.dma=2: am.dma:" app alltoall "$appcfg" --set am.dma=2
# Every model's file is parsed once, by the command that reads it: a syntax error names its file and line.
expect metro_syntax "metro_syntax.toml:3:" yield "$(cfg metro_syntax '[machine]\nmodel = "metro"\n[metro\n')"
expect cm1_syntax "cm1_syntax.toml:2:" run "$(cfg cm1_syntax '[machine]\nmodel = = "cm1"\n')"
expect app_syntax "app_syntax.toml:2:" app counter "$(cfg app_syntax '[am]\nsend_cycles = = 3\n')"
# An application file's sections are read by their owners; one no owner reads is still rejected.
expect app_section "app3.toml:5: unknown section [appp] (did you mean [app]?)" \
  app counter "$(cfg app3 '[topology]\nkind = "mesh"\nk = 4\nn = 2\n[appp]\ncounter_home = 3\n')"
# The CM-5: machines it cannot have, messages it cannot send, buffers the model does not model.
expect cm5_size "cm5_size.toml:3: machine.nodes: a CM-5 has a multiple of 32 nodes (got 100)" \
  run "$(cfg cm5_size '[machine]\nmodel = "cm5"\nnodes = 100\n')"
expect cm5_too_big "cm5_big.toml:3: machine.nodes:" run "$(cfg cm5_big '[machine]\nmodel = "cm5"\nnodes = 32768\n')"
expect cm5_small "cm5_small.toml:3: machine.nodes:" run "$(cfg cm5_small '[machine]\nmodel = "cm5"\nnodes = 16\n')"
expect cm5_words "cm5_words.toml:4: run.words:" run "$(cfg cm5_words '[machine]\nmodel = "cm5"\n[run]\nwords = 6\n')"
expect cm5_buffer "data_network.buffer_nibbles: 40 nibbles is shorter than the longest message" \
  run "$(cfg cm5_buffer '[machine]\nmodel = "cm5"\n[data_network]\nbuffer_nibbles = 40\n')"
expect cm5_parents "data_network.parents: 5 parent links: a chip has 1 to 4" \
  run "$(cfg cm5_parents '[machine]\nmodel = "cm5"\n[data_network]\nparents = [2, 5]\n')"
expect cm5_side "cm5_side.toml:4: interface.requests:" \
  run "$(cfg cm5_side '[machine]\nmodel = "cm5"\n[interface]\nrequests = "up"\n')"
expect cm5_app_key "cm5_app.toml:4: am.send_cycle: unknown key" \
  app counter "$(cfg cm5_app '[machine]\nmodel = "cm5"\n[am]\nsend_cycle = 3\n')"
# A default that does not fit is fitted to the machine (and said so); a value the user set is refused.
expect cm5_app_memory "app.alltoall_bytes: alltoall needs" \
  app alltoall "$(cfg cm5_mem '[machine]\nmodel = "cm5"\nnodes = 1024\n')" --set app.alltoall_bytes=64
expect cm5_level1_fault "faults.failed_chip: a level-1 chip is its 4 nodes' only chip on its side" \
  run "$(cfg cm5_f1 '[machine]\nmodel = "cm5"\n[faults]\nfailed_chip = [0, 1, 1, 0]\n')"
expect cm5_no_chip "cm5_f2.toml:4: faults.failed_chip: no chip [0, 9, 1, 0]" \
  run "$(cfg cm5_f2 '[machine]\nmodel = "cm5"\n[faults]\nfailed_chip = [0, 9, 1, 0]\n')"
expect cm5_map_out "faults.map_out_nodes: node 40 is not in a 32-node machine" \
  app counter "$(cfg cm5_f3 '[machine]\nmodel = "cm5"\nnodes = 32\n[faults]\nmap_out_nodes = [40]\n')"
expect cm5_collectives "cm5_coll.toml:4: control_network.collectives:" \
  app counter "$(cfg cm5_coll '[machine]\nmodel = "cm5"\n[control_network]\ncollectives = "magic"\n')"
expect cm5_slot "cm5_slot.toml:4: control_network.slot_cycles:" \
  run "$(cfg cm5_slot '[machine]\nmodel = "cm5"\n[control_network]\nslot_cycles = 0\n')"
expect cm5_ni_fifo "cm5_fifo.toml:4: control_network.ni_fifo_packets:" \
  run "$(cfg cm5_fifo '[machine]\nmodel = "cm5"\n[control_network]\nni_fifo_packets = 2\n')"
expect cm5_diag_nodes "--nodes: a CM-5 has a multiple of 32 nodes from 32 to 16384 (got 1000)" cm5-diagnose --nodes 1000
expect cm5_diag_stuck "--stuck" cm5-diagnose --stuck 2
expect cm5_sets_nodes "--nodes: a CM-5 has a multiple of 32 nodes from 32 to 16384 (got 1000)" cm5-sets --nodes 1000
expect cm5_sets_unknown "--sets: unknown message set 'tranpose'" cm5-sets --nodes 64 --sets tranpose
# Meshes with wrapped dimensions (cylinders), in-order routers and path multicast (docs/router.md).
mesh2='[topology]\nkind = "mesh"\nk = 8\nn = 2\n'
expect wrap_dim "wrap_dim.toml:5: topology.wrap: wrap[0] = 2: a 2-dimensional mesh has dimensions 0 to 1" \
  run "$(cfg wrap_dim "${mesh2}wrap = [2]\n")"
expect wrap_twice "wrap_twice.toml:5: topology.wrap: wrap[1] = 0: dimension 0 is listed twice" \
  run "$(cfg wrap_twice "${mesh2}wrap = [0, 0]\n")"
expect wrap_negative "wrap_negative.toml:7: topology.wrap[1]: must be between 0 and 23 (got -1)" \
  run "$(cfg wrap_negative "${mesh2}wrap = [\n  1,\n  -1,\n]\n")"
expect wrap_scalar "wrap_scalar.toml:5: topology.wrap: expected a list of integers" \
  run "$(cfg wrap_scalar "${mesh2}wrap = 1\n")"
expect wrap_ring_of_two "wrap_k2.toml:3: topology.k: a mesh with wrapped dimensions (topology.wrap) needs k >= 3 (got 2)" \
  run "$(cfg wrap_k2 '[topology]\nkind = "mesh"\nk = 2\nn = 2\nwrap = [0]\n')"
expect wrap_torus "wrap_torus.toml:5: topology.wrap: a torus has no key wrap" \
  run "$(cfg wrap_torus '[topology]\nkind = "torus"\nk = 8\nn = 2\nwrap = [1]\n')"
expect wrap_one_vc "wrap_vcs.toml:7: router.vcs: a mesh with wrapped dimensions (topology.wrap) needs at least 2 VCs" \
  run "$(cfg wrap_vcs "${mesh2}wrap = [1]\n[router]\nvcs = 1\n")"
expect in_order_type "in_order.toml:2: router.in_order: expected true or false" \
  run "$(cfg in_order '[router]\nin_order = 1\n')"
expect path_multicast_packet "network.model: the packet-level model does not model multicast" \
  run "$(cfg mcst_packet "${mesh2}path_multicast = true\n[network]\nmodel = \"packet\"\n")"
# The MBTA (machine.model = "mbta"): what MLINK and node programs cannot run, at its key.
mbta='[machine]\nmodel = "mbta"\nnodes = 64\n[metro]\nradix = 4\ndilation = 2\n[metro.mrp]\ndps = 2\n'
expect mbta_nodes "mbta_nodes.toml:3: machine.nodes: 48 nodes is not a power of metro.radix = 4" \
  app counter "$(cfg mbta_nodes '[machine]\nmodel = "mbta"\nnodes = 48\n')"
expect mbta_width "mbta_width.toml:9: metro.mrp.width: MLINK's network port is byte-wide (§11.2): w = 16 is not 8" \
  app counter "$(cfg mbta_width "${mbta}width = 16\n")"
expect mbta_faults "mbta_faults.toml:10: faults.packages: package faults are not modelled under node programs" \
  app counter "$(cfg mbta_faults "${mbta}[faults]\npackages = 2\n")"
expect mbta_trials "metro.mlink.max_trials: must be between 0 and 1000000000 (got -1)" \
  app counter "$(cfg mbta_trials "${mbta}[metro.mlink]\nmax_trials = -1\n")"
expect mbta_dma "am.dma: the MBTA runs node programs without am's DMA engine" \
  app getput "$(cfg mbta_dma "${mbta}[am]\ndma = true\n")"
exit $fail
