// app/usage_errors.hpp: command-line mistakes told as what to do, in place of the command-line library's
// own messages ("A subcommand is required", "what is required").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace mppnet::app {

// Parses the command line into `app`. Returns -1 when the command line is good and a command is to run;
// otherwise the exit status after printing what was asked (--help, --version: 0) or what is wrong and what
// to type instead (stderr, status 2: an unknown command, a missing argument, an unknown option).
int parse_command_line(CLI::App& app, int argc, char** argv);

// The one-line message for an unknown command `typed`, suggesting the nearest of `commands` by edit distance;
// `parent` is the command they belong to ("design"), empty for mppnet's own.
std::string unknown_command_message(std::string_view typed, const std::vector<std::string>& commands,
                                    std::string_view parent = {});

// The one-line message for options or arguments `extras` that command `command` does not take, suggesting
// the nearest of its options `options` for each that starts with '-'.
std::string unexpected_arguments_message(std::string_view command, const std::vector<std::string>& extras,
                                         const std::vector<std::string>& options);

}  // namespace mppnet::app
