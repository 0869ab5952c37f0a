// exp/fidelity_validation.cpp: the packet-level model against the flit-level model: zero-load latency to
// the cycle, and mean latency under uniform load side by side.
//
// The expected value of a latency case is the flit model's own mean on the same network, traffic and
// seed, computed by the case; the tolerance (5%) is the issue's requirement, not a fit.
#include "exp/fidelity_validation.hpp"

#include <cmath>

#include "exp/foundation_validation.hpp"
#include "exp/open_loop.hpp"

namespace mppnet::exp {

namespace {

using core::Tolerance;
using core::ValidationCase;

ExperimentConfig packet_level(ExperimentConfig c) {
  c.router.model = net::NetworkModelKind::Packet;
  return c;
}

// (packet - flit) / flit of the mean latency at `rate` packets... flits per node per cycle.
double latency_difference(ExperimentConfig cfg, double rate) {
  cfg.traffic.rate = rate;
  const double flit = run_open_loop(cfg).latency_avg;
  const double packet = run_open_loop(packet_level(cfg)).latency_avg;
  return (packet - flit) / flit;
}

}  // namespace

std::vector<ValidationCase> fidelity_validation_cases() {
  std::vector<ValidationCase> cases;
  const char* analytic =
      "the flit model's zero-load latency L + R*H + S - 1 (docs/router.md), which "
      "net.zero_load.* checks for the flit model";
  auto zero_load = [&](std::string id, std::string setup, ExperimentConfig cfg, int stride) {
    cases.push_back({std::move(id), analytic, std::move(setup) + ", packet-level model",
                     "largest |simulated - analytic| zero-load latency over the pairs (cycles)", 0,
                     Tolerance::exact(), false, [cfg = packet_level(std::move(cfg)), stride] {
                       return zero_load_max_error(cfg, 4, stride);
                     }});
  };
  zero_load("fidelity.zero_load.mesh8x8", "8x8 mesh, DOR, 4-flit packets, all pairs", mesh_8x8_config(), 1);
  zero_load("fidelity.zero_load.torus8x8", "8x8 torus, dateline DOR, all pairs", torus_8x8_config(), 1);
  zero_load("fidelity.zero_load.hypercube1024", "10-cube, e-cube, every 61st pair", hypercube_1024_config(),
            61);
  zero_load("fidelity.zero_load.tree4ary3", "4-ary 3-tree, random up-routing, all pairs",
            kary_ntree_config(4, 3), 1);
  zero_load("fidelity.zero_load.cm5_1024", "CM-5 schedule fat tree, 1,024 nodes, every 61st pair",
            fat_tree_224_config(5), 61);

  const char* issue =
      "fidelity requirement: mean latency within 5% of the flit model up to 70% of saturation";
  auto latency = [&](std::string id, std::string setup, ExperimentConfig cfg, double rate, std::string why) {
    cases.push_back({std::move(id), issue, std::move(setup), "(packet - flit) / flit, mean latency", 0,
                     Tolerance::absolute(0.05), true,
                     [cfg = std::move(cfg), rate] { return latency_difference(cfg, rate); }, std::move(why)});
  };
  ExperimentConfig one_vc = mesh_8x8_config();
  one_vc.router.vcs = 1;
  latency("fidelity.latency.mesh8x8_1vc_uniform_0.2",
          "8x8 mesh, 1 VC, 4-flit packets, uniform, 0.2 flits/node/cycle (60% of its 0.33 saturation)",
          one_vc, 0.2, "");
  latency("fidelity.latency.mesh8x8_1vc_uniform_0.3",
          "8x8 mesh, 1 VC, 4-flit packets, uniform, 0.3 flits/node/cycle (90% of saturation)", one_vc, 0.3,
          "");
  const char* interleaving =
      "with several VCs the flit model interleaves packets of different VCs flit by flit on a channel "
      "(each slowed), where the packet model sends them one after the other: its mean latency is lower "
      "(docs/assumptions.md, \"Packet-level model\")";
  latency("fidelity.latency.mesh8x8_uniform_0.2",
          "8x8 mesh, 4 VCs, 4-flit packets, uniform, 0.2 flits/node/cycle", mesh_8x8_config(), 0.2,
          interleaving);
  latency("fidelity.latency.cm5_1024_uniform_0.1",
          "CM-5 schedule fat tree, 1,024 nodes, 4 VCs, 4-flit packets, uniform, 0.1 flits/node/cycle",
          fat_tree_224_config(5), 0.1, interleaving);
  return cases;
}

}  // namespace mppnet::exp
