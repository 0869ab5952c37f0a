// registry/registry.hpp: what a machine folder adds to mppnet, and the table that holds every machine.
//
// Each folder under src/machines/<m>/ defines `void mppnet::machines::<m>::register_machine(Registry&)`
// and adds one Machine: its name, the config models it reads (each with its key table), presets for
// models owned elsewhere (the CM-5's preset of the generic network), its validation cases and its
// subcommands. app/ and exp/ reach machines only through machines() below, so adding a machine never
// edits them (docs/design.md, "Add a machine").
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/validation_case.hpp"
#include "io/config_loader.hpp"
#include "io/key_table.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace mppnet::am {
class Machine;
struct AmParams;
}  // namespace mppnet::am

namespace mppnet::registry {

// The model of the generic packet network (exp/): the default of every config's [machine] model.
inline constexpr std::string_view kNetworkModel = "network";

// What `mppnet run` (or a machine's config command) was given: the file, read and parsed once, the
// --set arguments in order and the output directory.
struct ConfigRequest {
  const io::ConfigFile& file;
  std::vector<std::string> sets;
  std::filesystem::path out;
};

// A machine model's nodes, built to run node programs (`mppnet app` on a config of that model): its
// network, network interfaces and the am::Machine on top of them.
class NodeMachine {
 public:
  virtual ~NodeMachine() = default;
  virtual am::Machine& machine() = 0;
  virtual std::uint64_t seed() const = 0;
  virtual std::string description() const = 0;  // "CM-5 data network, 1024 nodes"
  virtual std::string config_json() const = 0;  // the model's sections as results record them (JSON)
};

// What `mppnet app` needs of a model that runs node programs.
struct NodePrograms {
  // The machine's software cost model: [am] keys applied before the file's own [am] keys.
  io::PresetSets am_defaults;
  // Builds the machine from the file (its model's sections; [am] and [app] are read by app/) and the
  // loaded [am] parameters; throws core::ConfigError for bad input. Empty: the model runs no programs.
  std::function<std::unique_ptr<NodeMachine>(const io::ConfigFile& file, const std::vector<std::string>& sets,
                                             const am::AmParams& am)>
      build;
};

// A kind of config file, chosen by its [machine] model key, with its own key table and loader.
struct Model {
  std::string name;   // the value of machine.model, e.g. "cm1"
  std::string title;  // heading of its table in `mppnet list keys` and docs/config.md
  std::function<std::vector<io::KeyInfo>()> keys;
  // Loads and checks a config of this model from the parsed file; throws core::ConfigError with file,
  // line, key and reason. (Tests load every preset and config through it.)
  std::function<void(const io::ConfigFile&, const std::vector<std::string>& sets)> check;
  // `mppnet run` on a config of this model; empty when `run` does not apply to it. Returns the exit status.
  std::function<int(const ConfigRequest&)> run;
  // `mppnet app` on a config of this model (node programs on the machine); build empty when it has none.
  NodePrograms node_programs = {};
};

// Named defaults a machine contributes to a model that another layer owns: `[machine] preset = "cm5"`
// applies `sets` to a config of model `model` before the file's own keys.
struct Preset {
  std::string model;  // e.g. kNetworkModel
  std::string name;   // the value of machine.preset
  std::string doc;    // one line
  io::PresetSets sets;
};

class Registry;

// A subcommand of `mppnet` (`mppnet yield ...`). `declare` adds the command's options to `command` (the
// subcommand app/ created with this name and help), binding them to state that the returned function
// owns; app/ calls that function when the command line chose this command. It returns the exit status
// and reports bad input as core::ConfigError. `registry` is the whole registry (for the hint that names
// the right command when a file of another model is given); it outlives the command.
struct Command {
  std::string name;
  std::string help;
  std::string model;  // the model of the config file it takes ("" for none), for "use mppnet ..." hints
  std::function<std::function<int()>(CLI::App& command, const Registry& registry)> declare;
};

struct Machine {
  std::string name;  // the folder's name: "cm1"
  std::string doc;   // one line for `mppnet list machines`
  std::vector<Model> models;
  std::vector<Preset> presets;
  std::function<std::vector<core::ValidationCase>()> validation_cases;  // ids start with "<name>."
  std::vector<Command> commands;
};

class Registry {
 public:
  // REQUIRES: machine, model, preset and command names unique across the registry (checked: a clash
  // between two folders is our bug, not the user's).
  void add(Machine machine);

  const std::vector<Machine>& machines() const { return machines_; }
  // The registered model `name`, or nullptr (the network model is exp's and not registered here).
  const Model* find_model(std::string_view name) const;
  // The presets for `model`, in registration order.
  std::vector<const Preset*> presets_for(std::string_view model) const;
  // Commands that take a config of `model`: "mppnet run" when the model runs under `run`, then the
  // machine's own commands, e.g. "use mppnet yield or mppnet harvest"; "" when there are none.
  std::string commands_hint(std::string_view model) const;
  // Every case of every machine, machine by machine.
  std::vector<core::ValidationCase> validation_cases() const;

 private:
  std::vector<Machine> machines_;
};

// Every machine under src/machines/, registered in folder order on first use. Defined in the list that
// CMake generates from the folders (target mppnet_machines): link that target to call it.
const Registry& machines();

}  // namespace mppnet::registry
