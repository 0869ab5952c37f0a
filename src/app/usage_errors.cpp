// app/usage_errors.cpp: command-line mistakes told as what to do.
//
// The command-line library (CLI11) reports what it found ("A subcommand is required" for a typo in the
// command name, "what is required" for `mppnet list`); a newcomer needs what to type instead. Every
// message names the command, says what is wrong, suggests the nearest name where one is close, and points
// at that command's --help. Usage errors exit with status 2 (README.md's table of exit statuses).
#include "app/usage_errors.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "core/exit_status.hpp"
#include "io/key_table.hpp"
#include "io/printable.hpp"

namespace mppnet::app {

namespace {

std::vector<CLI::App*> commands_of(CLI::App& app) {
  return app.get_subcommands([](CLI::App*) { return true; });
}

std::vector<std::string> command_names(CLI::App& app) {
  std::vector<std::string> names;
  for (CLI::App* c : commands_of(app)) names.push_back(c->get_name());
  return names;
}

// The command the command line names, descending into commands of its own (`mppnet design latency`):
// `path` is how to type it ("design latency"; empty for mppnet itself), and `unknown` a word that names
// none of the commands where one is required.
struct Chosen {
  CLI::App* command = nullptr;
  std::string path;
  std::string unknown;
};

Chosen choose(CLI::App& app, int argc, char** argv) {
  Chosen c{&app, "", ""};
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (!word.empty() && word[0] == '-') continue;
    const auto subs = commands_of(*c.command);
    if (subs.empty()) break;
    CLI::App* found = nullptr;
    for (CLI::App* sub : subs)
      if (sub->get_name() == word) found = sub;
    if (found != nullptr) {
      c.command = found;
      c.path += (c.path.empty() ? "" : " ") + word;
      continue;
    }
    if (c.command == &app || c.command->get_require_subcommand_min() > 0) c.unknown = word;
    break;
  }
  return c;
}

// "mppnet run CONFIG [options]": the positionals in order, in capitals, optional ones in brackets.
std::string synopsis(CLI::App& command, const std::string& path) {
  std::string s = "mppnet " + path;
  for (const CLI::Option* o : command.get_options()) {
    if (o->nonpositional()) continue;
    std::string name = o->get_name(true);
    for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (o->get_items_expected_max() > 1) name += "...";
    s += o->get_required() ? " " + name : " [" + name + "]";
  }
  return s + " [options]";
}

std::vector<std::string> option_names(CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* o : command.get_options())
    for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
  return names;
}

void print_commands(CLI::App& app) {
  std::fputs("usage: mppnet COMMAND [arguments] [options]; the commands:\n", stderr);
  for (CLI::App* c : commands_of(app))
    std::fprintf(stderr, "  %-14s %s\n", c->get_name().c_str(), c->get_description().c_str());
  std::fputs("`mppnet COMMAND --help` shows a command's arguments and options.\n", stderr);
}

int fail(const std::string& message) {
  std::fprintf(stderr, "%s\n", message.c_str());
  return core::kExitInputError;
}

}  // namespace

std::string unknown_command_message(std::string_view typed, const std::vector<std::string>& commands,
                                    std::string_view parent) {
  const std::string guess = io::nearest(typed, commands);
  std::string list;
  for (const std::string& c : commands) list += (list.empty() ? "" : ", ") + c;
  const std::string help = parent.empty() ? "mppnet --help" : fmt::format("mppnet {} --help", parent);
  return fmt::format("mppnet{}{}: unknown command \"{}\"{}; the commands are {} ({})",
                     parent.empty() ? "" : " ", parent, typed,
                     guess.empty() ? "" : fmt::format(" (did you mean {}?)", guess), list, help);
}

std::string unexpected_arguments_message(std::string_view command, const std::vector<std::string>& extras,
                                         const std::vector<std::string>& options) {
  std::string what;
  for (const std::string& e : extras) {
    if (!what.empty()) what += ", ";
    if (e.empty() || e[0] != '-') {
      what += fmt::format("unexpected argument \"{}\"", e);
      continue;
    }
    // "--out=dir" is the option --out with a value: suggest from the name alone.
    const std::string name = e.substr(0, e.find('='));
    const std::string guess = io::nearest(name, options);
    what +=
        fmt::format("unknown option {}{}", e, guess.empty() ? "" : fmt::format(" (did you mean {}?)", guess));
  }
  return fmt::format("mppnet {}: {}; see `mppnet {} --help`", command, what, command);
}

int parse_command_line(CLI::App& app, int argc, char** argv) {
  if (argc <= 1) {
    std::fputs("mppnet: no command given\n", stderr);
    print_commands(app);
    return core::kExitInputError;
  }
  // Arguments reach messages, file names and JSON results (which must be UTF-8): a malformed or
  // control character is refused here, before any work, and shown escaped.
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    const bool control = std::any_of(
        word.begin(), word.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
    if (control || !io::is_valid_utf8(word))
      return fail(
          fmt::format("mppnet: argument {} \"{}\" has {}; mppnet records its arguments in its "
                      "results: rename the file or folder, or retype the argument",
                      i, io::printable(word), control ? "a control character" : "bytes that are not UTF-8"));
  }
  const Chosen chosen = choose(app, argc, argv);
  // A word that names no command: CLI11 would say "A subcommand is required".
  if (!chosen.unknown.empty())
    return fail(unknown_command_message(chosen.unknown, command_names(*chosen.command), chosen.path));
  if (chosen.command == &app) {
    // Only options, and not --help or --version: CLI11 would say "A subcommand is required".
    for (int i = 1; i < argc; ++i) {
      const std::string word = argv[i];
      if (word == "-h" || word == "--help" || word == "--version") continue;
      return fail(
          fmt::format("mppnet: unknown option {}; options come after the command: mppnet COMMAND "
                      "[options] (mppnet --help)",
                      word));
    }
  }
  try {
    app.parse(argc, argv);
    return -1;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    CLI::App& command = *chosen.command;
    const std::string& name = chosen.path;
    if (&command == &app) {
      std::fputs("mppnet: no command given\n", stderr);
      print_commands(app);
      return core::kExitInputError;
    }
    if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
      for (const CLI::Option* o : command.get_options()) {
        if (!o->get_required() || o->count() > 0) continue;
        std::string upper = o->get_name(true);
        for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        return fail(fmt::format("mppnet {}: missing {} ({}); type {}; see `mppnet {} --help`", name, upper,
                                o->get_description(), synopsis(command, name), name));
      }
      if (command.get_require_subcommand_min() > 0) {
        std::string list;
        for (const std::string& c : command_names(command)) list += (list.empty() ? "" : ", ") + c;
        return fail(fmt::format("mppnet {}: say which: {}; see `mppnet {} --help`", name, list, name));
      }
    }
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
      std::vector<std::string> extras = command.remaining();
      if (extras.empty()) extras = app.remaining();
      if (!extras.empty()) return fail(unexpected_arguments_message(name, extras, option_names(command)));
    }
    return fail(fmt::format("mppnet {}: {}; see `mppnet {} --help`", name, e.what(), name));
  }
}

}  // namespace mppnet::app
