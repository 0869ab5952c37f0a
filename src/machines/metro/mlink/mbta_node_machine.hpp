// machines/metro/mlink/mbta_node_machine.hpp: an MBTA running node programs: its METRO network under
// MRP, MLINK on every node as the network interface (mlink_endpoint.hpp) and the active-message runtime
// of am/ on top, as cs2/node_machine.hpp builds a CS-2.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "am/machine.hpp"
#include "core/scheduler.hpp"
#include "io/config_loader.hpp"
#include "machines/metro/metro_config.hpp"
#include "machines/metro/mlink/mlink_endpoint.hpp"
#include "machines/metro/mrp/mrp_network.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::metro::mlink {

// The MBTA's [am] defaults: a 25 MHz i960CA (§10.2, L2981) with am's generic software costs, byte
// flits (a byte-wide port), one header byte in the runtime's packets (the sender's number: MLINK frames
// the rest, opcode, len, the handler's address and two checks, and a frame names no source), and up to
// 64 data bytes a packet, am's largest. As values, and as the [am]
// keys that set them.
am::AmParams mbta_am_params();
io::PresetSets mbta_software_costs();

class MbtaNodeMachine final : public registry::NodeMachine {
 public:
  // REQUIRES: check_mbta(config, am) passed.
  MbtaNodeMachine(const MetroConfig& config, const am::AmParams& am);

  am::Machine& machine() override { return machine_; }
  std::uint64_t seed() const override { return static_cast<std::uint64_t>(config_.run.seed); }
  std::string description() const override;
  std::string config_json() const override;
  const MlinkEndpoint& endpoint() const { return endpoint_; }

 private:
  MetroConfig config_;
  Multibutterfly graph_;
  mrp::MrpNetwork network_;
  core::Scheduler scheduler_;
  core::DomainId domain_;
  MlinkEndpoint endpoint_;
  am::Machine machine_;
};

// What `mppnet app` cannot run on the MBTA: the MRP run's checks (a multibutterfly the routers can run),
// MLINK's (byte-wide, at most 256 nodes), package faults (not modelled under node programs), am's DMA
// engine (not modelled on the MBTA), and am packets larger than an ROP. Throws core::ConfigError at the key.
void check_mbta(const MetroConfig& c, const am::AmParams& am);

// registry::NodePrograms::build for an MBTA config.
std::unique_ptr<registry::NodeMachine> build_node_machine(const io::ConfigFile& file,
                                                          const std::vector<std::string>& sets,
                                                          const am::AmParams& am);

}  // namespace mppnet::machines::metro::mlink
