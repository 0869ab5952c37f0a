// exp/foundation_validation.cpp: the generic network's validation cases (docs/validation.md).
//
// Zero-load latency has an exact analytic value, L + R (P + L) + S - 1 for R routers, pipeline P, channel
// latency L and S flits (derivation in docs/validation.md), so its cases allow no error at all.
// Saturation throughput under uniform traffic is bounded by the channel load (Dally & Towles,
// "Principles and Practices of Interconnection Networks", 2004, §3.3): 4/k for a k x k mesh with DOR,
// and the injection/ejection channel (1 flit/node/cycle) for a full-bisection k-ary n-tree. A real
// router with finite buffers and separable allocation reaches only part of it. mppnet's requirement is
// saturation "just under" the bound and no source gives a width, so the band is the plain reading of
// those words, at most 10% under the bound, and nothing above it (a 30% band would have passed 0.35 of
// the mesh's 0.5). A router that falls further short is a documented difference with its
// cause (docs/assumptions.md), pinned to the value it gives, never a pass.
#include "exp/foundation_validation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "exp/dragonfly_validation.hpp"
#include "exp/fixed_run.hpp"
#include "exp/open_loop.hpp"
#include "topo/build.hpp"
#include "topo/fat_tree.hpp"
#include "topo/hypercube.hpp"
#include "topo/k_ary_n_cube.hpp"
#include "topo/routing.hpp"

