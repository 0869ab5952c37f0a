// app/design_commands.hpp: `mppnet design <calculator>`, the design arithmetic of DeHon's thesis.
//
// One sub-subcommand per calculator of machines/metro/design.hpp. Every option's default reproduces the
// thesis's worked example (note 004c §8 targets, note 004a R6), so `mppnet design rn1` prints 34 ns.
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace mppnet::app {

class DesignCommand {
 public:
  // Adds `design` and its calculators to `app`; the options bind to this object, so it must outlive parsing.
  explicit DesignCommand(CLI::App& app);
  ~DesignCommand();
  DesignCommand(const DesignCommand&) = delete;
  DesignCommand& operator=(const DesignCommand&) = delete;

  // True when the command line chose `mppnet design ...`.
  bool selected() const;
  // REQUIRES: selected(). Prints the result; a bad value throws core::ConfigError naming the option.
  int run() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace mppnet::app
