// machines/cs2/node_machine.hpp: a CS-2 running node programs: its layers, the PEs' Elans as their
// network interface (elan_endpoint.hpp) and the active-message runtime of am/ on top.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "am/machine.hpp"
#include "core/scheduler.hpp"
#include "io/config_loader.hpp"
#include "machines/cs2/config.hpp"
#include "machines/cs2/cs2_network.hpp"
#include "machines/cs2/elan_endpoint.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::cs2 {

// The CS-2's [am] defaults: packets of byte flits carrying the Elan's overhead (elan.header_bytes +
// crc_bytes + eop_bytes of the default config) and up to 64 data bytes, the most an am packet carries;
// processor costs are am's generic ones at a 40 MHz clock (docs/cs2.md "Node programs" and
// docs/assumptions.md say why). As values, and as the [am] keys that set them.
am::AmParams cs2_am_params();
io::PresetSets cs2_software_costs();

class Cs2NodeMachine final : public registry::NodeMachine {
 public:
  // Throws am::ParamError (key am.separate_vnets) when requests and replies want a layer
  // each on a one-layer machine.
  Cs2NodeMachine(const Cs2Config& config, const am::AmParams& am);

  am::Machine& machine() override { return machine_; }
  std::uint64_t seed() const override { return static_cast<std::uint64_t>(config_.run.seed); }
  std::string description() const override;
  std::string config_json() const override;
  Cs2Network& network() { return network_; }
  const ElanEndpoint& endpoint() const { return endpoint_; }

 private:
  Cs2Config config_;
  bool hardware_collectives_;  // elan.collectives = "broadcast" on layers that can broadcast
  Cs2Network network_;
  core::Scheduler scheduler_;
  core::DomainId domain_;
  ElanEndpoint endpoint_;
  am::Machine machine_;
};

// registry::NodePrograms::build for a CS-2 config.
std::unique_ptr<registry::NodeMachine> build_node_machine(const io::ConfigFile& file,
                                                          const std::vector<std::string>& sets,
                                                          const am::AmParams& am);

}  // namespace mppnet::machines::cs2