namespace mppnet::exp {

namespace {

ExperimentConfig base_config() {
  ExperimentConfig c;
  c.router.vcs = 4;
  c.router.buffer_flits = 8;
  c.traffic.packet_flits = 4;
  return c;
}

}  // namespace

Tolerance saturation_tolerance() {
  return Tolerance::relative_band(0.10, 0.0);
}

const char* saturation_tolerance_origin() {
  return "above: none, no network beats its busiest channel (the channel-load bound, Dally & Towles "
         "2004 §3.3); below: mppnet's requirement 'just under the bound', read as within 10% (no source "
         "gives a width; docs/validation.md)";
}

ExperimentConfig mesh_8x8_config() {
  ExperimentConfig c = base_config();
  c.topology = topo::topology_of(topo::KAryNCubeParams{.k = 8, .n = 2, .torus = false});
  return c;
}

ExperimentConfig torus_8x8_config() {
  ExperimentConfig c = base_config();
  c.topology = topo::topology_of(topo::KAryNCubeParams{.k = 8, .n = 2, .torus = true});
  return c;
}

ExperimentConfig hypercube_1024_config() {
  ExperimentConfig c = base_config();
  c.topology = topo::topology_of(topo::HypercubeParams{.n = 10});
  return c;
}

ExperimentConfig kary_ntree_config(int k, int n) {
  ExperimentConfig c = base_config();
  c.topology = topo::topology_of(topo::FatTreeParams{.n = n, .children = k});
  return c;
}

ExperimentConfig fat_tree_224_config(int levels) {
  ExperimentConfig c = base_config();
  c.topology = topo::topology_of(
      topo::FatTreeParams{.n = levels, .children = 4, .parents = {2, 2, 4}, .leaf_links = 2});
  return c;
}

double accepted_throughput(ExperimentConfig cfg, double offered, int warmup, int measure) {
  return run_fixed_cycles(std::move(cfg), offered, warmup, measure).accepted();
}

double zero_load_max_error(const ExperimentConfig& cfg, int flits, int stride) {
  ProbeNetwork probe(cfg);
  // Every router adds its head stages, its pipeline and the next channel (RouterParams::hop_cycles).
  const int H = cfg.router.hop_cycles(), L = cfg.router.channel_latency;
  const int nodes = probe.built().graph.num_nodes;
  double worst = 0;
  for (NodeId s = 0; s < nodes; ++s) {
    for (NodeId d = s % stride; d < nodes; d += stride) {
      const SinglePacket got = probe.send(s, d, flits);
      const int routers = probe.built().routing.router_hops(s, d);
      const Cycle analytic = L + static_cast<Cycle>(routers) * H + (flits - 1);
      worst = std::max(worst, static_cast<double>(std::llabs(got.latency - analytic)));
    }
  }
  return worst;
}

std::vector<PipelineCase> pipeline_cases() {
  auto with = [](ExperimentConfig c, int rc, int va, int sa, int st, int credit, bool speculative) {
    net::RouterParams& r = c.router;
    r.routing_delay = rc;
    r.vc_alloc_delay = va;
    r.sw_alloc_delay = sa;
    r.st_delay = st;
    r.pipeline_cycles = sa + st;
    r.credit_delay = credit;
    r.speculative = speculative;
    return c;
  };
  auto vc = [](ExperimentConfig c, net::VcAllocatorKind kind, net::VcChoice choice) {
    c.router.vc_allocator = kind;
    c.router.vc_choice = choice;
    return c;
  };
  const ExperimentConfig four_stage = with(mesh_8x8_config(), 1, 1, 1, 1, 0, false);
  return {
      {"net.zero_load.mesh8x8_four_stage_output_first",
       "as four-stage, output-first VC allocation, random VC",
       vc(four_stage, net::VcAllocatorKind::OutputFirst, net::VcChoice::Random), 1},
      {"net.zero_load.mesh8x8_four_stage_wavefront", "as four-stage, wavefront VC allocation, round-robin VC",
       vc(four_stage, net::VcAllocatorKind::Wavefront, net::VcChoice::RoundRobin), 1},
      {"net.zero_load.mesh8x8_four_stage", "8x8 mesh, routing, VC, switch allocation, traversal 1 cycle each",
       with(mesh_8x8_config(), 1, 1, 1, 1, 0, false), 1},
      {"net.zero_load.mesh8x8_speculative",
       "8x8 mesh, as four-stage with VC and switch allocation overlapped",
       with(mesh_8x8_config(), 1, 1, 1, 1, 0, true), 1},
      {"net.zero_load.torus8x8_deep_pipeline", "8x8 torus, routing 2, VC 3, switch 1, traversal 2, credit 4",
       with(torus_8x8_config(), 2, 3, 1, 2, 4, false), 1},
      {"net.zero_load.tree4ary3_speculative",
       "4-ary 3-tree, routing 1, VC 2, switch 1, traversal 1, speculative",
       with(kary_ntree_config(4, 3), 1, 2, 1, 1, 0, true), 1},
  };
}

std::vector<ValidationCase> foundation_validation_cases() {
  const char* zero_load_source = "analytic: L + R(P + L) + S - 1, docs/validation.md §Zero-load latency";
  auto zero_load = [&](std::string id, std::string setup, ExperimentConfig cfg, int stride, bool slow) {
    return ValidationCase{
        .id = std::move(id),
        .source = zero_load_source,
        .setup = std::move(setup),
        .quantity = "max |simulated - analytic| zero-load latency over node pairs (cycles)",
        .expected = 0,
        .tolerance = Tolerance::exact(),
        .slow = slow,
        .measure = [cfg, stride] { return zero_load_max_error(cfg, 4, stride); },
        .tolerance_origin = "exact: a closed form of the timing model, every cycle accounted for",
    };
  };
  const char* bound_source =
      "channel-load bound, Dally & Towles 2004 §3.3; 'just under the bound' read as within 10% "
      "(docs/validation.md §Saturation throughput)";
  std::vector<ValidationCase> cases;
  cases.push_back(zero_load("net.zero_load.mesh8x8", "8x8 mesh, DOR, 4-flit packets, all pairs",
                            mesh_8x8_config(), 1, false));
  cases.push_back(zero_load("net.zero_load.torus8x8", "8x8 torus, dateline DOR, 4-flit packets, all pairs",
                            torus_8x8_config(), 1, false));
  cases.push_back(zero_load("net.zero_load.hypercube1024", "10-cube, e-cube, 4-flit packets, every 61st pair",
                            hypercube_1024_config(), 61, false));
  cases.push_back(zero_load("net.zero_load.tree4ary3", "4-ary 3-tree, random up-routing, all pairs",
                            kary_ntree_config(4, 3), 1, false));
  cases.push_back(zero_load("net.zero_load.cm5_1024", "CM-5 schedule fat tree, 1,024 nodes, every 61st pair",
                            fat_tree_224_config(5), 61, false));
  // Per-stage router delays (docs/router.md): each router adds H = routing + VC allocation (overlapped
  // with switch allocation when speculative) + switch allocation + traversal + channel.
  const char* pipeline_source = "analytic: L + R*H + S - 1, H from the drawn pipeline, docs/router.md";
  for (const auto& [id, setup, cfg, stride] : pipeline_cases()) {
    ValidationCase c = zero_load(id, setup, cfg, stride, false);
    c.source = pipeline_source;
    cases.push_back(std::move(c));
  }
  // Accepted throughput with every node offering 1.0 flits/node/cycle: past saturation, so what comes out
  // is the saturation throughput; 5,000 cycles of warm-up, 20,000 measured.
  auto saturation = [&](std::string id, std::string setup, std::string bound, double expected,
                        ExperimentConfig cfg) {
    return ValidationCase{
        .id = std::move(id),
        .source = bound_source,
        .setup = std::move(setup),
        .quantity = "accepted throughput at overload (flits/node/cycle); bound " + bound,
        .expected = expected,
        .tolerance = saturation_tolerance(),
        .slow = true,
        .measure = [cfg] { return accepted_throughput(cfg, 1.0, 5000, 20000); },
        .tolerance_origin = saturation_tolerance_origin(),
    };
  };
  const std::string tree_bound = "1.0 (ejection channel)";
  // The pinned bands of the documented differences (docs/assumptions.md, "Where a model differs from its
  // document"): each family's spread over the VC allocators and VC choices, widened by 3 standard
  // deviations of the default configuration's value over seeds 1-10 (Release build, the cases' run).
  const core::PinnedDifference mesh_one_pass{
      0.386, 0.398,
      "the one-pass separable switch allocator loses matches at the bisection channels: 0.391-0.393 of 0.5 "
      "(78%) whatever the VC allocator and VC choice; 3 allocator iterations reach 0.416 "
      "(docs/assumptions.md, \"Generic network, saturation\")",
      "0.391-0.393 over the VC allocators, +-0.004: 3 sd of seeds 1-10 (sd 0.0013)"};
  const core::PinnedDifference tree_one_pass{
      0.652, 0.680,
      "the one-pass separable switch allocator loses matches to head-of-line conflicts on the unique down "
      "paths: 0.657-0.675 of 1.0 whatever the VC allocator and VC choice; speedup 2 reaches 0.81, 3 "
      "allocator iterations 0.76 (docs/assumptions.md, \"Generic network, saturation\")",
      "0.657-0.675 over the VC allocators, +-0.005: 3 sd of seeds 1-10 (sd 0.0014)"};
  cases.push_back(
      saturation("net.saturation.mesh8x8_dor_uniform",
                 "8x8 mesh, DOR, 4 VCs x 8 flits, 4-flit packets, uniform, offered 1.0, 20k cycles measured",
                 "4/k = 0.5", 0.5, mesh_8x8_config()));
  cases.back().difference = mesh_one_pass;
  cases.push_back(
      saturation("net.saturation.tree4ary3_uniform",
                 "4-ary 3-tree, random free up-links, 4 VCs x 8 flits, 4-flit packets, uniform, offered 1.0",
                 tree_bound, 1.0, kary_ntree_config(4, 3)));
  cases.back().difference = tree_one_pass;
  ExperimentConfig speedup2 = kary_ntree_config(4, 3);
  speedup2.router.speedup = 2;
  cases.push_back(saturation("net.saturation.tree4ary3_uniform_speedup2",
                             "as net.saturation.tree4ary3_uniform, with router.speedup = 2", tree_bound, 1.0,
                             speedup2));
  cases.back().difference = core::pinned_around(
      0.806, 0.016,
      "0.806 (81%): a second crossbar pass recovers most of what the one-pass allocator loses on the unique "
      "down paths, not all (docs/assumptions.md, \"Generic network, saturation\")",
      "3 sd of seeds 1-10 (sd 0.0051)");
  ExperimentConfig islip3 = kary_ntree_config(4, 3);
  islip3.router.allocator_iterations = 3;
  cases.push_back(
      saturation("net.saturation.tree4ary3_uniform_islip3",
                 "as net.saturation.tree4ary3_uniform, with router.allocator_iterations = 3 (iSLIP-style)",
                 tree_bound, 1.0, islip3));
  cases.back().difference = core::pinned_around(
      0.761, 0.009,
      "0.761 (76%): iterating makes the match maximal (4 or 8 iterations give what 3 give); the rest of the "
      "gap is inputs whose front flits all want taken outputs or wait for credits (docs/assumptions.md, "
      "\"Generic network, saturation\")",
      "3 sd of seeds 1-10 (sd 0.0029)");
  // Every VC allocator and VC choice on the same two networks (the default pair is the cases above).
  const std::pair<net::VcAllocatorKind, const char*> allocators[] = {
      {net::VcAllocatorKind::InputFirst, "input_first"},
      {net::VcAllocatorKind::OutputFirst, "output_first"},
      {net::VcAllocatorKind::Wavefront, "wavefront"}};
  const std::pair<net::VcChoice, const char*> choices[] = {{net::VcChoice::LowestFree, "lowest_free"},
                                                           {net::VcChoice::RoundRobin, "round_robin"},
                                                           {net::VcChoice::Random, "random"}};
  for (const auto& [kind, kind_name] : allocators) {
    for (const auto& [choice, choice_name] : choices) {
      if (kind == net::VcAllocatorKind::InputFirst && choice == net::VcChoice::LowestFree) continue;
      const std::string suffix = fmt::format("va_{}_{}", kind_name, choice_name);
      const std::string how =
          fmt::format(", router.vc_allocator = {}, router.vc_choice = {}", kind_name, choice_name);
      ExperimentConfig mesh = mesh_8x8_config(), tree = kary_ntree_config(4, 3);
      for (ExperimentConfig* c : {&mesh, &tree}) {
        c->router.vc_allocator = kind;
        c->router.vc_choice = choice;
      }
      cases.push_back(saturation("net.saturation.mesh8x8_" + suffix,
                                 "as net.saturation.mesh8x8_dor_uniform" + how, "4/k = 0.5", 0.5, mesh));
      cases.back().difference = mesh_one_pass;
      cases.push_back(saturation("net.saturation.tree4ary3_" + suffix,
                                 "as net.saturation.tree4ary3_uniform" + how, tree_bound, 1.0, tree));
      cases.back().difference = tree_one_pass;
    }
  }
  // The dragonfly is a topology of this network: its cases are this network's too.
  for (auto& c : dragonfly_validation_cases()) cases.push_back(std::move(c));
  // Every expected value here is derived (the analytic zero-load latency, a channel-load bound), not a
  // number a source reports for a machine: independent evidence.
  for (ValidationCase& c : cases) c.evidence = core::Evidence::Independent;
  return cases;
}

}  // namespace mppnet::exp
