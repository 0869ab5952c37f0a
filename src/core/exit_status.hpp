// core/exit_status.hpp: what the mppnet command's exit status means; README.md has the table.
#pragma once

namespace mppnet::core {

// One meaning each. app/ maps errors to them; a machine's command returns them.
enum ExitStatus : int {
  kExitSuccess = 0,
  kExitRunFailed = 1,   // a run, a plot, an application's self-check or a validation case failed
  kExitInputError = 2,  // bad config, command line or output location: one line names file, line, key
  kExitDeadlock = 3,    // the no-progress watchdog found a network or node programs stuck for good
  kExitLivelock = 4,    // the CM-1 router's livelock timeout expired with messages undelivered
};

}  // namespace mppnet::core
