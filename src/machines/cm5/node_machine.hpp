// machines/cm5/node_machine.hpp: a CM-5 running node programs: its data network, the network interfaces
// of its nodes and the active-message runtime of am/ on top, with the CM-5's software cost model.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "am/machine.hpp"
#include "core/scheduler.hpp"
#include "io/config_loader.hpp"
#include "machines/cm5/config.hpp"
#include "machines/cm5/data_network.hpp"
#include "machines/cm5/network_interface.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::cm5 {

// The CM-5's software cost model: a 32 MHz SPARC that reaches its network interface by loads and stores
// (note 000 A30); docs/cm5.md gives the calibration. As values, and as the [am] keys that set them.
am::AmParams cm5_am_params();
io::PresetSets cm5_software_costs();

class Cm5NodeMachine final : public registry::NodeMachine {
 public:
  // REQUIRES: am.separate_vnets chooses 2 (left and right) or 1 (left only) virtual networks.
  Cm5NodeMachine(const Cm5Config& config, const am::AmParams& am);

  am::Machine& machine() override { return machine_; }
  std::uint64_t seed() const override { return static_cast<std::uint64_t>(config_.run.seed); }
  std::string description() const override;
  std::string config_json() const override;
  DataNetwork& network() { return *network_; }

 private:
  Cm5Config config_;
  std::unique_ptr<DataNetwork> network_;
  core::Scheduler scheduler_;
  core::DomainId domain_;
  NetworkInterfaces interfaces_;
  am::Machine machine_;
};

// registry::NodePrograms::build for a CM-5 config.
std::unique_ptr<registry::NodeMachine> build_node_machine(const io::ConfigFile& file,
                                                          const std::vector<std::string>& sets,
                                                          const am::AmParams& am);

}  // namespace mppnet::machines::cm5
