// app/booksim_network.cpp: a BookSim file's topology, routing function and router keys in mppnet's terms.
//
// Read from booksim2's networks/ (kncube.cpp, cmesh.cpp, fattree.cpp), routefunc.cpp, routers/iq_router.cpp
// and allocators/allocator.cpp; docs/router.md gives the table.
#include <charconv>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "app/booksim_translation.hpp"

namespace mppnet::app::booksim {

namespace {

// BookSim allocator names: "name" or "name(args)". Returns mppnet's kind for the separable and iSLIP
// allocators (iSLIP's request-grant-accept is output-first), or "" with the reason in `why`.
// Without parentheses iSLIP runs `alloc_iters` iterations (BookSim's allocator.cpp).
std::string allocator_kind(const std::string& spec, int alloc_iters, int* iterations, std::string* why) {
  const auto paren = spec.find('(');
  const std::string name = spec.substr(0, paren);
  *iterations = name == "islip" ? alloc_iters : 1;
  if (paren != std::string::npos &&
      (spec.back() != ')' || spec.find_first_of("()", paren + 1) != spec.size() - 1)) {
    *why = fmt::format("\"{}\" is not name(arguments): its parentheses do not balance", spec);
    return "";
  }
  const std::string args = paren == std::string::npos ? "" : spec.substr(paren + 1, spec.size() - paren - 2);
  if (name == "islip") {
    if (!args.empty()) {
      const auto [end, ec] = std::from_chars(args.data(), args.data() + args.size(), *iterations);
      if (ec != std::errc() || end != args.data() + args.size()) *iterations = 0;
    }
    if (*iterations < 1 || *iterations > 8) {
      *why = fmt::format("iSLIP iterations must be 1..8 in mppnet (got {})", *iterations);
      return "";
    }
    return "output_first";
  }
  if (name == "separable_input_first" || name == "separable_output_first") {
    if (!args.empty() && args != "round_robin") {
      *why = "mppnet's separable allocators use round-robin arbiters only";
      return "";
    }
    return name == "separable_input_first" ? "input_first" : "output_first";
  }
  if (name == "wavefront") return "wavefront";
  *why =
      "mppnet has separable input-first and output-first allocators, iSLIP-style iterations and a "
      "wavefront VC allocator";
  return "";
}

}  // namespace

int Translation::channel_latency() {
  // BookSim sets link latencies per topology; mppnet has one latency for every channel.
  // Of BookSim's topologies mppnet models, the k-ary n-cube, cmesh and flatfly read use_noc_latency.
  const std::string& topo = value("topology");
  if (topo != "torus" && topo != "mesh" && topo != "cmesh" && topo != "flatfly") return 1;
  if (topo != "mesh" && integer("use_noc_latency") != 0) {
    reject(
        "use_noc_latency",
        topo == "torus"
            ? "with it a BookSim torus has 2-cycle router links and 1-cycle node links, and mppnet has one "
              "latency for every channel; set use_noc_latency = 0 (all links 1 cycle) to import"
            : fmt::format("with it BookSim's {} gives its channels latencies from their lengths on the "
                          "chip (1 cycle on node links, more on router links), and mppnet has one latency "
                          "for every channel; set use_noc_latency = 0 (all links 1 cycle) to import",
                          topo));
  }
  value("use_noc_latency");  // a mesh's links are 1 cycle either way
  return 1;
}

void Translation::topology() {
  const std::string topo = value("topology");
  const std::string routing = value("routing_function");
  if (topo == "mesh" || topo == "torus") {
    set("topology", "kind", quoted(topo));
    set("topology", "k", std::to_string(integer("k")));
    set("topology", "n", std::to_string(integer("n")));
    const bool dor = topo == "mesh" ? (routing == "dor" || routing == "dim_order") : routing == "dim_order";
    if (!dor)
      reject("routing_function",
             fmt::format("{}_{}: mppnet routes a {} in dimension order only ({})", routing, topo, topo,
                         topo == "mesh" ? "dor, dim_order" : "dim_order"));
    return;
  }
  if (topo == "fattree") {
    set("topology", "kind", quoted("fat_tree"));
    set("topology", "children", std::to_string(integer("k")));
    set("topology", "n", std::to_string(integer("n")));
    // nca: nearest common ancestor, a random parent on the way up; anca: the adaptive one.
    if (routing == "nca") {
      set("topology", "up_routing", quoted("random"));
    } else if (routing == "anca") {
      set("topology", "up_routing", quoted("adaptive"));
    } else {
      reject("routing_function", fmt::format("{}_fattree: expected nca or anca", routing));
    }
    return;
  }
  if (topo == "cmesh") {
    cmesh(routing);
    return;
  }
  if (topo == "dragonflynew") {
    reject("topology",
           "BookSim's dragonflynew has 10-cycle channels inside a group and 100-cycle channels between "
           "groups, built in; mppnet has one channel latency (build the dragonfly from mppnet's own keys, "
           "docs/config.md)");
    value("k");
    value("n");
    return;
  }
  reject("topology",
         fmt::format("\"{}\" is not a topology mppnet models (mesh, torus, cmesh and fattree are)", topo));
  for (const char* key : {"k", "n"}) value(key);
}

void Translation::cmesh(const std::string& routing) {
  // BookSim's cmesh (networks/cmesh.cpp) asserts n <= 2, c = 4 = xr x yr, x = y and xr = yr, and puts
  // c / n nodes along x and the rest along y of each router.
  require("n", "2", "BookSim's cmesh is two-dimensional");
  require("c", "4", "BookSim's cmesh asserts c = 4");
  if (integer("xr") * integer("yr") != integer("c") || integer("xr") != integer("yr"))
    reject("xr", "BookSim's cmesh asserts xr = yr and c = xr x yr");
  if (integer("x") != integer("y")) reject("x", "BookSim's cmesh asserts x = y");
  set("topology", "kind", quoted("cmesh"));
  set("topology", "k", std::to_string(integer("k")));
  set("topology", "concentration_x", "2");
  set("topology", "concentration_y", "2");
  if (routing != "dor_no_express")
    reject("routing_function",
           fmt::format("{}_cmesh: mppnet's cmesh routes in XY order without BookSim's express channels "
                       "(dor_no_express); dor and xy_yx use them, xy_yx adaptively",
                       routing));
}

void Translation::router(int latency) {
  set("router", "vcs", std::to_string(integer("num_vcs")));
  set("router", "buffer_flits", std::to_string(integer("vc_buf_size")));
  set("router", "channel_latency", std::to_string(latency));
  set("router", "routing_delay", std::to_string(integer("routing_delay")));
  set("router", "vc_alloc_delay", std::to_string(integer("vc_alloc_delay")));
  set("router", "sw_alloc_delay", std::to_string(integer("sw_alloc_delay")));
  // BookSim's IQ router refuses allocators without delay ("... cannot have zero delay").
  for (const char* key : {"vc_alloc_delay", "sw_alloc_delay"})
    if (integer(key) < 1) reject(key, "BookSim's IQ router refuses a delay below 1 here");
  set("router", "st_delay", std::to_string(integer("st_prepare_delay") + integer("st_final_delay")));
  set("router", "speculative", integer("speculative") > 0 ? "true" : "false");
  // BookSim applies a credit credit_delay cycles after it crosses its channel (iq_router.cpp).
  set("router", "credit_delay", std::to_string(latency + integer("credit_delay")));
  if (integer("sw_alloc_delay") > 1)
    notes_.push_back(
        "BookSim's switch allocation of sw_alloc_delay > 1 cycles lets a VC send one flit per "
        "sw_alloc_delay cycles; mppnet pipelines it (one flit per cycle)");
  int iterations = 1;
  std::string why;
  const std::string& vc_spec = value("vc_allocator");
  const std::string& sw_spec = value("sw_allocator");
  // BookSim reads alloc_iters for iSLIP, PIM and select without parentheses, arb_type for the separable
  // allocators without parentheses; otherwise it ignores them (unread_keys() notes that).
  auto bare = [&](const char* name) { return vc_spec == name || sw_spec == name; };
  const int alloc_iters =
      bare("islip") || bare("pim") || bare("select") ? static_cast<int>(integer("alloc_iters")) : 1;
  if (bare("separable_input_first") || bare("separable_output_first"))
    require("arb_type", "round_robin", "mppnet's separable allocators use round-robin arbiters only");
  const std::string vc = allocator_kind(vc_spec, alloc_iters, &iterations, &why);
  if (vc.empty()) reject("vc_allocator", why);
  if (!vc.empty() && iterations > 1)
    reject(
        "vc_allocator",
        fmt::format("{} runs {} iterations; mppnet's VC allocators run one pass (the wavefront one finds a "
                    "maximal match)",
                    vc_spec, iterations));
  if (!vc.empty()) set("router", "vc_allocator", quoted(vc));
  const std::string sw = allocator_kind(sw_spec, alloc_iters, &iterations, &why);
  if (sw == "wavefront") {
    reject("sw_allocator", "mppnet has no wavefront switch allocator");
  } else if (sw.empty()) {
    reject("sw_allocator", why);
  } else {
    set("router", "allocator", quoted(sw));
    set("router", "allocator_iterations", std::to_string(iterations));
  }
  const double speedup = real("internal_speedup");
  if (speedup != std::floor(speedup) || speedup < 1 || speedup > 8) {
    reject("internal_speedup",
           "mppnet's crossbar speedup is a whole number of passes, 1..8; a fractional one needs a router "
           "that runs an extra pass in some cycles only");
  } else {
    set("router", "speedup", std::to_string(static_cast<int>(speedup)));
  }
  const char* same = "mppnet models BookSim's default only";
  require("router", "iq", "mppnet's router is the input-queued VC router");
  require("input_speedup", "1",
          "mppnet's router has one crossbar input per input port (BookSim's input_speedup = 1)");
  require("output_speedup", "1", same);
  require("wait_for_tail_credit", "0",
          "mppnet frees an output VC when the tail leaves (BookSim's 0), not when its credit returns");
  require("vc_busy_when_full", "0", same);
  require("vc_prioritize_empty", "0", same);
  require("hold_switch_for_packet", "0",
          "mppnet's switch allocator arbitrates every flit; holding the crossbar connection for a whole "
          "packet is not modelled");
  require("noq", "0", same);
  require("buf_size", "-1", "mppnet's buffers are per VC (vc_buf_size)");
  require("buffer_policy", "private", "mppnet's buffers are private per VC");
  require("output_buffer_size", "-1", same);
  value("arb_type");  // not read by BookSim's IQ router (arbiters go in the allocator's parentheses)
  require("subnets", "1", "mppnet splits VCs into virtual networks instead (router.vnets)");
  require("classes", "1", "traffic classes are not modelled");
  require("priority", "none", same);
  require("use_read_write", "0", "request-reply traffic runs as node programs (mppnet app), not here");
  if (integer("speculative") > 0) {
    // BookSim's defaults: a speculative request needs an eligible output VC and a credit, which
    // mppnet's head always has, since it bids for the switch once its VC is granted.
    require("spec_check_elig", "1", same);
    require("spec_check_cred", "1", same);
    require("spec_mask_by_reqs", "0", same);
    note("spec_sw_allocator",
         fmt::format("BookSim arbitrates speculative switch requests in a second allocator ({}) that "
                     "serves them after the non-speculative ones; mppnet's speculation is a timing (VC and "
                     "switch allocation in one stage) and its requests are arbitrated as any other",
                     value("spec_sw_allocator")));
  }
}

}  // namespace mppnet::app::booksim
